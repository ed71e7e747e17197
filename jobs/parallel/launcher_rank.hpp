#pragma once
// Which process of a parallel launch (mpirun, mpiexec, srun) this is, read from the launcher's
// environment without starting MPI: the commands other than `vibro run` work on one process, so
// under `mpirun -np N vibro continue ...` the other N - 1 must not repeat the work and write the
// same file at the same time.

namespace vibro {

struct LauncherRank {
  int rank = 0;  // 0 outside a launch
  int size = 1;
};

// From OMPI_COMM_WORLD_RANK/SIZE (Open MPI), PMI_RANK/SIZE (MPICH, Intel MPI), PMIX_RANK with
// OMPI_COMM_WORLD_SIZE, or SLURM_PROCID/SLURM_STEP_NUM_TASKS inside an srun step (a batch script itself is one process), in that order.
LauncherRank launcher_rank();

}  // namespace vibro
