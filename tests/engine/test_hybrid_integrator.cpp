// DOPRI5 against closed forms, and event location on its dense output: grazing between step
// points, several events in one step in time order, energy over 1000 elastic impacts.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "engine/hybrid/hybrid_integrator.hpp"

using namespace vibro;
using State2 = Eigen::Matrix<double, 2, 1>;

namespace {

// x'' + 2 zeta w0 x' + w0^2 x = F cos(w t), no guards.
struct ForcedOscillator {
  double w0 = 2.0, zeta = 0.05, F = 1.5, w = 3.0;
  void rhs(double t, const State2& x, State2& dx) const {
    dx[0] = x[1];
    dx[1] = -2 * zeta * w0 * x[1] - w0 * w0 * x[0] + F * std::cos(w * t);
  }
  int guards(AffineGuard<2>*) const { return 0; }
  bool on_events(double, State2&, const EventHit*, int) { return true; }
  void observe(const DenseStep<2>&, double) {}
  // Closed form from x(0) = x0, x'(0) = v0.
  double exact(double t, double x0, double v0) const {
    const double denominator = (w0 * w0 - w * w) * (w0 * w0 - w * w) + 4 * zeta * zeta * w0 * w0 * w * w;
    const double P = F * (w0 * w0 - w * w) / denominator, Q = F * 2 * zeta * w0 * w / denominator;
    const double wd = w0 * std::sqrt(1 - zeta * zeta), s = zeta * w0;
    const double A = x0 - P, B = (v0 - Q * w + s * A) / wd;
    return std::exp(-s * t) * (A * std::cos(wd * t) + B * std::sin(wd * t)) + P * std::cos(w * t) + Q * std::sin(w * t);
  }
};

// Free flight under unit gravity with guards recorded, never reset: x'' = -1.
struct Flight {
  std::vector<AffineGuard<2>> watched;
  std::vector<EventHit> seen;
  void rhs(double, const State2& x, State2& dx) const {
    dx[0] = x[1];
    dx[1] = -1;
  }
  int guards(AffineGuard<2>* out) const {
    for (std::size_t i = 0; i < watched.size(); ++i) out[i] = watched[i];
    return static_cast<int>(watched.size());
  }
  bool on_events(double, State2&, const EventHit* hits, int count) {
    seen.insert(seen.end(), hits, hits + count);
    return true;
  }
  void observe(const DenseStep<2>&, double) {}
};

// x'' = -x against a rigid wall at x = 0.5 with restitution e.
struct ImpactOscillator {
  double e = 1.0;
  long impacts = 0;
  void rhs(double, const State2& x, State2& dx) const {
    dx[0] = x[1];
    dx[1] = -x[0];
  }
  int guards(AffineGuard<2>* out) const {
    out[0].a << -1, 0;  // gap 0.5 - x
    out[0].b = 0.5;
    out[0].crossing = Crossing::Falling;
    out[0].id = 0;
    return 1;
  }
  bool on_events(double, State2& x, const EventHit*, int) {
    x[0] = 0.5;  // exactly at the wall
    x[1] = -e * x[1];
    ++impacts;
    return true;
  }
  void observe(const DenseStep<2>&, double) {}
};

AffineGuard<2> position_guard(double level, Crossing crossing, int id) {
  AffineGuard<2> g;
  g.a << 1, 0;
  g.b = -level;
  g.crossing = crossing;
  g.id = id;
  return g;
}

}  // namespace

TEST_CASE("DOPRI5 matches the closed-form forced damped oscillator", "[engine][ode]") {
  ForcedOscillator system;
  StepControl control;
  control.rtol = 1e-12;
  control.atol = 1e-14;
  HybridIntegrator<2> integrator(control);
  double t = 0;
  State2 x(0.3, -0.2);
  for (const double t_end : {1.0, 5.0, 20.0}) {
    integrator.advance(system, t, x, t_end);
    CHECK(t == t_end);
    CHECK(x[0] == Approx(system.exact(t_end, 0.3, -0.2)).margin(1e-10));
  }
}

