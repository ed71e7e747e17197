#include "jobs/output/extension_checkpoint.hpp"

#include <filesystem>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/output/safe_path.hpp"
#include "jobs/sweep/case_result_codec.hpp"

namespace vibro {

namespace {

std::string budget_setting(const SweepSpec& spec) { return "run.extend_unsettled = " + std::to_string(spec.extend_unsettled); }

std::string extension_fingerprint(const SweepSpec& spec) { return spec.fingerprint() + " " + budget_setting(spec); }

std::string extension_settings(const SweepSpec& spec) { return spec.result_settings() + "\n" + budget_setting(spec); }

}  // namespace

std::string extension_log_path(const std::string& output_file) { return output_file + ".ckpt.extension"; }

CheckpointHeader extension_log_header(const SweepSpec& spec, CheckpointHeader grid_header) {
  grid_header.fingerprint = extension_fingerprint(spec);
  grid_header.settings = extension_settings(spec);
  return grid_header;
}

void check_extension_log(const std::string& path, const SweepSpec& spec) {
  const PathKind kind = path_kind(path);
  if (kind == PathKind::Missing || (kind == PathKind::Regular && std::filesystem::file_size(path) == 0)) return;
  require_same_sweep(read_checkpoint_header(path), extension_fingerprint(spec), extension_settings(spec), path);
}

SavedExtension load_extension_log(const std::string& path, const SweepSpec& spec) {
  SavedExtension saved;
  if (path_kind(path) == PathKind::Missing) return saved;
  const long long cases = spec.case_count();
  const auto check = [&](const CheckpointHeader& header) {
    require_same_sweep(header, extension_fingerprint(spec), extension_settings(spec), path);
    return true;
  };
  const auto take = [&](const char* payload, std::size_t size, std::uint64_t) {
    // A batch is taken whole or not at all: a record that does not decode ends the trust in the log.
    std::vector<std::pair<long long, CaseResult>> batch;
    try {
      for (std::size_t at = 0; at < size;) {
        long long index = -1;
        CaseResult result;
        decode_case(payload, size, at, index, result);
        if (index < 0 || index >= cases) throw std::runtime_error("index");
        batch.emplace_back(index, std::move(result));
      }
    } catch (const std::runtime_error&) {
      return false;
    }
    for (auto& [index, result] : batch) {
      ++saved.runs[index];
      saved.failed[index] = result.status != CaseStatus::Ok;
      if (result.status == CaseStatus::Ok) saved.latest[index] = std::move(result);
    }
    return true;
  };
  saved.damaged = scan_checkpoint(path, check, take).damaged;
  return saved;
}

}  // namespace vibro
