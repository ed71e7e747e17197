#include "jobs/parallel/launcher_rank.hpp"

#include <cstdlib>
#include <string>

namespace vibro {

namespace {

// A non-negative integer from the environment variable, or -1.
int number_from(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return -1;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' && value >= 0 && value < (1L << 30) ? static_cast<int>(value) : -1;
}

}  // namespace

LauncherRank launcher_rank() {
  const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                            {"PMI_RANK", "PMI_SIZE"},
                            {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
                            {"SLURM_PROCID", "SLURM_STEP_NUM_TASKS"}};
  for (const auto& pair : pairs) {
    const int rank = number_from(pair[0]);
    if (rank < 0) continue;
    const int size = number_from(pair[1]);
    return {rank, size > rank ? size : rank + 1};
  }
  return {};
}

}  // namespace vibro
