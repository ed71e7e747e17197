#include "jobs/parallel/srun_mpi_types.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "jobs/parallel/script_quoting.hpp"

namespace vibro {

namespace {

// srun's --mpi types in Slurm's documentation (srun(1), mpi_guide), for a machine without srun.
const std::vector<std::string>& documented_types() {
  static const std::vector<std::string> names = {"none",    "pmi2",    "pmix",    "pmix_v2",
                                                 "pmix_v3", "pmix_v4", "pmix_v5", "cray_shasta"};
  return names;
}

std::string on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const std::string candidate = (folder.empty() ? "." : folder) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace

std::vector<std::string> parse_srun_mpi_list(const std::string& output) {
  static const std::regex type(R"([a-z][a-z0-9_]*)");
  std::vector<std::string> names;
  auto add = [&](std::string word) {
    word.erase(0, word.find_first_not_of(" \t,"));
    word.erase(word.find_last_not_of(" \t,\r") + 1);
    if (std::regex_match(word, type) && std::find(names.begin(), names.end(), word) == names.end()) names.push_back(word);
  };
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("srun: ", 0) == 0) line.erase(0, 6);
    if (line.find("error") != std::string::npos || line.find("are...") != std::string::npos) continue;
    if (const auto colon = line.find("available:"); colon != std::string::npos) {
      std::istringstream versions(line.substr(colon + 10));
      for (std::string v; std::getline(versions, v, ',');) add(v);
    } else {
      add(line);
    }
  }
  return names;
}

SrunMpiTypes srun_mpi_types() {
  const std::string srun = on_path("srun");
  if (srun.empty()) return {documented_types(), "Slurm's documented types (no srun on PATH)"};
  std::FILE* pipe = popen((shell_quoted(srun) + " --mpi=list 2>&1").c_str(), "r");
  std::string output;
  if (pipe) {
    std::array<char, 256> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe)) output += buffer.data();
  }
  const int status = pipe ? pclose(pipe) : -1;
  std::vector<std::string> names = status == 0 ? parse_srun_mpi_list(output) : std::vector<std::string>{};
  if (!names.empty()) return {names, "srun --mpi=list"};
  const std::string first_line = output.substr(0, output.find('\n'));
  return {documented_types(), "Slurm's documented types (srun --mpi=list " +
                                  (status == 0 ? std::string("listed none") : "failed: " + echoed(first_line)) + ")"};
}

}  // namespace vibro
