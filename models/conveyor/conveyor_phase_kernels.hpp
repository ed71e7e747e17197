#pragma once
// The conveyor's phase kernels on a GPU (conveyor_phase_kernels.cu; CUDA builds only): one launch of
// the batch, `periods` periods of `count` live cases, in rounds. The live cases' states go into
// columns (conveyor_columns.hpp) at the launch's start and back into their cases at its end; between,
// each round sorts the cases that go on into two index lists by their next step, free flight or the
// rest, and steps each list in its own kernel, so that a warp's threads run the same code: the flight
// kernel (its state in registers and columns, none in local memory) until a case leaves flight, the
// rare kernel until it is back in flight. A case goes on until it has taken `periods` samples or failed.
#include <cstddef>

#include <cuda_runtime.h>

#include "models/conveyor/conveyor_batch_kernel.hpp"
#include "models/conveyor/conveyor_columns.hpp"

namespace vibro::conveyor {

struct ConveyorPhaseLaunch {
  ConveyorBatchKernel::Case* cases;  // device: constants, starts, and the states between launches
  const int* live;                   // device: the batch indices of the live cases
  int count;                         // live cases
  int periods, unkept;               // periods this launch; the first `unkept` not written
  ConveyorColumns cols;              // device, `count` entries: the live cases' states, by live position
  // Where the kept samples go: row of live position j (or batch index i when by_case), `stride`
  // samples apart, from `offset` on (engine/batch/sample_row_plan.hpp).
  ConveyorSample* samples;
  std::size_t stride, offset;
  bool by_case;
  int* taken;             // device, count: samples each live case took this launch
  int* lists;             // device, 2 * count: the round's flight list, then its rare list
  int* list_counts;       // device, 2
  int* list_counts_host;  // page-locked host, 2
};

// Steps the launch to its end on `stream`, waiting for each round's list sizes; returns the rounds.
int step_conveyor_phases(const ConveyorPhaseLaunch& launch, cudaStream_t stream);

}  // namespace vibro::conveyor
