#pragma once
// Den Hartog's closed form of the dry-friction oscillator's non-stop motion, x'' + x + mu sgn(x') =
// F cos(w t) (Den Hartog, "Forced vibrations with combined Coulomb and viscous friction", Trans. ASME
// 53, 1931): two half periods of linear motion under a constant friction force, the second the
// negative of the first. Shared by the model's tests and its continuation tests.
#include <algorithm>
#include <cmath>
#include <limits>
#include <Eigen/Dense>

namespace vibro::test_support {

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

// How far the non-stop motion at these parameters is from sticking: the smaller of F cos(w t0) + X -
// mu (the force that starts the forward half beyond the friction limit) and the velocity at its
// interior minima over the forward half (the motion must not halt on the way), over the non-stop
// orbits (roots of the half-period residual with X > 0); negative where no orbit moves without a stop.
inline double non_stop_margin(const DenHartog& dh) {
  const double T = 2 * dh.half();
  double best = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 2000; ++i) {
    double a = -T * i / 2000.0, b = -T * (i + 1) / 2000.0, fa = dh.residual(a);
    if ((fa > 0) == (dh.residual(b) > 0)) continue;
    for (int k = 0; k < 200; ++k) {
      const double m = 0.5 * (a + b), fm = dh.residual(m);
      if ((fm > 0) == (fa > 0)) a = m, fa = fm; else b = m;
    }
    const double t0 = 0.5 * (a + b), X = dh.amplitude_for(t0);
    if (!(X > 0)) continue;
    double margin = dh.F * std::cos(dh.omega * t0) + X - dh.mu;
    const int n = 4000;
    const auto v = [&](double t) { return dh.slip(X, t0, t)[1]; };
    const double h = dh.half() / n;
    for (int j = 1; j < n; ++j) {  // interior minima of v, refined by golden section to rounding
      const double t = t0 + j * h;
      if (!(v(t) < v(t - h) && v(t) <= v(t + h))) continue;
      double lo = t - h, hi = t + h;
      const double g = 0.5 * (std::sqrt(5.0) - 1);
      for (int k = 0; k < 100; ++k) {
        const double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
        (v(c) < v(d) ? hi : lo) = v(c) < v(d) ? d : c;
      }
      margin = std::min(margin, v(0.5 * (lo + hi)));
    }
    best = std::max(best, margin);
  }
  return best;
}

}  // namespace vibro::test_support
