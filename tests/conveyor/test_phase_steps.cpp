// The GPU's phase kernels (models/conveyor/conveyor_phase_kernels.cu) run on the host: cases held as
// columns, each launch in rounds that sort the cases into a flight list and a rare list and step each
// list with step_case, exactly as the kernels' threads do. Every kept sample and the final state
// must be the CPU path's (ConveyorBatchKernel::advance, one case at a time) bit for bit.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "conveyor/conveyor_fixture.hpp"
#include "models/conveyor/conveyor_batch_kernel.hpp"
#include "models/conveyor/conveyor_columns.hpp"

namespace vibro::conveyor {
namespace {

bool same_bits(const ConveyorSample& a, const ConveyorSample& b) {
  bool same = std::memcmp(&a.h, &b.h, sizeof(double)) == 0 && std::memcmp(&a.u, &b.u, sizeof(double)) == 0 &&
              std::memcmp(&a.vT, &b.vT, sizeof(double)) == 0 && std::memcmp(&a.x, &b.x, sizeof(double)) == 0 &&
              a.period == b.period && a.mode == b.mode;
  for (int k = 0; k < kCounterCount; ++k) same = same && a.counters[k] == b.counters[k];
  for (int k = 0; k < kAuxCount; ++k) same = same && std::memcmp(&a.aux[k], &b.aux[k], sizeof(double)) == 0;
  return same;
}

struct PhaseRun {
  std::vector<std::vector<ConveyorSample>> samples;  // kept samples a case, launch after launch
  std::vector<int> taken;                            // samples a case took in all
  std::vector<KernelStop> stops;
  long long flight_calls = 0, rare_calls = 0, rounds = 0;
};

// The cases stepped as the phase kernels step them: launches of `periods`, the first launch's first
// `unkept` samples not kept; the rare kernel taking kRareKernelSteps (kRareSteps, or all of them).
template <unsigned kRareKernelSteps>
PhaseRun run_in_phases(const std::vector<ConveyorBatchKernel::Case>& cases, int launches, int periods, int unkept) {
  const std::size_t n = cases.size();
  std::vector<double> block(columns_bytes(n) / sizeof(double) + 1);
  const ConveyorColumns cols = columns_in(block.data(), n);
  for (std::size_t i = 0; i < n; ++i) store_state(cols, i, cases[i].state);
  PhaseRun run;
  run.samples.resize(n);
  run.taken.assign(n, 0);
  for (int launch = 0; launch < launches; ++launch) {
    const int skip = launch == 0 ? unkept : 0;
    std::vector<int> taken(n, 0);
    std::vector<ConveyorSample> rows(n * static_cast<std::size_t>(periods - skip));
    while (true) {
      std::vector<std::size_t> flying, riding;
      for (std::size_t i = 0; i < n; ++i) {
        if (taken[i] >= periods || cols.next[i] == KernelNext::Failed) continue;
        (in_flight(cols, i) ? flying : riding).push_back(i);
      }
      if (flying.empty() && riding.empty()) break;
      ++run.rounds;
      for (const std::size_t i : flying) {
        step_case<kFlightSteps>(cases[i].c, cases[i].start, cols, i, &rows[i * (periods - skip)], periods, skip, taken[i]);
        ++run.flight_calls;
      }
      for (const std::size_t i : riding) {
        step_case<kRareKernelSteps>(cases[i].c, cases[i].start, cols, i, &rows[i * (periods - skip)], periods, skip, taken[i]);
        ++run.rare_calls;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (int k = skip; k < taken[i]; ++k) run.samples[i].push_back(rows[i * (periods - skip) + (k - skip)]);
      run.taken[i] += taken[i];
    }
  }
  for (std::size_t i = 0; i < n; ++i) run.stops.push_back(cols.next[i] == KernelNext::Failed ? cols.stop[i] : KernelStop::None);
  return run;
}

}  // namespace

TEST_CASE("conveyor phase kernels on the host: flight and rare steps in rounds give the CPU path's bits",
          "[conveyor][batch][gpu]") {
  // The Fig. 6 map's corners and middle (flight with chatter, accumulations, sticking and slipping,
  // lift-offs), drops from rest and from heights, and a grazing-prone first impact.
  std::vector<ConveyorBatchKernel::Case> cases;
  for (const char* a_hat : {"30", "38", "45", "52", "61", "70", "80"})
    for (const char* z0 : {"0", "0.0001", "0.0013", "0.004"})
      cases.push_back(ConveyorBatchKernel::make(testing::conveyor_values({{"a_hat", a_hat}, {"z0", z0}})));
  cases.push_back(ConveyorBatchKernel::make(
      testing::conveyor_values({{"a_hat", "49"}, {"start", "first_impact"}, {"v1", "0.05"}, {"psi1", "30"}})));
  cases.push_back(ConveyorBatchKernel::make(testing::conveyor_values({{"a_hat", "5"}, {"z0", "0.002"}, {"vT0", "0.1"}})));
  const int launches = 4, periods = 8, unkept = 3;
  // The rare kernel on the rare phases alone, or on all steps (-DVIBRO_CUDA_RARE_ALL_STEPS).
  const bool rare_all_steps = GENERATE(false, true);
  INFO("rare kernel: " << (rare_all_steps ? "all steps" : "rare steps"));
  const PhaseRun run = rare_all_steps ? run_in_phases<kAllSteps>(cases, launches, periods, unkept)
                                      : run_in_phases<kRareSteps>(cases, launches, periods, unkept);

  int coupled_cases = 0, flight_cases = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    ConveyorBatchKernel::Case reference = cases[i];
    std::vector<ConveyorSample> expected;
    int taken = 0;
    for (int k = 0; k < launches * periods; ++k) {
      ConveyorSample sample;
      if (!ConveyorBatchKernel::advance(reference, sample)) break;
      ++taken;
      if (k >= unkept) expected.push_back(sample);
    }
    REQUIRE(run.taken[i] == taken);
    REQUIRE(run.samples[i].size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      INFO("sample " << k);
      CHECK(same_bits(run.samples[i][k], expected[k]));
    }
    CHECK(run.stops[i] == (reference.state.next == KernelNext::Failed ? reference.state.stop : KernelStop::None));
    if (!expected.empty()) {
      coupled_cases += expected.back().counters[kCoupledPhases] > 0;
      flight_cases += expected.back().counters[kImpacts] > 10;
    }
  }
  // Both kernels did the work they are for, cases went back and forth between them, and the set has
  // both kinds of motion.
  CHECK(run.flight_calls > static_cast<long long>(cases.size()));
  CHECK(run.rare_calls > static_cast<long long>(cases.size()));
  // Rounds: cases cross back and forth with the rare phases' steps alone; with all steps in the rare
  // kernel a case that left flight finishes its launch there (at most two rounds that step cases).
  if (rare_all_steps)
    CHECK(run.rounds <= 2 * launches);
  else
    CHECK(run.rounds > 2 * launches);
  CHECK(coupled_cases >= 5);
  CHECK(flight_cases >= 5);
}

}  // namespace vibro::conveyor
