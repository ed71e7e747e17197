// Exact corner kinematics (Krack et al. 2017): gaps at the trivial initial
// condition, the Jacobians W_i and w_i against finite differences with x* frozen, the exact
// projection (g_t = 0, orthogonality), and the mirror symmetry x -> l - x, phi -> -phi.
#include <catch2/catch.hpp>
#include <cmath>

#include "beam_slider/beam_slider_fixture.hpp"
#include "models/beam_slider/beam_slider_system.hpp"

using namespace vibro::beam_slider;

namespace {
// A deformed, rotated, off-centre configuration with all corners near the surface.
Eigen::VectorXd bent_configuration(const BeamSliderSystem& s, double x_rel, double phi) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(8);
  q << 2e-5, -1.2e-5, 6e-6, 3e-6, -2e-6, x_rel * s.constants().length, 0.0, phi;
  const SliderPose p = s.pose(q, 0.0);
  q(6) = p.w0 + s.axis().at(q.data(), q(5)).w - s.constants().hole_offset + 1e-6;
  return q;
}
}  // namespace

TEST_CASE("all four normal gaps are R/2 - r = 0.05 mm at the trivial initial condition", "[beam_slider]") {
  const BeamSliderSystem system(testing::constants({{"x_C0", "0.6"}}));
  Eigen::VectorXd q, u;
  system.initial_state(q, u);
  const SliderPose p = system.pose(q, 0.0);
  for (int i = 0; i < kCorners; ++i) {
    const double x_star = closest_axis_point(system.axis(), p, system.corner(i));
    CHECK(corner_gaps(system.axis(), p, system.corner(i), 2e-4, x_star).gap_n == Approx(5e-5).margin(1e-15));
    CHECK(vertical_gap(system.axis(), p, system.corner(i), 2e-4) == Approx(5e-5).margin(1e-15));
  }
}

TEST_CASE("exact projection: g_t = 0 and the corner lies on the axis normal at x*", "[beam_slider]") {
  const BeamSliderSystem system(testing::constants({}));
  const Eigen::VectorXd q = bent_configuration(system, 0.7, 0.03);
  const SliderPose p = system.pose(q, 0.0);
  for (int i = 0; i < kCorners; ++i) {
    const double x_star = closest_axis_point(system.axis(), p, system.corner(i));
    const CornerPosition P = corner_position(p, system.corner(i));
    const AxisPoint B = system.axis().at(q.data(), x_star);
    CHECK(std::abs((P.x - x_star) + (P.z - p.w0 - B.w) * B.dw) < 1e-14);  // F(x*) = 0
    CHECK(std::abs(corner_gaps(system.axis(), p, system.corner(i), 2e-4, x_star).gap_t) < 1e-15);
    CHECK(std::abs(x_star - P.x) > 1e-8);  // the slope makes the projection differ from the vertical one
  }
}

TEST_CASE("W_i and w_i match central finite differences of the frozen-x* gaps (rel. error < 1e-6), exact and "
          "simplified kinematics",
          "[beam_slider]") {
  for (const auto kind : {ContactKinematics::Exact, ContactKinematics::Simplified}) {
    const BeamSliderSystem system(testing::constants({}));
    const Eigen::VectorXd q = bent_configuration(system, 0.65, -0.04);
    const double t = 0.0013;
    const SliderPose p = system.pose(q, t);
    const double r = system.constants().half_thickness;
    for (int i = 0; i < kCorners; ++i) {
      INFO("corner P" << i + 1 << (kind == ContactKinematics::Exact ? " exact" : " simplified"));
      const Corner& corner = system.corner(i);
      const double x_star = kind == ContactKinematics::Exact ? closest_axis_point(system.axis(), p, corner)
                                                             : corner_position(p, corner).x;
      Eigen::VectorXd Wn(8), Wt(8);
      const CornerKinematics k = corner_kinematics(system.axis(), p, corner, r, x_star, Wn, Wt, kind);
      const double scale_n = Wn.cwiseAbs().maxCoeff(), scale_t = Wt.cwiseAbs().maxCoeff();
      for (int j = 0; j < 8; ++j) {
        const double h = j < 5 ? 1e-9 : j == 7 ? 1e-7 : 1e-9;
        Eigen::VectorXd qp = q, qm = q;
        qp(j) += h;
        qm(j) -= h;
        const CornerKinematics kp = corner_gaps(system.axis(), system.pose(qp, t), corner, r, x_star, kind);
        const CornerKinematics km = corner_gaps(system.axis(), system.pose(qm, t), corner, r, x_star, kind);
        INFO("dof " << j);
        CHECK(std::abs((kp.gap_n - km.gap_n) / (2 * h) - Wn(j)) < 1e-6 * scale_n);
        CHECK(std::abs((kp.gap_t - km.gap_t) / (2 * h) - Wt(j)) < 1e-6 * scale_t);
      }
      const double dt = 1e-8;
      const CornerKinematics kp = corner_gaps(system.axis(), system.pose(q, t + dt), corner, r, x_star, kind);
      const CornerKinematics km = corner_gaps(system.axis(), system.pose(q, t - dt), corner, r, x_star, kind);
      const double base_speed = std::abs(p.w0_dot);
      REQUIRE(base_speed > 1e-3);
      CHECK(std::abs((kp.gap_n - km.gap_n) / (2 * dt) - k.w_n) < 1e-6 * base_speed);
      CHECK(std::abs((kp.gap_t - km.gap_t) / (2 * dt) - k.w_t) < 1e-6 * base_speed);
    }
  }
}

TEST_CASE("mirror x -> l - x, phi -> -phi (antisymmetric modes flipped) swaps P1<->P4, P2<->P3 gaps",
          "[beam_slider]") {
  const BeamSliderSystem system(testing::constants({}));
  const Eigen::VectorXd q = bent_configuration(system, 0.62, 0.02);
  Eigen::VectorXd m = q;
  m(1) = -q(1);
  m(3) = -q(3);
  m(5) = system.constants().length - q(5);
  m(7) = -q(7);
  const double r = system.constants().half_thickness;
  const int mirror[kCorners] = {3, 2, 1, 0};
  for (int i = 0; i < kCorners; ++i) {
    const SliderPose p = system.pose(q, 0.0), pm = system.pose(m, 0.0);
    const double g = corner_gaps(system.axis(), p, system.corner(i), r,
                                 closest_axis_point(system.axis(), p, system.corner(i))).gap_n;
    const int j = mirror[i];
    const double gm = corner_gaps(system.axis(), pm, system.corner(j), r,
                                  closest_axis_point(system.axis(), pm, system.corner(j))).gap_n;
    INFO("corner P" << i + 1);
    CHECK(g == Approx(gm).margin(1e-15));
  }
}
