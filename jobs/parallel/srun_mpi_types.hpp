#pragma once
// The MPI plugin types srun takes (--mpi=TYPE), so that vibro submit refuses a type the cluster lacks
// before the job waits in the queue only to fail at its srun line.
#include <string>
#include <vector>

namespace vibro {

struct SrunMpiTypes {
  std::vector<std::string> names;
  std::string source;  // "srun --mpi=list" or why Slurm's documented types stand in for it
};

// `srun --mpi=list` where srun is on PATH and answers; else the types Slurm documents.
SrunMpiTypes srun_mpi_types();

// The types in `srun --mpi=list`'s output, as Slurm 20 ("srun: pmi2" lines) and Slurm 22 and later
// (indented names, then "specific pmix plugin versions available: pmix_v4,pmix_v5") print them.
std::vector<std::string> parse_srun_mpi_list(const std::string& output);

}  // namespace vibro
