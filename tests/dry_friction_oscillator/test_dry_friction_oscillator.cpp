// The dry-friction oscillator written against the hybrid-model API, against Den Hartog's closed form
// of the non-stop motion (Den Hartog, "Forced vibrations with combined Coulomb and viscous friction",
// Trans. ASME 53, 1931): two half periods of linear motion under a constant friction force, the second
// the negative of the first.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <Eigen/Dense>

#include "analysis/hybrid_model.hpp"
#include "analysis/periodic_shooting.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"
#include "support/model_fixture.hpp"
#include "dry_friction_oscillator/den_hartog.hpp"

using namespace vibro;
using namespace vibro::test_support;

TEST_CASE("Dry-friction oscillator: the non-stop orbit equals Den Hartog's closed form", "[dry_friction_oscillator]") {
  const Model& model = ModelRegistry::instance().get("dry_friction_oscillator");
  const ParameterSet values = parameter_values(model.parameters(), {{"mu", "0.3"}, {"F", "1"}, {"omega", "0.7"}});
  Eigen::Vector2d expected = Eigen::Vector2d::Zero();
  REQUIRE(DenHartog{0.3, 1, 0.7}.orbit_at_zero(expected));
  auto simulation = model.start(values);
  Recorder recorder(300);
  simulation->run(recorder);
  const StrobeSample& last = recorder.samples.back();
  INFO("closed form (" << expected[0] << ", " << expected[1] << "), simulated (" << last.state[0] << ", " << last.state[1] << ")");
  CHECK(last.counters[kHybridSwitches] - recorder.samples[recorder.samples.size() - 2].counters[kHybridSwitches] == 4);
  CHECK(std::fabs(last.state[0] - expected[0]) < 1e-8);
  CHECK(std::fabs(last.state[1] - expected[1]) < 1e-8);
  // Shooting with the adapter's Jacobian (saltation through the instantaneous passage via "stick").
  const PeriodicOrbit shot = shoot_periodic_orbit(*simulation, last, 1);
  REQUIRE(shot.converged);
  CHECK(std::fabs(shot.state.state[0] - expected[0]) < 1e-8);
  CHECK(std::fabs(shot.state.state[1] - expected[1]) < 1e-8);
}

namespace {

// The adapter's system with every entry into and exit from one mode timed.
struct ModeClock {
  DescribedSystem<2>& system;
  int watched;
  double entered = std::numeric_limits<double>::quiet_NaN(), left = entered, stay = entered;  // stay: the last whole visit
  using State = DescribedSystem<2>::State;
  void rhs(double t, const State& y, State& dy) const { system.rhs(t, y, dy); }
  int guards(AffineGuard<4>* out) const { return system.guards(out); }
  void observe(const DenseStep<4>& step, double theta_end) { system.observe(step, theta_end); }
  bool on_events(double t, State& y, const EventHit* hits, int count) {
    const int before = system.mode;
    system.on_events(t, y, hits, count);
    if (before != watched && system.mode == watched) entered = t;
    if (before == watched && system.mode != watched) left = t, stay = t - entered;
    return true;
  }
};

}  // namespace

