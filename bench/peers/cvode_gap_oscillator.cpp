// Peer benchmark: Model A of Bazhenov et al. 2013 (sections 1 and 3: a 2-DOF oscillator with a gap,
// Hertz contact or Newton restitution) solved the way a careful SUNDIALS user would do it: CVODE (Adams,
// fixed-point iteration) integrates the smooth motion between events, CVODE's root finding locates the
// events, and the integrator is re-initialised after every event. Nothing model-specific beyond the right-hand
// side is used, so this measures CVODE, not our maths.
//
// Usage: cvode_gap_oscillator LAW LAMBDAS.csv PERIODS WINDOW [RTOL=1e-10 ATOL=1e-12]
//   LAW         hertz | restitution (e = 1) | restitution:E (0 <= E <= 1)
//   LAMBDAS.csv one force factor lambda a line (a header line "lambda" is skipped)
//   stdout      lambda,A1,A2_pp,impacts,wall_s
//   stderr      one summary line (cases/s, impacts/s, steps) and a line per failed case
//
// Each case starts at rest (x1 = 0, x2 = D, velocities 0, t = 0) and runs exactly PERIODS forcing periods
// T = 2 pi / omega. A1 = (|max x1| + |min x1|) / 2 and A2_pp = (max x2 - min x2) / 2 over the last WINDOW
// periods, from LOCATED extrema: inside the window v1 = 0 and v2 = 0 are extra root functions, and x1, x2
// are also taken at the window's ends and at every event (a restitution impact can be a kink extremum).
// impacts = contact onsets (z = x1 - x2 rising through 0) over the whole run, transient included.
//
// Modes and root functions (always 3 registered, padded with a constant 1, see restart()):
//   free     gap root z rising (Hertz: contact onset; restitution: impact, velocity map, x2 := x1)
//   contact  Hertz force K z^1.5 active; z falling through 0 ends contact
//   stuck    restitution only, after chatter ran out (same rule as vibro: rebound speed e*approach < v_eps
//            = 1e-6 m/s with the contact force N = m2 a - k2 D > 0): (m1 + m2) x'' = -c1 x' - k1 x + F(t),
//            released when N falls through 0. Never reached for e = 1 on the loading curve.
//   + in the window: v1 and v2, either direction (extrema of x1 and x2).

#include "cvode_session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace {

using vibro_peers::CvodeSession;

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Model {
  // Table 1 of the paper, in SI units.
  double m1 = 1000.0, m2 = 100.0;
  double w1 = 6.283, w2 = 4.727, xi1 = 0.036, xi2 = 0.20;
  double D = 0.05, F0 = 400.0, omega = 6.0;
  double k1 = 0, k2 = 0, c1 = 0, c2 = 0, chi = 0;
  // Hertz, Table 3: two steel spheres R1 = R2 = 2 m, E = 2.1e11 Pa, nu = 0.3, q(1) = 0.318. The same formula
  // as vibro's hertz_constant (K = 1.53696e11 N/m^1.5 to the reference's digits), so both use the identical K.
  double K = 0;
  bool hertz = true;
  double e = 1.0;
  double v_eps = 1e-6;
  double lambda = 1.0;

  Model() {
    k1 = m1 * w1 * w1;
    k2 = m2 * w2 * w2;
    c1 = 2.0 * xi1 * m1 * w1;
    c2 = 2.0 * xi2 * m2 * w2;
    chi = m2 / m1;
    const double delta = 2.0 * (1.0 - 0.3 * 0.3) / (kPi * 2.1e11);
    const double A = 0.5 / 2.0 + 0.5 / 2.0;  // A = B = 1/(2 R1) + 1/(2 R2)
    K = 4.0 / 3.0 * 0.318 / (delta * std::sqrt(2.0 * A));
  }
  double force(double t) const { return lambda * F0 * std::cos(omega * t); }
  double stuck_accel(double t, const double* y) const { return (-c1 * y[1] - k1 * y[0] + force(t)) / (m1 + m2); }
  // Contact force of stuck bodies (the paper's Eq. 6): N = m2 x'' - k2 D.
  double stuck_force(double t, const double* y) const { return m2 * stuck_accel(t, y) - k2 * D; }
};

enum class Mode { Free, Contact, Stuck };

struct Ctx {
  Model m;
  Mode mode = Mode::Free;
  bool in_window = false;
};

