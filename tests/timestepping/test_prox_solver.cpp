// The GS-prox local contact solver on problems with known solutions (Krack et al. 2017).
#include <catch2/catch.hpp>

#include "engine/timestepping/prox_contact_solver.hpp"

using namespace vibro::timestepping;

TEST_CASE("GS-prox: one contact closing with slip, one with stick, one separating", "[timestepping][beam_slider]") {
  ProxSolverSettings tight;
  tight.rtol = 1e-14;
  tight.atol = 1e-16;
  const Eigen::MatrixXd G = 2.0 * Eigen::MatrixXd::Identity(6, 6);
  Eigen::VectorXd c(6);
  c << -1.0, 0.5,   // approaching, tangential free velocity beyond the cone: slip
      -1.0, 0.05,   // approaching, small tangential velocity: stick
      +1.0, 0.3;    // separating: no percussion
  Eigen::VectorXd P = Eigen::VectorXd::Zero(6);
  const ProxSolveReport report = solve_prox_gauss_seidel(G, c, {0.1, 0.1, 0.1}, P, tight);
  REQUIRE(report.converged);
  CHECK(P(0) == Approx(0.5).epsilon(1e-12));
  CHECK(P(1) == Approx(-0.05).epsilon(1e-12));   // -mu P_n sign(gamma_t)
  CHECK(P(2) == Approx(0.5).epsilon(1e-12));
  CHECK(P(3) == Approx(-0.025).epsilon(1e-12));  // gamma_t^E = 0
  CHECK(P(4) == 0.0);
  CHECK(P(5) == 0.0);
}

TEST_CASE("GS-prox: coupled contacts satisfy the complementarity conditions, bit-reproducibly",
          "[timestepping][beam_slider]") {
  Eigen::MatrixXd A(4, 3);
  A << 1.0, 0.3, 0.2, 0.1, 1.0, -0.4, 1.0, -0.3, 0.5, -0.2, 1.0, 0.1;
  const Eigen::MatrixXd G = A * A.transpose();  // a Delassus matrix of a 3-DOF body, two contacts
  Eigen::VectorXd c(4);
  c << -0.7, 0.2, -0.4, -0.3;
  ProxSolverSettings tight;
  tight.rtol = 1e-13;
  tight.atol = 1e-15;
  tight.max_iterations = 100000;
  Eigen::VectorXd P = Eigen::VectorXd::Zero(4);
  const std::vector<double> mu{0.3, 0.3};
  REQUIRE(solve_prox_gauss_seidel(G, c, mu, P, tight).converged);
  const Eigen::VectorXd gamma = G * P + c;
  for (int i = 0; i < 2; ++i) {
    CHECK(P(2 * i) >= 0);
    CHECK(gamma(2 * i) >= -1e-10);
    CHECK(std::abs(P(2 * i) * gamma(2 * i)) < 1e-10);
    CHECK(std::abs(P(2 * i + 1)) <= mu[static_cast<std::size_t>(i)] * P(2 * i) + 1e-12);
    // Stick with zero slip velocity, or slip opposing it at the cone's edge.
    if (std::abs(P(2 * i + 1)) < mu[static_cast<std::size_t>(i)] * P(2 * i) - 1e-9)
      CHECK(std::abs(gamma(2 * i + 1)) < 1e-9);
    else
      CHECK(P(2 * i + 1) * gamma(2 * i + 1) <= 1e-12);
  }
  Eigen::VectorXd again = Eigen::VectorXd::Zero(4);
  solve_prox_gauss_seidel(G, c, mu, again, tight);
  CHECK((again.array() == P.array()).all());
}

TEST_CASE("contact solver names: gs_prox known, others rejected", "[timestepping][beam_slider]") {
  CHECK(prox_solver_from_name("gs_prox") == ProxSolverKind::GaussSeidel);
  CHECK_THROWS_AS(prox_solver_from_name("lcp"), std::invalid_argument);
}
