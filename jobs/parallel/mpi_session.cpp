#include "jobs/parallel/mpi_session.hpp"

#include <mpi.h>

#include <algorithm>
#include <vector>

#include "jobs/sweep/case_result_codec.hpp"
#include "jobs/parallel/mpi_work_queue.hpp"

namespace vibro {

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  // The work queue serves and requests chunks from threads other than the main one.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  threads_can_call_mpi_ = provided >= MPI_THREAD_MULTIPLE;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

std::unique_ptr<UnitSource> MpiSession::unit_source(long long units) const {
  if (ranks_ == 1 || !threads_can_call_mpi_) return std::make_unique<StaticSource>(units, share());
  if (rank_ == 0) return std::make_unique<WorkQueueServer>(units, ranks_);
  return std::make_unique<WorkQueueClient>();
}

const char* MpiSession::scheduler() const {
  if (ranks_ == 1) return "OpenMP dynamic";
  return threads_can_call_mpi_ ? "MPI work queue (rank 0) x OpenMP dynamic" : "MPI cyclic share x OpenMP dynamic";
}

void MpiSession::abort_all(int code) const {
  if (ranks_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
}

bool MpiSession::all_ok(bool mine) const {
  int local = mine ? 1 : 0, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return global == 1;
}

void MpiSession::collect(SweepRun& run) const {
  double slowest = run.wall_seconds;
  MPI_Reduce(&run.wall_seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (ranks_ == 1) return;
  std::vector<char> mine;
  if (rank_ != 0)
    for (std::size_t i = 0; i < run.cases.size(); ++i)
      if (run.cases[i].status != CaseStatus::NotRun) encode_case(static_cast<long long>(i), run.cases[i], mine);
  // Buffers can exceed 2 GiB in total on big grids: send them one rank at a time with 64-bit sizes.
  if (rank_ == 0) {
    for (int source = 1; source < ranks_; ++source) {
      long long size = 0;
      MPI_Recv(&size, 1, MPI_LONG_LONG, source, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::vector<char> bytes(static_cast<std::size_t>(size));
      const long long chunk = 1LL << 30;
      for (long long at = 0; at < size; at += chunk)
        MPI_Recv(bytes.data() + at, static_cast<int>(std::min(chunk, size - at)), MPI_CHAR, source, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      decode_cases(bytes, run.cases);
    }
    run.wall_seconds = slowest;
  } else {
    long long size = static_cast<long long>(mine.size());
    MPI_Send(&size, 1, MPI_LONG_LONG, 0, 1, MPI_COMM_WORLD);
    const long long chunk = 1LL << 30;
    for (long long at = 0; at < size; at += chunk)
      MPI_Send(mine.data() + at, static_cast<int>(std::min(chunk, size - at)), MPI_CHAR, 0, 2, MPI_COMM_WORLD);
  }
}

}  // namespace vibro
