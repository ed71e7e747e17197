#include "jobs/parallel/mpi_session.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "jobs/parallel/mpi_work_queue.hpp"

namespace vibro {

namespace {

// Whether a launcher (mpirun, mpiexec, srun) started this process: it then sets the rank in one of
// these variables (a Slurm step's SLURM_PROCID too, even without an MPI plugin). Without one, the
// process is a single rank and MPI is not started at all: MPI_Init would only make a one-rank world
// of its own, at 0.6 s a run here (Open MPI starts its daemon for it).
bool launched_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "SLURM_PROCID"})
    if (std::getenv(name)) return true;
  return false;
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) { start(&argc, &argv); }

MpiSession::MpiSession() { start(nullptr, nullptr); }

void MpiSession::start(int* argc, char*** argv) {
  int provided = 0, initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) {  // a host (e.g. Python with mpi4py) started MPI: use it, and leave it running
    MPI_Query_thread(&provided);
  } else if (!launched_by_mpi_launcher()) {  // alone: one rank, no MPI
    return;
  } else {
    // The work queue serves and requests chunks from threads other than the main one.
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    owns_mpi_ = true;
  }
  uses_mpi_ = true;
  threads_can_call_mpi_ = provided >= MPI_THREAD_MULTIPLE;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &ranks_on_node_);
  MPI_Comm_free(&node);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_mpi_ && !finalized) MPI_Finalize();
}

int MpiSession::default_threads() const {
  if (std::getenv("OMP_NUM_THREADS")) return omp_get_max_threads();
  const int node_cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(omp_get_num_procs(), node_cores / ranks_on_node_));
}

std::string MpiSession::oversubscription(int threads) const {
  const int node_cores = static_cast<int>(std::thread::hardware_concurrency());
  if (node_cores <= 0 || threads * ranks_on_node_ <= node_cores) return "";
  return "vibro: " + std::to_string(ranks_on_node_) + " rank(s) x " + std::to_string(threads) +
         " thread(s) on this node's " + std::to_string(node_cores) +
         " cores: oversubscribed (set run.threads, or fewer ranks per node)";
}

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
  if (!uses_mpi_) return mine;
  int local = mine ? 1 : 0, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return global == 1;
}

double MpiSession::max_over_ranks(double value) const {
  if (!uses_mpi_) return value;
  double largest = value;
  MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}

}  // namespace vibro