enum { X1 = 0, V1 = 1, X2 = 2, V2 = 3 };
constexpr int kNumRoots = 3;

void rhs(double t, const Ctx& c, const double* y, double* yd) {
  const Model& m = c.m;
  yd[X1] = y[V1];
  yd[X2] = y[V2];
  if (c.mode == Mode::Stuck) {
    yd[V1] = yd[V2] = m.stuck_accel(t, y);
    return;
  }
  double fcon = 0.0;
  if (c.mode == Mode::Contact) {
    const double z = std::fmax(y[X1] - y[X2], 0.0);  // trial stages may step just past the offset
    fcon = m.K * z * std::sqrt(z);
  }
  const double spring = m.k2 * (y[X1] - y[X2] + m.D), damper = m.c2 * (y[V1] - y[V2]);
  yd[V1] = (-m.c1 * y[V1] - m.k1 * y[X1] - damper - spring + m.force(t) - fcon) / m.m1;
  yd[V2] = (damper + spring + fcon) / m.m2;
}

void roots(double t, const Ctx& c, const double* y, double* gout) {
  gout[0] = c.mode == Mode::Stuck ? c.m.stuck_force(t, y) : y[X1] - y[X2];
  gout[1] = c.in_window ? y[V1] : 1.0;
  gout[2] = c.in_window ? y[V2] : 1.0;
}

struct CaseResult : vibro_peers::CaseStatus {
  double A1 = NAN, A2_pp = NAN;
};

// Non-stiff between events, hence CvodeSession's Adams + fixed-point set-up (the Hertz contact is fast, 0.7 ms,
// but has to be resolved anyway). After an impact z = 0 exactly, so the gap root starts out inactive by design.
class GapSolver {
 public:
  GapSolver(const Model& model, double rtol, double atol)
      : ctx_{model}, cvode_(4, vibro_peers::rhs_fn<Ctx, rhs>, &ctx_, rtol, atol) {}

  CaseResult run(double lambda, int periods, int window);
  long steps() const { return cvode_.steps(); }

 private:
  // Restart CVODE at an event (and at the window start, where the extremum roots switch on), see
  // CvodeSession::restart.
  void restart(double t, Mode mode) {
    ctx_.mode = mode;
    // Free: z rising (onset/impact). Contact: z falling (offset). Stuck: N falling (release).
    int dir[kNumRoots] = {mode == Mode::Free ? 1 : -1, 0, 0};
    cvode_.restart(t, kNumRoots, vibro_peers::root_fn<Ctx, roots>, dir);
  }

  void track() {
    const double* y = cvode_.y();
    x1_max_ = std::max(x1_max_, y[X1]);
    x1_min_ = std::min(x1_min_, y[X1]);
    x2_max_ = std::max(x2_max_, y[X2]);
    x2_min_ = std::min(x2_min_, y[X2]);
  }

  Ctx ctx_;  // declared before cvode_, which keeps a pointer to it
  CvodeSession cvode_;
  double x1_max_ = -kInf, x1_min_ = kInf, x2_max_ = -kInf, x2_min_ = kInf;
};

