// The hybrid-model API's own checks: the Jacobian of a nonlinear vector field by automatic
// differentiation, and the clear errors a model author meets (unknown observable component, too many
// tracked components or guards, a resting body whose pressing acceleration is not affine).
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "analysis/hybrid_model_summary.hpp"
#include "engine/hybrid_model/described_system.hpp"

using namespace vibro;

namespace {

// A forced pendulum with a stop at angle 0.5: q'' = -sin(q) - 0.1 q' + 0.2 cos(wt) + 0.3 sin(wt)^p.
std::shared_ptr<HybridDescription<2>> pendulum(double pressing_power = 1) {
  auto d = std::make_shared<HybridDescription<2>>();
  d->period = 2.0;
  const int free = d->mode("swing", [pressing_power](const auto& x, const auto& drive, auto& dx) {
    using std::pow;
    using std::sin;
    dx[0] = x[1];
    dx[1] = -sin(x[0]) - 0.1 * x[1] + 0.2 * drive.cos + 0.3 * pow(drive.sin, pressing_power);
  });
  StopLaw stop;
  stop.at = 0.5;
  stop.restitution = 0.5;
  d->stop(free, "wall", stop);
  return d;
}

HybridFrame frame() {
  HybridFrame f;
  f.names = {"q", "w"};
  f.numerics.v_eps = 1.0;  // every impact ends the chatter at once
  return f;
}

}  // namespace

TEST_CASE("Hybrid API: the AD Jacobian of a nonlinear field equals the analytic one", "[hybrid_api]") {
  DescribedSystem<2> system(pendulum(), frame());
  DescribedSystem<2>::State y;
  y << 0.3, -0.7, std::cos(0.4), std::sin(0.4);
  DescribedSystem<2>::Matrix J;
  system.jacobian(0, y, J);
  const double w = M_PI;  // 2 pi / T
  CHECK(J(0, 1) == 1.0);
  CHECK(J(1, 0) == Approx(-std::cos(0.3)).epsilon(1e-15));
  CHECK(J(1, 1) == Approx(-0.1).epsilon(1e-15));
  CHECK(J(1, 2) == Approx(0.2).epsilon(1e-15));
  CHECK(J(1, 3) == Approx(0.3).epsilon(1e-15));
  CHECK(J(2, 3) == Approx(-w).epsilon(1e-15));
  CHECK(J(3, 2) == Approx(w).epsilon(1e-15));
  CHECK(J(0, 0) == 0.0);
}

TEST_CASE("Hybrid API: coming to rest needs a pressing acceleration affine in the state", "[hybrid_api]") {
  // At rest on the wall (q = 0.5, w = 0, held there, so sin(q) is a constant) the pressing acceleration
  // is a function of the forcing phase alone; with sin(wt)^2 it is not affine: the case fails, naming
  // the stop, instead of releasing at the wrong time.
  DescribedSystem<2> system(pendulum(2), frame());
  StrobeSample sample{};
  system.sample = &sample;
  DescribedSystem<2>::State y;
  y << 0.5, 0.0, 1.0, 0.0;
  try {
    system.enter(1, y);  // mode 1: resting on the wall
    FAIL("a non-affine pressing acceleration was accepted");
  } catch (const CaseFailure& e) {
    CHECK(std::string(e.what()).find("'wall'") != std::string::npos);
  }
  // The same system over its field's tape (the batched back ends') fails with the same words.
  BasicDescribedSystem<2, TapeField<2>> traced(pendulum(2), frame());
  traced.sample = &sample;
  CHECK_THROWS_WITH(traced.enter(1, y), Catch::Contains("resting on stop 'wall'") && Catch::Contains("not"));
  // Affine in the phase (p = 1): the body rests, with its release guard.
  DescribedSystem<2> affine(pendulum(1), frame());
  affine.sample = &sample;
  CHECK(affine.enter(1, y));
  AffineGuard<4> release[kMaxGuards];
  REQUIRE(affine.guards(release) == 1);
  CHECK(release[0].a.dot(y) + release[0].b == Approx(-std::sin(0.5) + 0.2).epsilon(1e-14));
}

