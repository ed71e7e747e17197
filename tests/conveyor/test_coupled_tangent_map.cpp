// The conveyor's tangent map through microthrow accumulations, coupled stick/slip and lift-off
// (conveyor_tangent_map), against central differences of the simulated map and against the
// contraction the simulation itself shows.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <map>
#include <utility>
#include <vector>

#include "analysis/map_lyapunov.hpp"
#include "conveyor/conveyor_fixture.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;

namespace {

// Jacobian entries of the map over `periods` from `from` against central differences, scaled to the
// layout's units; only the directions the state may move in (a coupled sample has h = u = 0).
void check_against_differences(ConveyorSimulation& simulation, const StrobeSample& from, int periods, double margin) {
  MapStep step;
  REQUIRE(simulation.stroboscopic_map(from, periods, step));
  const auto& scales = simulation.layout().state_scales;
  const int first = from.mode == 1 ? 2 : 0;
  for (int j = first; j < 3; ++j) {
    const auto jj = static_cast<std::size_t>(j);
    StrobeSample plus = from, minus = from;
    const double d = 1e-7 * scales[jj];
    plus.state[jj] += d;
    minus.state[jj] -= d;
    MapStep a, b;
    REQUIRE(simulation.stroboscopic_map(plus, periods, a));
    REQUIRE(simulation.stroboscopic_map(minus, periods, b));
    for (std::size_t i = 0; i < 3; ++i) {
      const double fd = (a.image.state[i] - b.image.state[i]) / (2 * d);
      INFO("d state[" << i << "] / d state[" << j << "] over " << periods << " periods, " << step.events << " events");
      CHECK(step.jacobian(static_cast<Eigen::Index>(i), j) * scales[jj] / scales[i] == Approx(fd * scales[jj] / scales[i]).margin(margin));
    }
  }
}

}  // namespace

TEST_CASE("microthrow orbit M1 at a_hat = 55: the vT multiplier equals the simulation's contraction 0.88814",
          "[conveyor][shooting]") {
  const ParameterSet values = conveyor_values({{"a_hat", "55"}});
  const Trace trace = simulate(values, 40);
  const auto& s = trace.samples;
  REQUIRE(s.back().mode == 1);  // sampled while riding the plate
  // The simulation's own contraction of vT, period to period (a geometric approach).
  const double ratio = (s[39].state[2] - s[38].state[2]) / (s[38].state[2] - s[37].state[2]);
  ConveyorSimulation simulation(trace.constants, ConveyorStart::from(values));
  MapStep step;
  REQUIRE(simulation.stroboscopic_map(s.back(), 1, step));
  CHECK(step.jacobian(2, 2) == Approx(ratio).margin(2e-5));
  CHECK(step.jacobian(2, 2) == Approx(0.88814).margin(1e-4));
  // Contact absorbs every normal perturbation: h and u come back as 0 whatever they were.
  CHECK(step.jacobian.topRows(2).norm() == 0.0);
  check_against_differences(simulation, s.back(), 1, 1e-5);
  // What a sweep reports (output.floquet): the multipliers at the sample where the run stopped.
  ConveyorSimulation settled(trace.constants, ConveyorStart::from(values));
  test_support::Recorder recorder(40);
  settled.run(recorder);
  const auto mu = settled.floquet_multipliers(1);
  REQUIRE(mu.size() == 3);
  double largest = 0;
  for (const auto& m : mu) largest = std::max(largest, std::abs(m));
  CHECK(largest == Approx(ratio).margin(2e-5));
}

TEST_CASE("the tangent map through accumulation, slip, reversal and lift-off matches central differences",
          "[conveyor][shooting]") {
  // Flight and coupled samples of transients and long microthrow orbits, 1 and 3 periods.
  std::map<ConveyorEvent::Kind, int> crossed;
  // mu = 1 at 20 m/s^2: the part sticks to the plate, breaks away and reverses every period.
  for (const auto& [a_hat, mu] : std::vector<std::pair<const char*, const char*>>{
           {"20", "1"}, {"45", "0.15"}, {"49", "0.15"}, {"60", "0.15"}, {"70", "0.15"}, {"73", "0.15"}}) {
    const ParameterSet values = conveyor_values({{"a_hat", a_hat}, {"mu", mu}, {"z0", "0.002"}});
    const Trace trace = simulate(values, 60);
    for (const auto& e : trace.events) ++crossed[e.kind];
    ConveyorSimulation simulation(trace.constants, ConveyorStart::from(values));
    for (const int k : {20, 41, 57}) {
      INFO("a_hat " << a_hat << ", sample " << k << ", mode " << trace.samples[static_cast<std::size_t>(k)].mode);
      check_against_differences(simulation, trace.samples[static_cast<std::size_t>(k)], 1, 1e-4);
      check_against_differences(simulation, trace.samples[static_cast<std::size_t>(k)], 3, 1e-4);
    }
  }
  // The runs cross every kind of event the map composes.
  using Kind = ConveyorEvent::Kind;
  for (const Kind kind : {Kind::Impact, Kind::Accumulation, Kind::ArcStart, Kind::LiftOff, Kind::Reversal, Kind::Stick,
                          Kind::BreakAway}) {
    INFO("event kind " << static_cast<int>(kind));
    CHECK(crossed[kind] > 0);
  }
}

namespace {
// The sweep's lyapunov_between_resets at a_hat = 80 from the coupled start, over `periods` periods
// after 100 settling ones, at a root tolerance.
StretchExponent stretch_at_80(const char* root_rtol, int periods) {
  const ParameterSet values = conveyor_values({{"a_hat", "80"}, {"root_rtol", root_rtol}});
  const Trace trace = simulate(values, 100);
  ConveyorSimulation simulation(trace.constants, ConveyorStart::from(values));
  return lyapunov_along_map(simulation, trace.samples.back(), periods, trace.constants.period).between_resets;
}
}  // namespace

TEST_CASE("a_hat = 80 (Fig. 13): the hopping between resets is chaotic, about +40/s, at two root tolerances",
          "[conveyor][shooting]") {
  // The attractor itself is a long microthrow orbit (every coupled phase resets the normal state, so
  // its exponents are -inf); the paper's chaos is the hopping between those resets. Which long orbit
  // rounding selects differs with the root tolerance, and so does the exponent along it: measured
  // 40.1 and 42.0 /s (TOMS 748 polish), 38.5 and 33.9 /s (Halley polish) at the two tolerances, each
  // settled to 0.3 % between 3000 and 24000 periods. So each is checked to be chaotic at that rate,
  // not equal to the other. 3000 periods cross 50 resets or more (one in 60 periods at the nominal
  // tolerance, one in 40 at half of it).
  const StretchExponent nominal = stretch_at_80("1e-13", 3000), halved = stretch_at_80("5e-14", 3000);
  INFO("exponent between resets " << nominal.exponent << " /s (" << nominal.resets << " resets), at half the tolerance "
                                  << halved.exponent << " /s (" << halved.resets << ")");
  CHECK(nominal.resets > 20);
  CHECK(halved.resets > 20);
  for (const double exponent : {nominal.exponent, halved.exponent}) {
    CHECK(exponent > 30);
    CHECK(exponent < 50);
  }
}
