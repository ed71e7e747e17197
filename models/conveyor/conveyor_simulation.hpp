#pragma once
// The conveyor on the CPU: steps one case through ConveyorKernel (conveyor_kernel.hpp: flight,
// impacts, accumulation, coupled stick/slip, lift-off), hands its stroboscopic samples to the observer
// and turns the kernel's failure codes into CaseFailure / InfeasibleCase. Adds the tangent map.
#include <cstdint>
#include <vector>

#include "engine/core/model.hpp"
#include "models/conveyor/conveyor_kernel.hpp"
#include "models/conveyor/conveyor_parameters.hpp"

namespace vibro::conveyor {

StrobeLayout conveyor_layout(const ConveyorConstants& c);

// How many events define an orbit's structure (MapStep::events): a microthrow sequence counts once.
long long structural_events(const std::vector<ConveyorEvent>& events);

class ConveyorSimulation : public Simulation {
 public:
  ConveyorSimulation(const ConveyorConstants& constants, const ConveyorStart& start);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;
  // Through flights, impacts and coupled motion (conveyor_tangent_map.hpp); false through a grazing.
  bool stroboscopic_map(const StrobeSample& from, int periods, MapStep& step) override;
  // From the sample where run() stopped, through the same tangent map.
  std::vector<std::complex<double>> floquet_multipliers(int periods) override;
  // Every event is appended to `log` (nullptr: none). For tests and time signals.
  void record_events(std::vector<ConveyorEvent>* log) { events_ = log; }
  // h, u, vT and the tangential position x; events at h = 0 (impacts change u and vT).
  TraceLayout trace_layout() const override;
  void attach_trace(TraceSink* sink) override { trace_ = sink; }

 private:
  void throw_stop() const;  // the kernel's failure as the exception the case runner records

  ConveyorConstants c_;
  ConveyorStart start_;
  StrobeLayout layout_;
  ConveyorState state_{};
  bool exhausted_ = false;  // run() stopped at a sample it cannot resume from
  StrobeSample sample_{};   // the latest sample (counters and aux copied from the kernel's state)
  std::vector<ConveyorEvent>* events_ = nullptr;
  TraceSink* trace_ = nullptr;
};

}  // namespace vibro::conveyor
