#pragma once
// An event-driven solution of Housner's rocking block written independently of vibro's integrator,
// event locator and resting logic, for the tests of examples/models/rocking_block.vibro (Housner, "The
// behavior of inverted pendulum structures during earthquakes", Bulletin of the Seismological Society
// of America, 1963):
//   theta'' = -s p^2 sin(alpha - s theta) - p^2 a cos(w t) cos(alpha - s theta),  s = sign of theta,
// an impact at theta = 0 scaling omega by r and moving the pivot to the other corner, toppling at
// |theta| = alpha.
// Flights: Boost.Odeint's Bulirsch-Stoer integrator with dense output (tolerance 1e-14, at most an
// eighth of the expected flight per step), impacts located on the dense output by TOMS 748 to 1e-15.
// Chatter: once an impact leaves less than `tail_speed`, the remaining flights are summed from their
// local closed form, the restoring acceleration on side s, A_s = p^2 (sin alpha + s a cos(w t) cos
// alpha), taken linear in time over each flight (errors of order T^4 and omega^2 relative), to the
// accumulation point where the block comes to rest. Release from rest: in closed form, the first time
// after the rest at which A_s falls through 0 (a cos(w t) = -s tan(alpha)), onto side s.
#include <array>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

namespace rocking_reference {

struct Block {
  double p = 2, alpha = 0.2, r = 0.94, a = 0, w = 3;
};

enum class Kind { Impact, Rest, Release, Topple };
struct Event {
  double t;
  Kind kind;
  double omega_before;  // impacts: the angular velocity arriving at theta = 0
  int side_after;       // +1 right corner (theta > 0), -1 left, 0 at rest
};

struct Solution {
  std::vector<Event> events;
  std::vector<std::array<double, 2>> samples;  // (theta, omega) at t = k T, k = 0..periods
  long impacts = 0;                            // impacts counted down to a speed of `count_to`
};

using State = std::array<double, 2>;

class Solver {
 public:
  Solver(Block b, double tail_speed = 1e-7, double count_to = 1e-12) : b_(b), tail_(tail_speed), count_to_(count_to) {}

  double restoring(int s, double t) const {
    return b_.p * b_.p * (std::sin(b_.alpha) + s * b_.a * std::cos(b_.w * t) * std::cos(b_.alpha));
  }
  double restoring_rate(int s, double t) const {
    return -b_.p * b_.p * s * b_.a * b_.w * std::sin(b_.w * t) * std::cos(b_.alpha);
  }

  Solution run(double theta0, double omega0, int periods) {
    const double T = 2 * M_PI / b_.w, t_end = periods * T;
    Solution out;
    std::int64_t next_sample = 0;
    auto sample_until = [&](double t_stop, auto&& state_at) {
      while (next_sample <= periods && static_cast<double>(next_sample) * T <= t_stop) {
        out.samples.push_back(state_at(static_cast<double>(next_sample) * T));
        ++next_sample;
      }
    };
    double t = 0;
    State x{theta0, omega0};
    int side = theta0 < 0 ? -1 : 1;
    if (theta0 == 0 && omega0 == 0) {  // starting on the ground: at rest unless a side pulls already
      if (restoring(+1, 0) > 0 && restoring(-1, 0) > 0) {
        const auto [t_release, s] = release_after(0);
        sample_until(std::min(t_release, t_end), [&](double) { return State{0.0, 0.0}; });
        if (t_release >= t_end) return out;
        out.events.push_back({t_release, Kind::Release, 0.0, s});
        t = t_release;
        side = s;
      } else {
        side = restoring(+1, 0) > 0 ? -1 : 1;
      }
    }
    while (t < t_end) {
      const Flight f = fly(side, t, x, t_end, sample_until);
      t = f.t;
      if (f.end == End::Reached) break;
      if (f.end == End::Toppled) {
        out.events.push_back({t, Kind::Topple, f.x[1], 0});
        sample_until(t_end, [&](double) { return f.x; });
        return out;
      }
      // An impact at theta = 0: the pivot moves to the other corner.
      out.events.push_back({t, Kind::Impact, f.x[1], -side});
      ++out.impacts;
      side = -side;
      x = {0.0, b_.r * f.x[1]};
      if (std::fabs(x[1]) >= tail_) continue;
      // Chatter: the flights that are left, in closed form, up to the accumulation point.
      double omega = std::fabs(x[1]);
      bool released_in_tail = false;
      while (omega > 1e-300) {
        // theta = omega tau - A0 tau^2 / 2 - A1 tau^3 / 6 returns to 0 at tau = T (Newton from 2 omega / A0),
        // arriving at A0 T + A1 T^2 / 2 - omega.
        const double a0 = restoring(side, t), a1 = restoring_rate(side, t);
        double flight = 2 * omega / a0;
        for (int k = 0; k < 4; ++k)
          flight -= (a0 * flight / 2 + a1 * flight * flight / 6 - omega) / (a0 / 2 + a1 * flight / 3);
        if (!(flight > 0) || !(a0 > 0)) {  // this side pulls the block off: no rest (not met by the tests' cases)
          released_in_tail = true;
          break;
        }
        t += flight;
        if (omega >= count_to_) ++out.impacts;
        omega = b_.r * (a0 * flight + a1 * flight * flight / 2 - omega);
        side = -side;
      }
      if (released_in_tail) throw std::runtime_error("the reference's chatter tail met a pulling side");
      sample_until(std::min(t, t_end), [&](double) { return State{0.0, 0.0}; });
      if (t >= t_end) break;
      out.events.push_back({t, Kind::Rest, 0.0, 0});
      const auto [t_release, s] = release_after(t);
      sample_until(std::min(t_release, t_end), [&](double) { return State{0.0, 0.0}; });
      if (t_release >= t_end) {
        t = t_end;
        break;
      }
      out.events.push_back({t_release, Kind::Release, 0.0, s});
      t = t_release;
      side = s;
      x = {0.0, 0.0};
    }
    sample_until(t_end, [&](double) { return x; });
    return out;
  }

