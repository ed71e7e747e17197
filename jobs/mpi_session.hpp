#pragma once
// The process's MPI environment: initialised once in main (a binary started without mpirun is a
// single rank), and the collection of every rank's case results on rank 0, which writes the file.
#include "jobs/rank_share.hpp"
#include "jobs/sweep_runner.hpp"

namespace vibro {

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  RankShare share() const { return {rank_, ranks_}; }
  bool is_root() const { return rank_ == 0; }
  // Moves the results of every rank into rank 0's `run` (cases of other ranks are NotRun locally);
  // the wall time becomes the slowest rank's.
  void collect(SweepRun& run) const;
  // Whether every rank succeeded so far (false if any rank reports failure).
  bool all_ok(bool mine) const;

 private:
  int rank_ = 0, ranks_ = 1;
};

}  // namespace vibro
