// The beam-slider simulation on cases with known answers: a slider resting on the static beam,
// bit-reproducible runs and the mirror symmetry x -> l - x.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "beam_slider/beam_slider_fixture.hpp"
#include "models/beam_slider/beam_slider_simulation.hpp"

using namespace vibro;
using namespace vibro::beam_slider;

namespace {
using vibro::test_support::Recorder;

std::vector<StrobeSample> run(const BeamSliderConstants& c, int periods) {
  BeamSliderSimulation simulation(c);
  Recorder recorder(periods);
  simulation.run(recorder);
  return recorder.samples;
}
}  // namespace

TEST_CASE("slider resting on the static beam: top-corner percussions sum to m g dt (1e-4), deflection = modal static "
          "solution under two loads m g / 2 (0.1 %)",
          "[beam_slider]") {
  const BeamSliderConstants c =
      testing::constants({{"variant", "reference"}, {"w0_hat", "0"}, {"damping", "0.3"}, {"f", "100"}});
  BeamSliderSimulation simulation(c);
  const int steps = 60 * static_cast<int>(std::lround(c.period() / simulation.time_step()));  // 0.6 s
  for (int k = 0; k < steps; ++k) simulation.step();
  const double dt = simulation.time_step(), mg = c.mass * c.g;
  for (int k = 0; k < 100; ++k) {
    const auto report = simulation.step();
    REQUIRE(report.converged);
    const auto& closed = simulation.stepper().closed();
    const auto P = simulation.stepper().percussions();
    double top = 0, bottom = 0;
    // Corner ids 0 and 3 (P1, P4) touch the top surface.
    for (int i = 0; i < closed.count; ++i) (closed.id[static_cast<std::size_t>(i)] % 3 == 0 ? top : bottom) += P(2 * i);
    // Vertical equilibrium holds exactly; the normals tilt with the bent beam's slope, so their sum
    // differs from m g dt by friction times slope.
    CHECK(simulation.stepper().contact_impulse()(simulation.system().x_index() + 1) == Approx(mg * dt).epsilon(1e-8));
    CHECK(top == Approx(mg * dt).epsilon(1e-4));
    CHECK(bottom == 0.0);
  }
  // Static modal solution q_n = sum_i F_i s_n(x_i) / omega_n^2 with F = m g / 2 at x_C -+ b1 / 2.
  const BeamAxis& axis = simulation.system().axis();
  Eigen::VectorXd q_static = Eigen::VectorXd::Zero(axis.modes());
  for (double x : {0.5 * c.length - 0.5 * c.corner_spacing, 0.5 * c.length + 0.5 * c.corner_spacing}) {
    ModalArray s, ds, dds;
    axis.shapes_at(x, s, ds, dds);
    for (int n = 0; n < axis.modes(); ++n)
      q_static(n) -= 0.5 * mg * s[static_cast<std::size_t>(n)] / std::pow(axis.omega(n), 2);
  }
  const double w_centre = axis.at(simulation.q().data(), 0.5 * c.length).w;
  const double w_expected = axis.at(q_static.data(), 0.5 * c.length).w;
  CHECK(w_expected < -1e-7);
  CHECK(w_centre == Approx(w_expected).epsilon(1e-3));
}

TEST_CASE("runs are bit-reproducible (fixed operation order)", "[beam_slider]") {
  const BeamSliderConstants c = testing::constants({{"f", "125"}, {"x_C0", "0.7"}});
  const auto a = run(c, 40), b = run(c, 40);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    CHECK(std::memcmp(a[k].state.data(), b[k].state.data(), sizeof(double) * a[k].state.size()) == 0);
    CHECK(std::memcmp(a[k].aux.data(), b[k].aux.data(), sizeof(double) * a[k].aux.size()) == 0);
    CHECK(a[k].counters == b[k].counters);
  }
}

TEST_CASE("x_C(0) = 0.4 l mirrors x_C(0) = 0.6 l (x -> l - x, phi -> -phi, modes 2 and 4 flipped)", "[beam_slider]") {
  // The sweep order of the contact solver is not mirrored: solve tightly so that only round-off differs.
  auto mirrored_run = [](const char* x) {
    return run(testing::constants({{"f", "125"}, {"x_C0", x}, {"solver_rtol", "1e-14"}, {"solver_atol", "1e-20"},
                                   {"solver_max_sweeps", "100000"}}),
               30);
  };
  const auto right = mirrored_run("0.6"), left = mirrored_run("0.4");
  const double l = 0.06;
  const double sign[8] = {1, -1, 1, -1, 1, -1, 1, -1};  // q_B1..q_B5, x_C (about l), z_C, phi
  for (std::size_t k = 0; k < right.size(); ++k) {
    INFO("period " << k + 1);
    for (int i = 0; i < 8; ++i) {
      const double r = right[k].state[static_cast<std::size_t>(i)];
      const double m = (i == 5 ? l : 0.0) + sign[i] * left[k].state[static_cast<std::size_t>(i)];
      CHECK(std::abs(r - m) <= 1e-8 * std::abs(r) + 1e-15);
    }
    CHECK(right[k].counters[kClosedP1] == left[k].counters[kClosedP4]);
    CHECK(right[k].counters[kClosedP2] == left[k].counters[kClosedP3]);
  }
}