TEST_CASE("Dry-friction oscillator: where the closed form says the mass sticks, it sticks as long",
          "[dry_friction_oscillator]") {
  // Stick-slip (Den Hartog): at rest at -X until F cos(w t_r) + X = mu releases it, slipping forwards
  // to rest at +X at t_e, stuck there until the antisymmetric release at t_r + T/2.
  const double mu = 0.5, F = 1, omega = 0.4;
  const DenHartog dh{mu, F, omega};
  auto amplitude = [&](double t_r) { return mu - F * std::cos(omega * t_r); };
  auto halt = [&](double t_r) {  // first rest after the release (v = 0 again)
    double a = t_r + 1e-9, b = a;
    while (dh.slip(amplitude(t_r), t_r, b)[1] > 0 || b == a) b += 1e-3;
    for (int k = 0; k < 200; ++k) {
      const double m = 0.5 * (a + b);
      (dh.slip(amplitude(t_r), t_r, m)[1] > 0 ? a : b) = m;
    }
    return a;
  };
  auto residual = [&](double t_r) { return dh.slip(amplitude(t_r), t_r, halt(t_r))[0] - amplitude(t_r); };
  // Releases happen where the force rises through the limit, w t_r in (-pi, 0) (mod 2 pi), from a
  // rest at -X < 0: cos(w t_r) < mu / F.
  double a = -M_PI / omega + 1e-3, b = -(std::acos(mu / F) + 1e-3) / omega, fa = residual(a);
  REQUIRE((fa > 0) != (residual(b) > 0));
  for (int k = 0; k < 200; ++k) {
    const double m = 0.5 * (a + b), fm = residual(m);
    if ((fm > 0) == (fa > 0)) a = m, fa = fm; else b = m;
  }
  const double t_r = 0.5 * (a + b), X = amplitude(t_r), t_e = halt(t_r);
  REQUIRE(X > 0);
  REQUIRE(std::fabs(F * std::cos(omega * t_e) - X) <= mu);  // it does stick at +X
  const double stick_duration = t_r + dh.half() - t_e;

  const Model& model = ModelRegistry::instance().get("dry_friction_oscillator");
  const auto& hybrid = dynamic_cast<const HybridModel<2>&>(model);
  const ParameterSet values = parameter_values(model.parameters(), {{"mu", "0.5"}, {"F", "1"}, {"omega", "0.4"}});
  const auto description = std::make_shared<const HybridDescription<2>>(hybrid.describe(values));
  HybridFrame frame;
  frame.names = {"x", "v"};
  DescribedSystem<2> system(description, frame);
  StrobeSample counters{};
  system.sample = &counters;
  ModeClock clock{system, 2};  // "stick"
  REQUIRE(description->modes()[2].name == "stick");
  DescribedSystem<2>::State y;
  y << 0, 0, 1, 0;
  REQUIRE(system.enter(description->initial_mode, y));
  HybridIntegrator<4> integrator(integrator_control(values, description->period / 32));
  double t = 0;
  integrator.advance(clock, t, y, 100 * description->period);
  INFO("closed-form stick " << stick_duration << ", simulated " << clock.stay);
  CHECK(std::fabs(clock.stay - stick_duration) < 1e-6);
  // The last release is the closed form's, up to whole half periods.
  const double shift = (clock.left - t_r) / dh.half();
  CHECK(std::fabs(shift - std::round(shift)) * dh.half() < 1e-6);
}

TEST_CASE("Dry-friction oscillator: with mu = 0 it is the undamped linear oscillator", "[dry_friction_oscillator]") {
  // x'' + x = F cos(w t): x(t) = B cos(w t) + (x0 - B) cos t + v0 sin t with B = F / (1 - w^2); the
  // velocity's zeros pass through "stick" without staying (no friction holds the mass).
  const double F = 1, omega = 0.7, x0 = 0.2, v0 = 0.5, B = F / (1 - omega * omega);
  const Model& model = ModelRegistry::instance().get("dry_friction_oscillator");
  const ParameterSet values = parameter_values(
      model.parameters(), {{"mu", "0"}, {"F", "1"}, {"omega", "0.7"}, {"x0", "0.2"}, {"v0", "0.5"}});
  auto simulation = model.start(values);
  Recorder recorder(40);
  simulation->run(recorder);
  REQUIRE(recorder.samples.size() == 40);
  double worst = 0;
  for (const StrobeSample& s : recorder.samples) {
    const double t = s.time;
    const double x = B * std::cos(omega * t) + (x0 - B) * std::cos(t) + v0 * std::sin(t);
    const double v = -B * omega * std::sin(omega * t) - (x0 - B) * std::sin(t) + v0 * std::cos(t);
    // Undamped, so errors neither grow nor decay: the integrator's per-period error adds up, period by
    // period (measured: about 3e-10 a period at the default tolerances).
    worst = std::max({worst, (std::fabs(s.state[0] - x) + std::fabs(s.state[1] - v)) / static_cast<double>(s.period)});
  }
  INFO("largest deviation from the closed form per elapsed period: " << worst);
  CHECK(worst < 1e-9);
  CHECK(recorder.samples.back().time == Approx(40 * 2 * M_PI / omega).epsilon(1e-12));
}
