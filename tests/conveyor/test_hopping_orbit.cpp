// The conveyor paper's Eqs. 23-40: the one-periodic hopping orbit, its velocity
// (Eq. 28), its stability (Eqs. 30-40) from the engine's own map.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/periodic_shooting.hpp"
#include "analysis/steady_state.hpp"
#include "conveyor/conveyor_fixture.hpp"
#include "models/conveyor/conveyor_analytic.hpp"
#include "models/conveyor/conveyor_classes.hpp"

using namespace vibro;
using namespace vibro::conveyor;
using namespace vibro::conveyor::testing;

namespace {
constexpr double kVstar = 0.1153810534;

// The state just after the impact of the stable hopping orbit (paper Eqs. 23-28, c_r = 0.6, n = 1).
ParameterSet fixed_point(double a_hat, double perturb_phase = 0) {
  const double theta = analytic::hopping_phase(a_hat, 0.6, kPhi, 9.81);
  const auto c = ConveyorConstants::from(conveyor_values({{"a_hat", num(a_hat)}}));
  const double vT = c.B * c.omega * std::cos(theta);
  return conveyor_values({{"a_hat", num(a_hat)}, {"start", "state"}, {"theta0", num(theta + perturb_phase)},
                          {"h0", "0"}, {"u0", "0.073575"}, {"vT0", num(vT)}});
}

SteadyState classify(const std::vector<StrobeSample>& samples, const StrobeLayout& layout, int window) {
  SteadyState s;
  s.window.assign(samples.end() - (window + 1), samples.end());
  classify_window(s, layout, SteadyStateSettings{});
  return s;
}
}  // namespace

TEST_CASE("analytic anchors (closed forms of the paper's equations)", "[conveyor][analytic]") {
  CHECK(analytic::hopping_velocity(0.6, kPhi, 50, 9.81) == Approx(0.1153810534).epsilon(1e-9));
  CHECK(analytic::critical_amplitude(0.4, kPhi, 9.81) == Approx(63.5277077).epsilon(1e-9));
  CHECK(analytic::critical_amplitude(0.6, kPhi, 9.81) == Approx(37.0578295).epsilon(1e-9));
  CHECK(analytic::critical_amplitude(0.7, kPhi, 9.81) == Approx(26.15846786).epsilon(1e-9));
  CHECK(analytic::critical_amplitude(0.6, kPhi, 9.81, 2) == Approx(74.1156589).epsilon(1e-9));
  CHECK(analytic::stability_limit(0.4, kPhi, 9.81) == Approx(84.5870875).epsilon(1e-9));
  CHECK(analytic::stability_limit(0.6, kPhi, 9.81) == Approx(62.3421727).epsilon(1e-9));
  CHECK(analytic::stability_limit(0.7, kPhi, 9.81) == Approx(55.2391871).epsilon(1e-9));
  CHECK(analytic::stability_limit(0.6, kPhi, 9.81, 2) == Approx(89.4784593).epsilon(1e-9));
  CHECK(analytic::hopping_phase(50, 0.6, kPhi, 9.81) * 180 / M_PI == Approx(42.16996735).epsilon(1e-9));
  CHECK(analytic::hopping_phase(50, 0.7, kPhi, 9.81) * 180 / M_PI == Approx(58.45491316).epsilon(1e-9));
  CHECK(std::isnan(analytic::hopping_phase(50, 0.4, kPhi, 9.81)));
}

TEST_CASE("the injected hopping fixed point repeats exactly and feeds at Eq. 28", "[conveyor]") {
  for (const double a_hat : {40.0, 50.0, 60.0}) {
    const auto trace = simulate(fixed_point(a_hat), 100);
    const auto impacts = events_of(trace, ConveyorEvent::Kind::Impact);
    REQUIRE(impacts.size() >= 99);
    const double theta = analytic::hopping_phase(a_hat, 0.6, kPhi, 9.81);
    for (std::size_t k = 0; k < 5; ++k) {
      CHECK(impacts[k].phase == Approx(theta).margin(1e-10));
      CHECK(impacts[k].u_after == Approx(0.073575).margin(1e-10));
      CHECK(impacts[k].vT == Approx(kVstar).margin(1e-10));
    }
    const auto s = classify(trace.samples, conveyor_layout(trace.constants), 50);
    CHECK(classify_conveyor(s) == "H1");
    CHECK(s.drift_velocity(0.02) == Approx(analytic::hopping_velocity(0.6, kPhi, 50, 9.81)).epsilon(1e-10));
  }
}