TEST_CASE("Hybrid API: a model author's declaration errors name the model and the limit", "[hybrid_api]") {
  HybridModelInfo info{"toy", "a toy", {{"x", "m"}, {"v", "m/s"}, {"y", "m"}, {"z", "m"}}, {}, {}};
  info.observables = {{WindowStat::Maximum, "q"}};
  CHECK_THROWS_WITH(resolve_observables(info), Catch::Contains("toy") && Catch::Contains("q"));
  HybridModelInfo wide{"wide", "one more tracked component than the sample's aux values hold", {}, {}, {}};
  for (int c = 0; c <= kMaxTrackedComponents; ++c) {
    wide.state.push_back({"c" + std::to_string(c), "m"});
    wide.observables.push_back({WindowStat::Maximum, "c" + std::to_string(c)});
  }
  CHECK_THROWS_WITH(resolve_observables(wide), Catch::Contains("wide") && Catch::Contains("at most " + std::to_string(kMaxTrackedComponents)));
  wide.observables.pop_back();
  CHECK(static_cast<int>(resolve_observables(wide).tracked.size()) == kMaxTrackedComponents);
  info.observables = {{WindowStat::Maximum, "x"}, {WindowStat::Minimum, "x"}, {WindowStat::ImpactsPerPeriod, ""}};
  const HybridObservables resolved = resolve_observables(info);
  CHECK(resolved.tracked.size() == 1);  // one component, one aux pair for its max and min

  auto crowded = pendulum();
  for (int g = 0; g < kMaxGuards; ++g) crowded->switch_guard(0, "extra " + std::to_string(g), SwitchGuard<2>{});
  CHECK_THROWS_WITH((DescribedSystem<2>(crowded, frame())), Catch::Contains("swing") && Catch::Contains(std::to_string(kMaxGuards) + " guards"));

  // One counted stop more than the sample's counters hold, spread over modes of at most kMaxGuards each.
  auto counted = pendulum();
  StopLaw own;
  own.at = 0.5;
  own.counted = true;
  for (int g = 0; g <= kMaxCountedStops; ++g) {
    const int mode = g % kMaxGuards == 0 ? counted->mode("more " + std::to_string(g), [](const auto&, const auto&, auto& dx) { dx.setZero(); })
                                         : static_cast<int>(counted->modes().size()) - 1;
    counted->stop(mode, "own " + std::to_string(g), own);
  }
  CHECK_THROWS_WITH((DescribedSystem<2>(counted, frame())), Catch::Contains("at most " + std::to_string(kMaxCountedStops)));

  // The plain-data system's tables (the batched back ends' cases): modes and guards of a description.
  auto many_modes = pendulum();
  while (static_cast<int>(many_modes->modes().size()) <= kMaxDescribedModes)
    many_modes->mode("more " + std::to_string(many_modes->modes().size()), [](const auto&, const auto&, auto& dx) { dx.setZero(); });
  CHECK_THROWS_WITH((DescribedSystem<2>(many_modes, frame())),
                    Catch::Contains(std::to_string(kMaxDescribedModes + 1) + " modes declared") &&
                        Catch::Contains("at most " + std::to_string(kMaxDescribedModes)));
  auto many_guards = pendulum();
  for (int g = 0; g < kMaxDescribedGuards; ++g) {
    const int mode = g % kMaxGuards == 0 ? many_guards->mode("more " + std::to_string(g), [](const auto&, const auto&, auto& dx) { dx.setZero(); })
                                         : static_cast<int>(many_guards->modes().size()) - 1;
    many_guards->switch_guard(mode, "extra " + std::to_string(g), SwitchGuard<2>{});
  }
  CHECK_THROWS_WITH((DescribedSystem<2>(many_guards, frame())),
                    Catch::Contains(std::to_string(kMaxDescribedGuards + 1) + " guards declared"));
}

TEST_CASE("Hybrid API: a stop with a Coulomb impulse, its stick clamp and its reset Jacobian", "[hybrid_api]") {
  // A ball (height y, velocity vy; horizontal velocity vx) falling onto a floor at y = 0 from above.
  auto d = std::make_shared<HybridDescription<3>>();
  d->period = 1.0;
  const int flight = d->mode("flight", [](const auto& x, const auto& drive, auto& dx) {
    dx[0] = x[1];
    dx[1] = -1.0 + 0.1 * drive.cos;
    dx[2] = 0.0 * x[2];
  });
  StopLaw floor;
  floor.position = 0;
  floor.velocity = 1;
  floor.at = 0;
  floor.stop_above = false;
  floor.restitution = 0.8;
  floor.sticks = false;
  floor.tangential = 2;
  floor.mu = 0.2;
  d->stop(flight, "floor", floor);
  HybridFrame f;
  f.names = {"y", "vy", "vx"};
  DescribedSystem<3> system(d, f);
  StrobeSample sample{};
  system.sample = &sample;
  const EventHit hit{0, 0.0, false};
  auto after = [&](double vy, double vx) {
    DescribedSystem<3>::State y;
    y << 0, vy, vx, 1, 0;
    system.on_events(0, y, &hit, 1);
    return y;
  };
  const auto slides = after(-1, 0.5);  // normal impulse 1.8, friction takes 0.36 of vx
  CHECK(slides[1] == Approx(0.8));
  CHECK(slides[2] == Approx(0.5 - 0.2 * 1.8));
  CHECK(after(-1, 0.1)[2] == 0.0);  // would overshoot: clamped at zero
  CHECK(after(-1, -0.5)[2] == Approx(-0.5 + 0.36));
  CHECK(sample.counters[kHybridImpacts] == 3);

  // The reset Jacobian against central differences of the reset (sliding case).
  DescribedSystem<3>::State y0;
  y0 << 0, -1, 0.5, 1, 0;
  const auto R = system.reset_jacobian(hit, y0);
  for (int j : {1, 2}) {
    const double h = 1e-6;
    const auto plus = after(y0[1] + (j == 1 ? h : 0), y0[2] + (j == 2 ? h : 0));
    const auto minus = after(y0[1] - (j == 1 ? h : 0), y0[2] - (j == 2 ? h : 0));
    for (int i : {1, 2}) CHECK(R(i, j) == Approx((plus[i] - minus[i]) / (2 * h)).margin(1e-8));
  }
  CHECK(system.reset_jacobian(hit, (DescribedSystem<3>::State() << 0, -1, 0.1, 1, 0).finished()).row(2).isZero());
}

TEST_CASE("Hybrid API: a second mode or guard of the same name is refused when the description is built", "[hybrid_api]") {
  // Names are the result files' mode and counter names and the trace's vocabulary: a duplicate would
  // only surface when the file is written, after every case ran.
  auto d = pendulum();
  CHECK_THROWS_WITH(d->mode("swing", [](const auto&, const auto&, auto& dx) { dx.setZero(); }),
                    Catch::Contains("mode 'swing' is declared twice"));
  StopLaw stop;
  stop.at = 0.5;
  CHECK_THROWS_WITH(d->stop(0, "wall", stop), Catch::Contains("guard 'wall' is declared twice"));
  CHECK_THROWS_WITH(d->switch_guard(0, "wall", SwitchGuard<2>{}), Catch::Contains("guard 'wall' is declared twice"));
  CHECK(d->modes().size() == 1);
  CHECK(d->guards().size() == 1);
}
