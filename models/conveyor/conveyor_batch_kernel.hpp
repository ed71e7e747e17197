#pragma once
// The conveyor as a batch kernel (engine/batch/cpu_batch.hpp states the concept): one case is its
// constants, start and ConveyorState; one period is one ConveyorKernel::advance. The CPU batch and
// the CUDA back end both step cases through advance() below.
#include "engine/batch/strobe_fill.hpp"
#include "engine/core/host_device.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"
#include "models/conveyor/conveyor_kernel.hpp"
#include "models/conveyor/conveyor_window.hpp"

namespace vibro::conveyor {

struct ConveyorBatchKernel {
  struct Case {
    ConveyorConstants c;
    ConveyorStart start;
    ConveyorState state;
  };
  using Sample = ConveyorSample;

  VIBRO_HD static bool advance(Case& k, Sample& out) {
    ConveyorKernel<> kernel(k.c, k.state);
    return kernel.advance(k.start, out);
  }

  // Host only (conveyor_batch.cpp).
  static Case make(const ParameterSet& values);
  static StrobeLayout layout(const Case& k);
  // conveyor_layout depends on g, the angular frequency and the period alone: cases equal in those
  // (to the bit) have one layout, known without making it (engine/batch/made_cases.hpp).
  static bool shares_layout(const Case& a, const Case& b);
  static void to_strobe(const Case& k, const Sample& s, StrobeSample& out);
  // What to_strobe (fill_sample) writes at every call: the three states h, u, vT, every counter and
  // every aux quantity, besides time, period, mode and drift position.
  static constexpr StrobeFill kStrobeFill{3, kCounterCount, kAuxCount};
  // A held row's window reduced in the batch (engine/batch/held_reduction.hpp): the detector's
  // window tests and the model's summary (conveyor_window.hpp), on the host or the GPU.
  using Rules = WindowRules;
  static Rules rules(const StrobeLayout& layout, const HeldWindow& window);
  VIBRO_HD static void reduce(const Case&, const Sample* window, int samples, const Rules& rules, HeldSummary& out) {
    reduce_conveyor_window(window, samples, rules.period, rules, out);
  }
  static bool restart(Case& k, const StrobeSample& sample);
  [[noreturn]] static void throw_failure(const Case& k);
};

}  // namespace vibro::conveyor
