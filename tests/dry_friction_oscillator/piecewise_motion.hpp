#pragma once
// The dry-friction oscillator x'' + x + mu sgn(x') = F cos(w t) in closed form piece by piece, as
// bench/dry_friction_window.py solves it: slipping, a linear oscillator under a constant friction
// force; sticking, x constant while |F cos(w t) - x| <= mu. Stops, reversals and releases are located
// on the closed forms (scan and bisection), independently of the engine's integrator and event locator.
#include <cmath>
#include <string>
#include <vector>

namespace vibro::test_support {

struct PiecewiseEvent {
  double t, x;
  int mode_after;  // +1 slipping forwards, -1 backwards, 0 sticking
};

struct PiecewiseMotion {
  double mu, F, w;
  double T() const { return 2 * M_PI / w; }
  double B() const { return F / (1 - w * w); }

  // Slipping with velocity of sign sg from (t0, x0, v0): (x, v) at t.
  void slip(int sg, double t0, double x0, double v0, double t, double& x, double& v) const {
    const double C1 = x0 - (B() * std::cos(w * t0) - sg * mu), C2 = v0 + B() * w * std::sin(w * t0);
    const double c = std::cos(t - t0), s = std::sin(t - t0);
    x = B() * std::cos(w * t) - sg * mu + C1 * c + C2 * s;
    v = -B() * w * std::sin(w * t) - C1 * s + C2 * c;
  }
  template <class F>
  static double bisect(F f, double a, double b) {
    const bool fa = f(a) > 0;
    for (int k = 0; k < 200 && b - a > 1e-15; ++k) {
      const double m = 0.5 * (a + b);
      ((f(m) > 0) == fa ? a : b) = m;
    }
    return 0.5 * (a + b);
  }
  // The first time in (t0, t_end] where sg v falls to 0, or NAN. A slip from rest may end again very
  // soon: geometrically growing times are looked at first.
  double halt(int sg, double t0, double x0, double v0, double t_end) const {
    const double dt = T() / 2000;
    const auto vf = [&](double t) {
      double x, v;
      slip(sg, t0, x0, v0, t, x, v);
      return sg * v;
    };
    double t = t0;
    if (std::fabs(v0) < 1e-12) {
      bool seen = false;
      for (int k = 60; k > 0; --k) {
        const double tk = t0 + dt * std::ldexp(1.0, -k), vk = vf(tk);
        if (vk > 1e-13) seen = true, t = tk;
        else if (seen && vk <= 0) return bisect(vf, t, tk);
      }
      if (!seen) t = t0 + dt / 2;
    }
    while (t < t_end) {
      const double next = std::fmin(t + dt, t_end);
      if (vf(next) <= 0) return bisect(vf, t, next);
      t = next;
    }
    return NAN;
  }
  // The first release after th from rest at xh: its time and direction (t NAN: never).
  double release(double th, double xh, int& direction) const {
    double best = NAN;
    for (const auto& [a, d] : {std::pair{(xh + mu) / F, +1}, std::pair{(xh - mu) / F, -1}}) {
      if (std::fabs(a) > 1) continue;
      const double phase = std::acos(a), base = d > 0 ? -phase : phase;  // forwards: cos rising through a
      double t = (base + 2 * M_PI * std::ceil((w * th - base) / (2 * M_PI) - 1e-12)) / w;
      if (t <= th + 1e-13) t += T();
      if (std::isnan(best) || t < best) best = t, direction = d;
    }
    return best;
  }
  // The motion from (t, x, v) in `mode` to t_end: its events, and the state at t_end.
  std::vector<PiecewiseEvent> run(double t, double x, double v, int mode, double t_end, double& x_end, double& v_end) const {
    std::vector<PiecewiseEvent> events;
    while (true) {
      if (mode == 0) {
        int d = 0;
        const double tr = release(t, x, d);
        if (std::isnan(tr) || tr > t_end) {
          x_end = x, v_end = 0;
          return events;
        }
        t = tr, v = 0, mode = d;
        events.push_back({t, x, mode});
        continue;
      }
      const double th = halt(mode, t, x, v, t_end);
      if (std::isnan(th)) {
        slip(mode, t, x, v, t_end, x_end, v_end);
        return events;
      }
      double xh, vh;
      slip(mode, t, x, v, th, xh, vh);
      const double force = F * std::cos(w * th) - xh;
      t = th, x = xh, v = 0;
      mode = std::fabs(force) <= mu ? 0 : -mode;
      events.push_back({t, x, mode});
    }
  }
};

}  // namespace vibro::test_support
