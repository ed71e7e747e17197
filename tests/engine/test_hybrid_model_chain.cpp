// A realistic size for the hybrid-model API: a chain of 6 masses between walls, each between two
// rigid stops (12 guards in one mode, 12 state components), forced at one end. The adapter runs it
// with every stop hit and none passed through, and its stroboscopic map's Jacobian through the impacts.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <set>

#include "engine/hybrid_model/hybrid_simulation.hpp"

using namespace vibro;

namespace {

constexpr int kBodies = 6, kStates = 2 * kBodies;
constexpr double kStop = 0.3;  // each mass moves in [-kStop, kStop]

// x_i at 2i, v_i at 2i+1; unit masses and springs, light damping, forcing on mass 0.
std::shared_ptr<HybridDescription<kStates>> chain() {
  auto d = std::make_shared<HybridDescription<kStates>>();
  d->period = 2 * M_PI / 1.3;
  const int free = d->mode("free", [](const auto& x, const auto& drive, auto& dx) {
    for (int i = 0; i < kBodies; ++i) {
      const auto left = i > 0 ? x[2 * i - 2] : 0 * x[0], right = i + 1 < kBodies ? x[2 * i + 2] : 0 * x[0];
      dx[2 * i] = x[2 * i + 1];
      dx[2 * i + 1] = left + right - 2 * x[2 * i] - 0.05 * x[2 * i + 1] + (i == 0 ? 3.0 : 0.0) * drive.cos;
    }
  });
  for (int i = 0; i < kBodies; ++i)
    for (const bool above : {true, false}) {
      StopLaw stop;
      stop.position = 2 * i;
      stop.velocity = 2 * i + 1;
      stop.at = above ? kStop : -kStop;
      stop.stop_above = above;
      stop.restitution = 0.7;
      d->stop(free, "stop " + std::to_string(2 * i + (above ? 0 : 1)), stop);
    }
  return d;
}

// The described system, with the guard of every handled event recorded and the stops' worst
// violation at the end of every accepted step.
struct Recorded {
  DescribedSystem<kStates>& system;
  std::set<int> stops_hit;
  double worst = 0;
  using State = DescribedSystem<kStates>::State;
  void rhs(double t, const State& y, State& dy) const { system.rhs(t, y, dy); }
  int guards(AffineGuard<kStates + 2>* out) const { return system.guards(out); }
  bool on_events(double t, State& y, const EventHit* hits, int count) {
    for (int i = 0; i < count; ++i)
      if (!system.stuck()) stops_hit.insert(hits[i].id);  // one mode: local ids are the stops' order
    return system.on_events(t, y, hits, count);
  }
  void observe(const DenseStep<kStates + 2>& step, double theta_end) {
    system.observe(step, theta_end);
    const State y = step.at(theta_end);
    for (int i = 0; i < kBodies; ++i) worst = std::max(worst, std::fabs(y[2 * i]) - kStop);
  }
};

}  // namespace

TEST_CASE("Hybrid API: a 6-body chain with 12 stops runs, hits every stop and passes through none", "[hybrid_api]") {
  HybridFrame frame;
  for (int i = 0; i < kBodies; ++i) frame.names.push_back("x" + std::to_string(i)), frame.names.push_back("v" + std::to_string(i));
  DescribedSystem<kStates> system(chain(), frame);
  StrobeSample sample{};
  system.sample = &sample;
  DescribedSystem<kStates>::State y = DescribedSystem<kStates>::State::Zero();
  y[kStates] = 1;  // forcing phase 0
  REQUIRE(system.enter(0, y));
  Recorded recorded{system, {}, 0};
  HybridIntegrator<kStates + 2> integrator(StepControl{});
  double t = 0;
  const double T = chain()->period;
  integrator.advance(recorded, t, y, 20 * T);
  INFO("impacts " << sample.counters[kHybridImpacts] << ", stops hit " << recorded.stops_hit.size());
  CHECK(recorded.stops_hit.size() == 12);
  CHECK(sample.counters[kHybridImpacts] >= 12);
  CHECK(recorded.worst <= 1e-9);  // no stop passed through by more than rounding
  // The stroboscopic map over a period with impacts, with its Jacobian through the variational
  // equations (which carry the 12 guards too) and a saltation matrix per impact.
  HybridSimulation<kStates> simulation(chain(), frame);
  StrobeSample from = sample;
  for (int i = 0; i < kStates; ++i) from.state[static_cast<std::size_t>(i)] = y[i];
  from.period = 20;
  MapStep step;
  REQUIRE(simulation.stroboscopic_map(from, 1, step));
  CHECK(step.events > 0);
  CHECK(step.jacobian.rows() == kStates);
  CHECK(step.jacobian.allFinite());
  CHECK(std::fabs(step.jacobian.determinant()) > 0);  // impacts with restitution 0.7 shrink, never collapse, volume
}
