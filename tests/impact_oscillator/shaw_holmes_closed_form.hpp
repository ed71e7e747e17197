#pragma once
// The closed form of the impact oscillator x'' + 2 zeta x' + x = cos(omega t), stop at x = sigma,
// restitution r (Shaw and Holmes, "A periodically forced piecewise linear oscillator", J. Sound Vib.
// 90, 1983), for the tests: between impacts the motion is linear, y(t) = y_p(t) + E(t - t0)(y0 - y_p(t0))
// with the harmonic response y_p and the flow E(t) = exp(A t) of the damped oscillator (zeta < 1).
#include <Eigen/Dense>
#include <cmath>
#include <vector>

namespace vibro::test_support {

struct ShawHolmes {
  double zeta, omega, sigma, r;

  double period() const { return 2 * M_PI / omega; }
  // Harmonic response x_p = P cos(wt) + Q sin(wt): amplitude 1 / sqrt((1 - w^2)^2 + (2 zeta w)^2).
  double det() const { return (1 - omega * omega) * (1 - omega * omega) + 4 * zeta * zeta * omega * omega; }
  double P() const { return (1 - omega * omega) / det(); }
  double Q() const { return 2 * zeta * omega / det(); }
  double amplitude() const { return 1 / std::sqrt(det()); }
  Eigen::Vector2d harmonic(double t) const {
    const double c = std::cos(omega * t), s = std::sin(omega * t);
    return {P() * c + Q() * s, omega * (Q() * c - P() * s)};
  }
  Eigen::Matrix2d flow(double t) const {
    const double wd = std::sqrt(1 - zeta * zeta), e = std::exp(-zeta * t), c = std::cos(wd * t), s = std::sin(wd * t);
    Eigen::Matrix2d E;
    E << c + zeta / wd * s, s / wd, -s / wd, c - zeta / wd * s;
    return e * E;
  }
  // State at time t of the motion that leaves the stop at time t0 with velocity -r V (no impact between).
  Eigen::Vector2d after_impact(double t0, double V, double t) const {
    return harmonic(t) + flow(t - t0) * (Eigen::Vector2d(sigma, -r * V) - harmonic(t0));
  }

  // The (1,1) orbit: impact at phase tau with approach speed V, back at the stop with speed V one period
  // later. The first component of that condition fixes V for each tau (linear in V); the second is a
  // scalar function of tau whose roots, bracketed on a grid and bisected, are the (1,1) orbits.
  struct Orbit {
    double tau, V;
  };
  double speed_for(double tau) const {
    const Eigen::Matrix2d E = flow(period());
    const Eigen::Vector2d yp = harmonic(tau);
    // sigma - x_p = E11 (sigma - x_p) + E12 (-r V - v_p)
    return ((1 - E(0, 0)) * (sigma - yp[0]) + E(0, 1) * yp[1]) / (-r * E(0, 1));
  }
  double mismatch(double tau) const {
    const double V = speed_for(tau);
    return after_impact(tau, V, tau + period())[1] - V;
  }
  // An orbit is admissible when V > 0 and x stays below the stop between the impacts.
  bool admissible(const Orbit& o) const {
    if (!(o.V > 0)) return false;
    for (int i = 1; i < 2000; ++i)
      if (after_impact(o.tau, o.V, o.tau + period() * i / 2000.0)[0] > sigma) return false;
    return true;
  }
  std::vector<Orbit> single_impact_orbits() const {
    std::vector<Orbit> out;
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
      double a = period() * i / n, b = period() * (i + 1) / n, fa = mismatch(a);
      if ((fa > 0) == (mismatch(b) > 0)) continue;
      for (int k = 0; k < 200 && b - a > 1e-15 * period(); ++k) {
        const double m = 0.5 * (a + b), fm = mismatch(m);
        if ((fm > 0) == (fa > 0)) a = m, fa = fm; else b = m;
      }
      const Orbit o{0.5 * (a + b), speed_for(0.5 * (a + b))};
      if (admissible(o)) out.push_back(o);
    }
    return out;
  }

  // The impact map (tau, V) -> (tau', V'): from the stop at tau with -r V, the next time x reaches
  // sigma (Newton from tau + T) and the speed there.
  Eigen::Vector2d impact_map(const Eigen::Vector2d& z) const {
    double t = z[0] + period();
    for (int k = 0; k < 50; ++k) {
      const Eigen::Vector2d y = after_impact(z[0], z[1], t);
      const double dt = -(y[0] - sigma) / y[1];
      t += dt;
      if (std::fabs(dt) < 1e-15 * t) break;
    }
    return {t - period(), after_impact(z[0], z[1], t)[1]};
  }
  // Its Jacobian at a fixed point by central differences of the closed form: the stability analysis,
  // whose eigenvalues are the orbit's Floquet multipliers.
  Eigen::Matrix2d impact_map_jacobian(const Orbit& o, double h = 1e-5) const {
    Eigen::Matrix2d J;
    const Eigen::Vector2d z(o.tau, o.V);
    for (int j = 0; j < 2; ++j) {
      Eigen::Vector2d dz = Eigen::Vector2d::Zero();
      dz[j] = h;
      J.col(j) = (impact_map(z + dz) - impact_map(z - dz)) / (2 * h);
    }
    return J;
  }
};

}  // namespace vibro::test_support