CaseResult GapSolver::run(double lambda, int periods, int window) {
  CaseResult res;
  const vibro_peers::Stopwatch watch;
  ctx_.m.lambda = lambda;
  const Model& m = ctx_.m;
  const double T = 2.0 * kPi / m.omega;
  const double t_end = periods * T;
  const double t_win = (periods - window) * T;
  const long max_events = 10000L * periods;  // guard against an endless (Zeno) event loop

  double* y = cvode_.y();
  double t = 0.0;
  y[X1] = 0.0;
  y[V1] = 0.0;
  y[X2] = m.D;
  y[V2] = 0.0;
  x1_max_ = x2_max_ = -kInf;
  x1_min_ = x2_min_ = kInf;
  ctx_.in_window = t_win <= 0.0;
  restart(t, Mode::Free);
  if (ctx_.in_window) track();
  long events = 0;

  while (true) {
    const int flag = cvode_.advance(ctx_.in_window ? t_end : t_win, t);

    if (flag == CV_SUCCESS) {
      if (!ctx_.in_window) {  // window start: switch the extremum roots on
        ctx_.in_window = true;
        track();
        restart(t, ctx_.mode);
        continue;
      }
      track();
      res.A1 = 0.5 * (std::fabs(x1_max_) + std::fabs(x1_min_));
      res.A2_pp = 0.5 * (x2_max_ - x2_min_);
      res.ok = true;
      break;
    }
    if (flag != CV_ROOT_RETURN) {
      res.error = CvodeSession::failure(flag);
      break;
    }
    int found[kNumRoots] = {0, 0, 0};
    cvode_.root_info(found);
    if (ctx_.in_window) track();  // an extremum (found[1], found[2]) or an event point
    if (!found[0]) continue;       // extremum only: no restart needed
    if (++events > max_events) {
      res.error = "event cap reached";
      break;
    }

    switch (ctx_.mode) {
      case Mode::Free: {
        ++res.impacts;
        if (m.hertz) {
          restart(t, Mode::Contact);
          break;
        }
        // Newton restitution (the paper's Eq. 6); positions continuous, bodies put exactly at contact.
        y[X2] = y[X1];
        const double v1 = y[V1], v2 = y[V2];
        const double approach = std::fmax(v1 - v2, 0.0);
        y[V1] = ((1.0 - m.e * m.chi) * v1 + m.chi * (1.0 + m.e) * v2) / (1.0 + m.chi);
        y[V2] = ((1.0 + m.e) * v1 + (m.chi - m.e) * v2) / (1.0 + m.chi);
        if (m.e * approach < m.v_eps && m.stuck_force(t, y) > 0.0) {
          const double v = (m.m1 * y[V1] + m.m2 * y[V2]) / (m.m1 + m.m2);  // momentum kept
          y[V1] = y[V2] = v;
          restart(t, Mode::Stuck);
        } else {
          restart(t, Mode::Free);
        }
        break;
      }
      case Mode::Contact:
      case Mode::Stuck:
        restart(t, Mode::Free);
        break;
    }
  }
  res.wall_s = watch.seconds();
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 && argc != 7) {
    std::fprintf(stderr,
                 "usage: %s LAW LAMBDAS.csv PERIODS WINDOW [RTOL=1e-10 ATOL=1e-12]\n"
                 "  LAW: hertz | restitution (e = 1) | restitution:E\n",
                 argv[0]);
    return 2;
  }
  Model model;
  const std::string law = argv[1];
  if (law == "hertz") {
    model.hertz = true;
  } else if (law.rfind("restitution", 0) == 0) {
    model.hertz = false;
    if (law.size() > 11) {
      if (law[11] != ':') {
        std::fprintf(stderr, "unknown law %s\n", law.c_str());
        return 2;
      }
      model.e = std::atof(law.c_str() + 12);
    }
    if (!(model.e >= 0.0 && model.e <= 1.0)) {
      std::fprintf(stderr, "need 0 <= e <= 1\n");
      return 2;
    }
  } else {
    std::fprintf(stderr, "unknown law %s (hertz, restitution, restitution:E)\n", law.c_str());
    return 2;
  }
  const auto lambdas = vibro_peers::read_rows<1>(argv[2]);
  int periods = 0, window = 0;
  if (!vibro_peers::parse_periods_window(argv[3], argv[4], periods, window)) return 2;
  const double rtol = argc == 7 ? std::atof(argv[5]) : 1e-10;
  const double atol = argc == 7 ? std::atof(argv[6]) : 1e-12;
  if (!(rtol > 0.0) || !(atol > 0.0)) {
    std::fprintf(stderr, "need RTOL > 0 and ATOL > 0\n");
    return 2;
  }

  GapSolver solver(model, rtol, atol);
  std::printf("lambda,A1,A2_pp,impacts,wall_s\n");
  vibro_peers::RunTotals totals;
  for (const auto& [lambda] : lambdas) {
    const CaseResult r = solver.run(lambda, periods, window);
    std::printf("%.17g,%.12g,%.12g,%ld,%.6g\n", lambda, r.A1, r.A2_pp, r.impacts, r.wall_s);
    if (totals.add(r)) std::fprintf(stderr, "case lambda=%g failed: %s\n", lambda, r.error.c_str());
  }
  std::fflush(stdout);
  std::fprintf(stderr,
               "cvode_gap_oscillator: %s, %zu cases (%d failed), %d periods, window %d, rtol %g atol %g, "
               "K %.6e: %.3f s, %.3f cases/s, %.4g impacts/s, %ld steps\n",
               law.c_str(), totals.cases, totals.failed, periods, window, rtol, atol, model.K, totals.wall_s,
               totals.cases_per_s(), totals.impacts_per_s(), solver.steps());
  return totals.failed ? 1 : 0;
}
