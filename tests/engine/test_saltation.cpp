// Variational equations with saltation matrices against finite differences of the flow across
// impacts (an oscillator hitting a wall), and the monodromy of Model A's (1,1) orbit against the
// Floquet multipliers of Bazhenov et al. 2013 against finite differences.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <vector>

#include "engine/hybrid/variational_system.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/gap_oscillator_simulation.hpp"

using namespace vibro;

namespace {

using State2 = Eigen::Matrix<double, 2, 1>;
using Matrix2 = Eigen::Matrix<double, 2, 2>;

// x'' = -x - 0.1 x' against a wall at x = 0.5 with restitution e = 0.8.
struct DampedWall {
  double e = 0.8;
  void rhs(double, const State2& x, State2& dx) const {
    dx[0] = x[1];
    dx[1] = -x[0] - 0.1 * x[1];
  }
  void jacobian(double, const State2&, Matrix2& J) const { J << 0, 1, -1, -0.1; }
  Matrix2 reset_jacobian(const EventHit&, const State2&) const {
    Matrix2 R;
    R << 1, 0, 0, -e;
    return R;
  }
  int guards(AffineGuard<2>* out) const {
    out[0].a << -1, 0;
    out[0].b = 0.5;
    out[0].crossing = Crossing::Falling;
    out[0].id = 0;
    return 1;
  }
  bool on_events(double, State2& x, const EventHit*, int) {
    x[0] = 0.5;
    x[1] = -e * x[1];
    return true;
  }
  void observe(const DenseStep<2>&, double) {}
};

StepControl tight() {
  StepControl c;
  c.rtol = 1e-13;
  c.atol = 1e-15;
  return c;
}

State2 flow(const State2& x0, double t_end) {
  DampedWall system;
  HybridIntegrator<2> integrator(tight());
  double t = 0;
  State2 x = x0;
  integrator.advance(system, t, x, t_end);
  return x;
}

template <int N>
std::vector<std::complex<double>> sorted_eigenvalues(const Eigen::Matrix<double, N, N>& M) {
  const Eigen::EigenSolver<Eigen::Matrix<double, N, N>> solver(M);
  std::vector<std::complex<double>> values;
  for (int i = 0; i < N; ++i) values.push_back(solver.eigenvalues()[i]);
  std::sort(values.begin(), values.end(), [](auto a, auto b) {
    return a.real() != b.real() ? a.real() > b.real() : a.imag() > b.imag();
  });
  return values;
}

}  // namespace

TEST_CASE("the flow's Jacobian across impacts (saltation) equals finite differences", "[engine][saltation]") {
  DampedWall system;
  VariationalSystem<2, DampedWall> variational(system);
  HybridIntegrator<6> integrator(tight());
  const State2 x0(0.0, 1.2);  // hits the wall twice within t = 8
  auto y = VariationalSystem<2, DampedWall>::pack(x0, Matrix2::Identity());
  double t = 0;
  integrator.advance(variational, t, y, 8.0);
  REQUIRE(integrator.stats().events >= 2);
  const Matrix2 phi = VariationalSystem<2, DampedWall>::phi(y);
  CHECK((VariationalSystem<2, DampedWall>::state(y) - flow(x0, 8.0)).norm() < 1e-10);
  Matrix2 fd;
  const double h = 1e-6;
  for (int j = 0; j < 2; ++j) {
    State2 d = State2::Zero();
    d[j] = h;
    fd.col(j) = (flow(x0 + d, 8.0) - flow(x0 - d, 8.0)) / (2 * h);
  }
  CHECK((phi - fd).norm() < 1e-6 * fd.norm());
  // The event-time correction matters here: at an impact the saltation matrix is far from the
  // reset's Jacobian alone (which would give a wrong Phi).
  const State2 before(0.5, 0.8);
  State2 f_minus, f_plus;
  system.rhs(0, before, f_minus);
  system.rhs(0, State2(0.5, -0.8 * 0.8), f_plus);
  const Matrix2 R = system.reset_jacobian(EventHit{0, 0, false}, before);
  const Matrix2 S = saltation_matrix<2>(R, f_minus, f_plus, State2(-1, 0));
  CHECK((S - R).norm() > 0.5);
}

TEST_CASE("monodromy of Model A's (1,1) orbit: saltation multipliers = spec = finite differences", "[two_body][saltation]") {
  using namespace vibro::two_body;
  using State = GapOscillatorSystem::State;
  using Matrix = GapOscillatorSystem::Matrix;
  // The converged orbit at lambda = 1, restitution e = 1, from the sweep machinery.
  const SweepSpec spec = parse_sweep(
      "model = gap_oscillator\n[parameters]\nlaw = restitution\n[run]\nmax_periods = 600\nwindow_periods = 20\n",
      "floquet.ini", {});
  const SweepRun run = run_sweep(spec);
  REQUIRE(run.cases[0].class_code == "(1,1)");
  const StrobeSample& s = run.cases[0].final_state;
  const auto constants = GapOscillatorConstants::from(spec.case_parameters(0));
  State x0;
  x0 << s.state[0], s.state[1], s.state[2] + constants.D, s.state[3], 1, 0;

  StepControl control = tight();
  control.h_max = constants.period / 32;
  auto one_period = [&](const State& start) {
    GapOscillatorSystem system(constants);
    StrobeSample scratch;
    system.sample = &scratch;
    HybridIntegrator<6> integrator(control);
    double t = 0;
    State x = start;
    integrator.advance(system, t, x, constants.period);
    return x;
  };
  // Variational equations + saltation.
  GapOscillatorSystem system(constants);
  StrobeSample scratch;
  system.sample = &scratch;
  VariationalSystem<6, GapOscillatorSystem> variational(system);
  HybridIntegrator<42> integrator(control);
  auto y = VariationalSystem<6, GapOscillatorSystem>::pack(x0, Matrix::Identity());
  double t = 0;
  integrator.advance(variational, t, y, constants.period);
  const Eigen::Matrix4d M = VariationalSystem<6, GapOscillatorSystem>::phi(y).topLeftCorner<4, 4>();
  // Finite differences of the period map on (x1, v1, x2, v2).
  Eigen::Matrix4d fd;
  for (int j = 0; j < 4; ++j) {
    State d = State::Zero();
    d[j] = j % 2 == 0 ? 1e-7 : 1e-6;
    fd.col(j) = ((one_period(x0 + d) - one_period(x0 - d)) / (2 * d[j])).head<4>();
  }
  CHECK((M - fd).norm() < 1e-4 * fd.norm());
  const auto mu = sorted_eigenvalues<4>(M);
  // a shooting reference: 0.7563 +- 0.0505i, -0.3152 +- 0.1530i.
  CHECK(mu[0].real() == Approx(0.7563).margin(2e-3));
  CHECK(std::fabs(mu[0].imag()) == Approx(0.0505).margin(2e-3));
  CHECK(mu[2].real() == Approx(-0.3152).margin(2e-3));
  CHECK(std::fabs(mu[2].imag()) == Approx(0.1530).margin(2e-3));
}
