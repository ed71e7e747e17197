#pragma once
// The process's MPI environment: initialised once in main (a process no launcher started is a single
// rank and starts no MPI), the source of each rank's units, and the few reductions the ranks share. Results do not
// travel over MPI: each rank logs its cases to its checkpoint file, and rank 0 writes the HDF5 file
// from the logs, so the output directory must be on a file system every rank sees (as the
// checkpoints need anyway to be resumable on any number of ranks).
#include <memory>
#include <string>

#include "jobs/sweep/rank_share.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/unit_source.hpp"

namespace vibro {

class MpiSession {
 public:
  // Initialises MPI when a launcher started the process, unless the process already did (then it is
  // used as it is and not finalised); a process started alone is one rank without MPI.
  MpiSession(int& argc, char**& argv);
  MpiSession();  // for a host without a command line (the Python module)
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  RankShare share() const { return {rank_, ranks_}; }
  // How this rank gets its units: all of them on one rank; from rank 0's dynamic work queue on
  // several (chunk sizes follow the measured cost per unit); a fixed cyclic share if the MPI
  // library cannot serve requests from a second thread.
  std::unique_ptr<UnitSource> unit_source(long long units) const;
  const char* scheduler() const;  // which of the three, for the file's provenance
  bool is_root() const { return rank_ == 0; }
  // Ranks sharing this rank's node: the default OpenMP threads per rank divide the node's cores
  // among them instead of each rank taking all of them.
  int ranks_on_node() const { return ranks_on_node_; }
  // OpenMP threads per rank when the sweep does not say: OMP_NUM_THREADS if set, else this rank's
  // cores (its affinity mask) and at most the node's cores over the ranks on the node.
  int default_threads() const;
  // A line for stderr when `threads` per rank oversubscribe this node's cores ("" when they fit).
  std::string oversubscription(int threads) const;
  // The largest of every rank's `value` (e.g. the slowest rank's wall time), on every rank; also a
  // barrier: when it returns, every rank has passed it.
  double max_over_ranks(double value) const;
  // Whether every rank succeeded so far (false if any rank reports failure).
  bool all_ok(bool mine) const;
  // Ends every rank when one fails after the ranks have parted ways (else the others would wait
  // forever for it); a no-op on a single rank.
  void abort_all(int code) const;

 private:
  void start(int* argc, char*** argv);
  int rank_ = 0, ranks_ = 1, ranks_on_node_ = 1;
  bool threads_can_call_mpi_ = false;
  bool owns_mpi_ = false;  // this session initialised MPI, so it finalises it
  bool uses_mpi_ = false;  // MPI is running (started here or by the host)
};

}  // namespace vibro