TEST_CASE("the plate's phase at t = 0 moves the section, not the motion: the hopping orbit impacts at the same "
          "plate phase (Eq. 26), feeds at Eq. 28 and has the same multipliers",
          "[conveyor]") {
  const double theta = analytic::hopping_phase(50, 0.6, kPhi, 9.81);
  std::vector<std::complex<double>> reference;
  for (const double phase : {0.0, M_PI / 2, M_PI, -1.0}) {
    INFO("phase = " << phase);
    const Hopping h = hopping(50, phase);
    const auto trace = simulate(h.values, 100);
    const auto impacts = events_of(trace, ConveyorEvent::Kind::Impact);
    REQUIRE(impacts.size() >= 99);
    const double omega = trace.constants.omega;
    const double clock = std::fmod(std::fmod(theta - phase, 2 * M_PI) + 2 * M_PI, 2 * M_PI);  // omega t of the impacts
    for (std::size_t k = 0; k < 5; ++k) {
      CHECK(impacts[k].phase == Approx(theta).margin(1e-10));
      CHECK(std::remainder(impacts[k].time * omega - clock, 2 * M_PI) == Approx(0).margin(1e-9));
      CHECK(impacts[k].vT == Approx(kVstar).margin(1e-10));
    }
    const auto s = classify(trace.samples, conveyor_layout(trace.constants), 50);
    CHECK(classify_conveyor(s) == "H1");
    CHECK(s.drift_velocity(0.02) == Approx(analytic::hopping_velocity(0.6, kPhi, 50, 9.81)).epsilon(1e-10));
    ConveyorSimulation simulation(trace.constants, ConveyorStart::from(h.values));
    MapStep step;
    REQUIRE(simulation.stroboscopic_map(trace.samples.back(), 1, step));
    const auto multipliers = sorted_multipliers(step.jacobian);
    if (reference.empty()) reference = multipliers;
    REQUIRE(multipliers.size() == reference.size());
    for (std::size_t i = 0; i < reference.size(); ++i) CHECK(std::abs(multipliers[i] - reference[i]) < 1e-9);
  }
}

TEST_CASE("the engine's stroboscopic map has the reference Jacobian invariants at a_hat = 50", "[conveyor]") {
  // The stroboscopic map is conjugate to the impact map: same determinant c_r^2 and trace z.
  const auto base = simulate(fixed_point(50), 2);
  const StrobeSample& p = base.samples[0];  // (h, u) at phase 0 on the orbit
  auto next = [&](double h, double u) {
    const auto t = simulate(conveyor_values({{"a_hat", "50"}, {"start", "state"}, {"theta0", "0"}, {"h0", num(h)},
                                             {"u0", num(u)}, {"vT0", "0.1"}}), 1);
    return Eigen::Vector2d(t.samples[0].state[0], t.samples[0].state[1]);
  };
  const double eh = 1e-9, eu = 1e-6;
  Eigen::Matrix2d J;
  J.col(0) = (next(p.state[0] + eh, p.state[1]) - next(p.state[0] - eh, p.state[1])) / (2 * eh);
  J.col(1) = (next(p.state[0], p.state[1] + eu) - next(p.state[0], p.state[1] - eu)) / (2 * eu);
  CHECK(J.determinant() == Approx(0.36).epsilon(1e-5));
  CHECK(J.trace() == Approx(-0.46120).epsilon(1e-4));
  const Eigen::Vector2cd eigenvalues = J.eigenvalues();
  CHECK(std::abs(eigenvalues[0]) == Approx(0.6).epsilon(1e-5));
  CHECK(std::abs(eigenvalues[0].real()) == Approx(0.230599).epsilon(1e-4));
}

TEST_CASE("perturbations decay like 0.6^k at a_hat = 50 and grow beyond the flip at 63", "[conveyor]") {
  const auto orbit = simulate(fixed_point(50), 40);
  const auto perturbed = simulate(fixed_point(50, 1e-6), 40);
  auto distance = [&](int k) {
    const auto& a = orbit.samples[static_cast<std::size_t>(k)].state;
    const auto& b = perturbed.samples[static_cast<std::size_t>(k)].state;
    return std::hypot((a[0] - b[0]) / 1e-4, (a[1] - b[1]) / 1e-1);
  };
  // Complex multipliers of modulus c_r: the envelope decays by 0.6 per period; compare over
  // 30 periods in the (h, u) norm, allowing the rotation's bounded distortion.
  const double rate = std::pow(distance(31) / distance(1), 1.0 / 30);
  CHECK(rate == Approx(0.6).margin(0.02));

  const auto unstable = simulate(fixed_point(63, 1e-6), 100);
  const auto s = classify(unstable.samples, conveyor_layout(unstable.constants), 50);
  CHECK(classify_conveyor(s) != "H1");

  // Just above the fold a* = 37.06 (lambda_max = 0.83066) the orbit still attracts.
  const auto near_fold = simulate(fixed_point(37.1, 1e-6), 100);
  const auto s2 = classify(near_fold.samples, conveyor_layout(near_fold.constants), 50);
  CHECK(classify_conveyor(s2) == "H1");
  CHECK(s2.drift_velocity(0.02) == Approx(kVstar).epsilon(1e-6));
}
