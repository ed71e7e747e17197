#include "jobs/parallel/mpi_session.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "jobs/parallel/mpi_work_queue.hpp"

namespace vibro {

namespace {

// Whether a launcher (mpirun, srun with an MPI plugin) started this process: it then sets the rank
// in one of these variables. Without one, MPI_Init makes a single-rank world of its own.
bool launched_by_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

// A process started on its own (no mpirun) initialises MPI against a daemon it starts itself. PMIx's
// munge security plugin is tried first wherever munge is installed, and where munged is not running
// it retries with back-off for 2.5 s before falling back (measured on Debian 12, OpenMPI 4.1: every
// `vibro run` took 2.7 s, of which 0.4 s is MPI otherwise). Both ends of that connection are this
// user's processes on this node, so the native (uid) check is the one that applies. A user's own
// PMIX_MCA_psec is kept, and so is whatever a launcher chose.
// (Open MPI's isolated singleton, OMPI_MCA_ess_singleton_isolated = 1, starts no daemon and saved
// 0.6 s a run, but one of ~50 concurrent starts of the figure test failed in ompi_rte_init with it:
// not used until that is understood.)
void prefer_lone_start_when_alone() {
  if (launched_by_mpi_launcher()) return;
  setenv("PMIX_MCA_psec", "native", /*overwrite=*/0);
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) { start(&argc, &argv); }

MpiSession::MpiSession() { start(nullptr, nullptr); }

void MpiSession::start(int* argc, char*** argv) {
  int provided = 0, initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) {  // a host (e.g. Python with mpi4py) started MPI: use it, and leave it running
    MPI_Query_thread(&provided);
  } else {
    prefer_lone_start_when_alone();
    // The work queue serves and requests chunks from threads other than the main one.
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    owns_mpi_ = true;
  }
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
  int local = mine ? 1 : 0, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return global == 1;
}

double MpiSession::max_over_ranks(double value) const {
  double largest = value;
  MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}

}  // namespace vibro