  // The first time after t at which a side's restoring acceleration falls through 0, and that side;
  // t_end-like infinity when |a| <= tan(alpha) (the block never lifts).
  std::pair<double, int> release_after(double t) const {
    const double ratio = std::tan(b_.alpha) / b_.a;
    if (!(b_.a > 0) || ratio >= 1) return {INFINITY, 0};
    const double phase = std::acos(ratio);  // cos(phase) = tan(alpha) / a
    double best = INFINITY;
    int side = 0;
    // A_- falls through 0 where cos rises through +ratio: w t = 2 pi - phase + 2 pi k.
    // A_+ falls through 0 where cos falls through -ratio: w t = pi - phase + 2 pi k.
    for (const auto& [offset, s] : {std::pair<double, int>{2 * M_PI - phase, -1}, {M_PI - phase, +1}}) {
      double k = std::ceil((b_.w * t - offset) / (2 * M_PI));
      double when = (offset + 2 * M_PI * k) / b_.w;
      if (when <= t) when = (offset + 2 * M_PI * (k + 1)) / b_.w;
      if (when < best) {
        best = when;
        side = s;
      }
    }
    return {best, side};
  }

 private:
  enum class End { Reached, Impact, Toppled };
  struct Flight {
    End end;
    double t;
    State x;
  };

  // Integrates on side s from (t, x) to the first of: theta through 0, |theta| through alpha, t_end.
  template <class Sample>
  Flight fly(int s, double t, State x, double t_end, Sample& sample_until) const {
    namespace odeint = boost::numeric::odeint;
    const auto field = [this, s](const State& y, State& dy, double time) {
      dy[0] = y[1];
      dy[1] = -s * b_.p * b_.p * std::sin(b_.alpha - s * y[0]) - b_.p * b_.p * b_.a * std::cos(b_.w * time) * std::cos(b_.alpha - s * y[0]);
    };
    const double expected = std::fabs(x[1]) > 0 ? 2 * std::fabs(x[1]) / std::fabs(restoring(s, t)) : 1.0;
    const double max_dt = std::min(0.02, expected / 8);
    odeint::bulirsch_stoer_dense_out<State> stepper(1e-14, 1e-14, 1, 1, max_dt);
    stepper.initialize(x, t, std::min(max_dt, 1e-3));
    const auto height = [s](const State& y) { return s * y[0]; };  // > 0 in flight on side s
    State probe;
    while (true) {
      const auto [t0, t1] = stepper.do_step(field);
      const double h = t1 - t0;
      // Sixteen looks inside the step for the first point past a guard: theta through 0 (height
      // below 0) or through s alpha (height above alpha), the step's start excluded.
      for (int j = 1; j <= 16; ++j) {
        const double tj = t0 + h * j / 16.0;
        const double clipped = std::min(tj, t_end);
        stepper.calc_state(clipped, probe);
        const bool down = height(probe) < 0, over = height(probe) > b_.alpha;
        if (!down && !over && tj < t_end) continue;
        if (!down && !over) {  // t_end inside the step and no event before it
          sample_until(t_end, [&](double time) {
            State y;
            stepper.calc_state(time, y);
            return y;
          });
          return {End::Reached, t_end, probe};
        }
        const double left = t0 + h * (j - 1) / 16.0;
        const auto g = [&](double time) {
          State y;
          stepper.calc_state(time, y);
          return down ? height(y) : height(y) - b_.alpha;
        };
        boost::math::tools::eps_tolerance<double> tolerance(50);
        std::uintmax_t iterations = 200;
        const auto bracket = boost::math::tools::toms748_solve(g, left, clipped, g(left), g(clipped), tolerance, iterations);
        const double t_event = (bracket.first + bracket.second) / 2;
        sample_until(t_event, [&](double time) {
          State y;
          stepper.calc_state(time, y);
          return y;
        });
        State at;
        stepper.calc_state(t_event, at);
        return {down ? End::Impact : End::Toppled, t_event, at};
      }
      sample_until(t1, [&](double time) {
        State y;
        stepper.calc_state(time, y);
        return y;
      });
    }
  }

  Block b_;
  double tail_, count_to_;
};

}  // namespace rocking_reference
