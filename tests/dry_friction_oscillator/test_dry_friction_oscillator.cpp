// The dry-friction oscillator written against the hybrid-model API, against Den Hartog's closed form
// of the non-stop motion (Den Hartog, "Forced vibrations with combined Coulomb and viscous friction",
// Trans. ASME 53, 1931): two half periods of linear motion under a constant friction force, the second
// the negative of the first.
#include <catch2/catch.hpp>
#include <cmath>
#include <Eigen/Dense>

#include "analysis/periodic_shooting.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

// x'' + x = F cos(w t) - mu while x' > 0: x = x_p + rotation of the start's deviation from x_p.
struct DenHartog {
  double mu, F, omega;
  double half() const { return M_PI / omega; }
  Eigen::Vector2d forced(double t) const {  // x_p = -mu + B cos(wt), B = F / (1 - w^2)
    const double B = F / (1 - omega * omega);
    return {-mu + B * std::cos(omega * t), -B * omega * std::sin(omega * t)};
  }
  // State at t of the forward slip that starts at rest at x = -X at time t0.
  Eigen::Vector2d slip(double X, double t0, double t) const {
    const double c = std::cos(t - t0), s = std::sin(t - t0);
    const Eigen::Vector2d d = Eigen::Vector2d(-X, 0) - forced(t0);
    return forced(t) + Eigen::Vector2d(c * d[0] + s * d[1], -s * d[0] + c * d[1]);
  }
  // The half period ends at rest (velocity condition, linear in X) at +X (the residual, a function of t0).
  double amplitude_for(double t0) const {
    const double s = std::sin(half());
    const Eigen::Vector2d p0 = forced(t0), p1 = forced(t0 + half());
    // 0 = v_p(t1) - s (-X - x_p(t0)) + cos(half) (-v_p(t0))
    return (p1[1] - std::cos(half()) * p0[1]) / (-s) - p0[0];
  }
  double residual(double t0) const { return slip(amplitude_for(t0), t0, t0 + half())[0] - amplitude_for(t0); }
  // Non-stop: moving forwards over the whole half period, and not held at its start.
  bool non_stop(double X, double t0) const {
    for (int i = 1; i < 1000; ++i)
      if (!(slip(X, t0, t0 + half() * i / 1000.0)[1] > 0)) return false;
    return X > 0 && F * std::cos(omega * t0) + X > mu;
  }
  // The section state (t = 0) of the non-stop orbit: bisection for t0 over one period.
  bool orbit_at_zero(Eigen::Vector2d& y) const {
    const double T = 2 * half();
    for (int i = 0; i < 2000; ++i) {
      double a = -T * i / 2000.0, b = -T * (i + 1) / 2000.0, fa = residual(a);
      if ((fa > 0) == (residual(b) > 0)) continue;
      for (int k = 0; k < 200; ++k) {
        const double m = 0.5 * (a + b), fm = residual(m);
        if ((fm > 0) == (fa > 0)) a = m, fa = fm; else b = m;
      }
      const double t0 = 0.5 * (a + b), X = amplitude_for(t0);
      if (!non_stop(X, t0)) continue;
      // t = 0 lies in the forward half [t0, t0 + T/2] or in the backward one, its negative image.
      y = -t0 <= half() ? slip(X, t0, 0) : Eigen::Vector2d(-slip(X, t0, -half()));
      return true;
    }
    return false;
  }
};

}  // namespace

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