TEST_CASE("the dense output is exact for a parabola, so a tangency inside a step is grazing", "[engine][events]") {
  Flight system;
  // x(t) = t - t^2/2 peaks at x = 0.5, t = 1. Watch x reaching 0.5 from below (guard 0.5 - x falls).
  AffineGuard<2> apex;
  apex.a << -1, 0;
  apex.b = 0.5;
  apex.crossing = Crossing::Falling;
  apex.id = 7;
  system.watched = {apex};
  StepControl control;
  control.h_max = 0.7;  // steps end at 0.7 and 1.4: the tangency lies inside a step
  HybridIntegrator<2> integrator(control);
  double t = 0;
  State2 x(0, 1);
  integrator.advance(system, t, x, 1.6);
  REQUIRE(system.seen.size() == 1);
  CHECK(system.seen[0].id == 7);
  CHECK(system.seen[0].grazing);
  CHECK(system.seen[0].t == Approx(1.0).margin(1e-5));
}

TEST_CASE("a guard dipping 1e-12 below the apex inside a step: the first of the two roots", "[engine][events]") {
  Flight system;
  AffineGuard<2> apex;
  apex.a << -1, 0;
  apex.b = 0.5 - 1e-12;
  apex.crossing = Crossing::Falling;
  system.watched = {apex};
  StepControl control;
  control.h_max = 0.7;
  HybridIntegrator<2> integrator(control);
  double t = 0;
  State2 x(0, 1);
  integrator.advance(system, t, x, 1.6);
  REQUIRE(!system.seen.empty());
  CHECK_FALSE(system.seen[0].grazing);
  CHECK(system.seen[0].t == Approx(1.0 - std::sqrt(2e-12)).margin(1e-9));
}

TEST_CASE("several events in one step are reported in time order", "[engine][events]") {
  Flight system;
  // x = 2t - t^2/2 rises through 0.2, 0.5 and 0.9 within the first step (h_max large).
  system.watched = {position_guard(0.9, Crossing::Rising, 3), position_guard(0.2, Crossing::Rising, 1),
                    position_guard(0.5, Crossing::Rising, 2)};
  StepControl control;
  control.h_max = 5;
  HybridIntegrator<2> integrator(control);
  double t = 0;
  State2 x(0, 2);
  integrator.advance(system, t, x, 1.0);
  REQUIRE(system.seen.size() == 3);
  CHECK(system.seen[0].id == 1);
  CHECK(system.seen[1].id == 2);
  CHECK(system.seen[2].id == 3);
  CHECK(system.seen[0].t == Approx(2 - std::sqrt(4 - 0.4)).margin(1e-12));
  CHECK(system.seen[2].t == Approx(2 - std::sqrt(4 - 1.8)).margin(1e-12));
  // Two guards crossed at the same instant arrive together, in one call, earliest first.
  Flight twin;
  twin.watched = {position_guard(0.5, Crossing::Rising, 4), position_guard(0.5 + 1e-15, Crossing::Rising, 5)};
  HybridIntegrator<2> again(control);
  t = 0;
  x << 0, 2;
  again.advance(twin, t, x, 1.0);
  REQUIRE(twin.seen.size() == 2);
  CHECK(twin.seen[0].t <= twin.seen[1].t);
}

TEST_CASE("energy is conserved to 1e-9 over 1000 elastic impacts", "[engine][events]") {
  ImpactOscillator system;
  StepControl control;
  control.rtol = 1e-13;
  control.atol = 1e-15;
  HybridIntegrator<2> integrator(control);
  double t = 0;
  State2 x(0, 1);  // amplitude 1, wall at 0.5: one impact per (shortened) cycle
  const double energy0 = 0.5 * (x[0] * x[0] + x[1] * x[1]);
  while (system.impacts < 1000) integrator.advance(system, t, x, t + 10);
  const double energy = 0.5 * (x[0] * x[0] + x[1] * x[1]);
  CHECK(std::fabs(energy - energy0) / energy0 < 1e-9);
  // With e = 0.9 each impact scales the wall speed by 0.9: E_n = (0.25 + 0.75 * 0.81^n) / 2.
  // Missing or doubling a single impact would show at once.
  ImpactOscillator lossy;
  lossy.e = 0.9;
  HybridIntegrator<2> second(control);
  t = 0;
  x << 0, 1;
  second.advance(lossy, t, x, 200);
  CHECK(lossy.impacts > 25);
  const double expected = 0.5 * (0.25 + 0.75 * std::pow(0.81, static_cast<double>(lossy.impacts)));
  CHECK(0.5 * (x[0] * x[0] + x[1] * x[1]) == Approx(expected).epsilon(1e-9));
}
