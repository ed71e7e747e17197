// A reset map that is not affine (HybridDescription::reset_map, SwitchGuard::map): the event applies
// it, on the callables and on their tapes (the batched back ends) alike; its Jacobian, the saltation
// matrix's reset part, is the map's derivative in the state and the forcing phase (checked against
// central differences); an impact switch counts as an impact, not a mode switch.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/hybrid_model/described_system.hpp"

using namespace vibro;

namespace {

const double kE = 0.7, kBowl = 0.3;

// A ball in the plane (x, y, u, v) whose wall reflects it about the normal (x, y) / |(x, y)| of a
// circle, the wall's speed kBowl sin(wt) along x taken into the relative velocity: a map of the state
// and the forcing that is not affine. The guard is y + 1 (affine), an impact.
std::shared_ptr<HybridDescription<4>> ball(bool impact) {
  auto d = std::make_shared<HybridDescription<4>>();
  d->period = 2.0;
  const int flight = d->mode("flight", [](const auto& x, const auto&, auto& dx) {
    dx[0] = x[2];
    dx[1] = x[3];
    dx[2] = 0 * x[2];
    dx[3] = 0 * x[3] - 1.0;
  });
  SwitchGuard<4> wall;
  wall.a << 0, 1, 0, 0;
  wall.b = 1;
  wall.crossing = Crossing::Falling;
  wall.target = flight;
  wall.impact = impact;
  wall.map = d->reset_map([](const auto& x, const auto& drive, auto& after) {
    using std::sqrt;
    const auto length = sqrt(x[0] * x[0] + x[1] * x[1]);
    const auto nx = x[0] / length, ny = x[1] / length;
    const auto closing = (x[2] - kBowl * drive.sin) * nx + x[3] * ny;
    after[0] = x[0];
    after[1] = x[1];
    after[2] = x[2] - (1 + kE) * closing * nx;
    after[3] = x[3] - (1 + kE) * closing * ny;
  });
  d->switch_guard(flight, "wall", wall);
  return d;
}

HybridFrame frame() {
  HybridFrame f;
  f.names = {"x", "y", "u", "v"};
  return f;
}

}  // namespace

TEST_CASE("Reset map: applied at the event, its Jacobian the map's derivative", "[hybrid_api][reset_map]") {
  using System = DescribedSystem<4>;
  System system(ball(true), frame());
  StrobeSample sample{};
  system.sample = &sample;
  System::State y;
  y << 0.4, -1.0, 0.3, -0.8, std::cos(0.9), std::sin(0.9);
  const EventHit hit{0, 0.0, false};

  const auto mapped = [&](const System::State& before) {
    System s(ball(true), frame());
    StrobeSample scratch{};
    s.sample = &scratch;
    System::State after = before;
    s.on_events(0.0, after, &hit, 1);
    return after;
  };
  const System::State after = mapped(y);
  const double length = std::hypot(0.4, 1.0), nx = 0.4 / length, ny = -1.0 / length;
  const double closing = (0.3 - kBowl * std::sin(0.9)) * nx - 0.8 * ny;
  CHECK(after[2] == Approx(0.3 - (1 + kE) * closing * nx).epsilon(1e-14));
  CHECK(after[3] == Approx(-0.8 - (1 + kE) * closing * ny).epsilon(1e-14));
  CHECK(after[0] == y[0]);
  CHECK(after[4] == y[4]);

  // The same event on the tapes gives the same bits.
  BasicDescribedSystem<4, TapeField<4>> traced(ball(true), frame());
  StrobeSample traced_sample{};
  traced.sample = &traced_sample;
  System::State on_tape = y;
  traced.on_events(0.0, on_tape, &hit, 1);
  CHECK(on_tape == after);

  // Jacobian against central differences, in the state and the forcing phase.
  const System::Matrix R = system.reset_jacobian(hit, y);
  double worst = 0;
  for (int j = 0; j < 6; ++j) {
    const double h = 1e-6;
    System::State plus = y, minus = y;
    plus[j] += h;
    minus[j] -= h;
    const System::State column = (mapped(plus) - mapped(minus)) / (2 * h);
    for (int i = 0; i < 6; ++i) worst = std::max(worst, std::fabs(column[i] - R(i, j)));
  }
  CHECK(worst < 1e-8);
  CHECK(R(2, 5) == Approx((1 + kE) * kBowl * nx * nx).epsilon(1e-12));  // the wall's motion: d u+ / d sin(wt)

  // An impact switch counts an impact and no switch; the trace calls it an impact.
  CHECK(sample.counters[kHybridImpacts] == 0);
  System::State again = y;
  system.on_events(0.0, again, &hit, 1);
  CHECK(sample.counters[kHybridImpacts] == 1);
  CHECK(sample.counters[kHybridSwitches] == 0);
  CHECK(sample.aux[kAuxImpactSpeed] == Approx(0.8).epsilon(1e-14));  // -(guard's rate) = -v
  System plain(ball(false), frame());
  StrobeSample plain_sample{};
  plain.sample = &plain_sample;
  System::State switched = y;
  plain.on_events(0.0, switched, &hit, 1);
  CHECK(plain_sample.counters[kHybridImpacts] == 0);
  CHECK(plain_sample.counters[kHybridSwitches] == 1);
  CHECK(switched == after);
}

TEST_CASE("Reset map: a counted impact switch has a counter of its own, a plain switch none", "[hybrid_api][reset_map]") {
  for (const bool impact : {true, false}) {
    auto d = ball(impact);
    SwitchGuard<4> again = d->guards()[0].change;
    again.counted = true;
    again.map = -1;  // this description registers no map
    HybridDescription<4> counted;
    counted.mode("flight", [](const auto& x, const auto&, auto& dx) { dx = 0 * x; });
    counted.switch_guard(0, "wall", again);
    CHECK(counted.stop_counter_names() == (impact ? std::vector<std::string>{"impacts_wall"} : std::vector<std::string>{}));
  }
}

TEST_CASE("Reset map: a switch naming a map that is not registered is refused", "[hybrid_api][reset_map]") {
  HybridDescription<2> d;
  const int m = d.mode("free", [](const auto& x, const auto&, auto& dx) {
    dx[0] = x[1];
    dx[1] = 0 * x[0];
  });
  SwitchGuard<2> g;
  g.a << 1, 0;
  g.map = 0;
  CHECK_THROWS_WITH(d.switch_guard(m, "wall", g), Catch::Contains("'wall'") && Catch::Contains("reset map 0"));
}
