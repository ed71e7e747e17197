// Peer benchmark: the vibratory-conveyor model (point mass, Newton restitution, Coulomb impulse, coupled motion) solved the way a
// careful SUNDIALS user would do it: CVODE (Adams, fixed-point iteration) integrates the smooth motion
// between events, CVODE's root finding locates the events, and the integrator is re-initialised after
// every event. No closed-form flight or arc solutions are used, so this measures CVODE, not our maths.
//
// Usage: cvode_conveyor CASES.csv PERIODS WINDOW [ATOL]
//   CASES.csv : lines "a_hat,z0" (a header line "a_hat,z0" is skipped)
//   stdout    : a_hat,z0,mean_velocity,impacts,accumulations,wall_s
//   stderr    : one summary line (cases/s, impacts/s) and a line per failed case
//
// State vector (all modes): y = [h, u, x, vx]
//   h  = z - A sin(wt)          gap, in the plate frame: keeps the tiny gaps of a chatter sequence
//                               far above the rounding of an absolute position (and makes atol act
//                               directly on the gap, which is what peers.md's atol remark is about)
//   u  = vz - A w cos(wt)       relative normal velocity
//   x, vx                       absolute tangential position and velocity
// In coupled motion h = u = 0 and their derivatives are 0.

#include "cvode_session.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

using vibro_peers::CvodeSession;

constexpr double kPi = 3.14159265358979323846;

struct Model {
  double f = 50.0;
  double phi_deg = 12.0;
  double g = 9.81;
  double cr = 0.6;
  double mu = 0.15;
  double u_tol = 1e-9;  // accumulation threshold on u''
  double w = 2.0 * kPi * 50.0;
  double A = 0.0;  // normal amplitude
  double B = 0.0;  // tangential amplitude

  void set_amplitude(double a_hat) {
    w = 2.0 * kPi * f;
    const double phi = phi_deg * kPi / 180.0;
    A = a_hat * std::sin(phi) / (w * w);
    B = a_hat * std::cos(phi) / (w * w);
  }
  double plate_vt(double t) const { return B * w * std::cos(w * t); }
  // Normal contact force per mass if the part rides on the plate.
  double normal_force(double t) const { return g - A * w * w * std::sin(w * t); }
};

enum class Mode { Flight, Slip, Stick };

struct Ctx {
  Model m;
  Mode mode = Mode::Flight;
  double s = 1.0;  // slip sign = sign(w_T - vx) during a slip arc
};

enum { H = 0, U = 1, X = 2, VX = 3 };
constexpr int kNumRoots = 3;

void rhs(double t, const Ctx& c, const double* y, double* yd) {
  const Model& m = c.m;
  const double sn = std::sin(m.w * t);
  yd[X] = y[VX];
  switch (c.mode) {
    case Mode::Flight:
      yd[H] = y[U];
      yd[U] = -m.g + m.A * m.w * m.w * sn;  // absolute z'' = -g minus plate acceleration
      yd[VX] = 0.0;
      break;
    case Mode::Slip:
      yd[H] = yd[U] = 0.0;
      yd[VX] = c.s * m.mu * (m.g - m.A * m.w * m.w * sn);
      break;
    case Mode::Stick:
      yd[H] = yd[U] = 0.0;
      yd[VX] = -m.B * m.w * m.w * sn;  // rides with the plate
      break;
  }
}

// Root functions, all with direction -1 (only crossings from + to - are events), padded with a
// constant to keep one root count: CVodeRootInit reallocates whenever the count changes.
//   Flight: gap h.
//   Slip:   s*(w_T - vx) (relative tangential velocity reaches 0), normal force (lift-off).
//   Stick:  friction reserve against each break-away direction, normal force (lift-off).
void roots(double t, const Ctx& c, const double* y, double* gout) {
  const Model& m = c.m;
  switch (c.mode) {
    case Mode::Flight:
      gout[0] = y[H];
      gout[1] = 1.0;
      gout[2] = 1.0;
      break;
    case Mode::Slip:
      gout[0] = c.s * (m.plate_vt(t) - y[VX]);
      gout[1] = m.normal_force(t);
      gout[2] = 1.0;
      break;
    case Mode::Stick: {
      const double fric = m.mu * m.normal_force(t);
      const double areq = m.B * m.w * m.w * std::sin(m.w * t);  // |required accel| = |areq|
      gout[0] = fric - areq;  // sin(wt) rising through sigma+: the part overtakes the plate
      gout[1] = fric + areq;  // sin(wt) falling through -sigma-: the plate outruns the part
      gout[2] = m.normal_force(t);
      break;
    }
  }
}

struct CaseResult : vibro_peers::CaseStatus {
  double mean_velocity = NAN;
  long accumulations = 0;
};

// After a lift-off h = u = 0 exactly, so the gap root starts out inactive by design (CvodeSession does not
// warn about that).
class ConveyorSolver {
 public:
  ConveyorSolver(double rtol, double atol) : cvode_(4, vibro_peers::rhs_fn<Ctx, rhs>, &ctx_, rtol, atol) {}

  CaseResult run(double a_hat, double z0, int periods, int window);

 private:
  // Restart CVODE at an event, in `mode` with slip sign `s` (see CvodeSession::restart).
  void restart(double t, Mode mode, double s) {
    ctx_.mode = mode;
    ctx_.s = s;
    int dir[kNumRoots] = {-1, -1, -1};
    cvode_.restart(t, kNumRoots, vibro_peers::root_fn<Ctx, roots>, dir);
  }

  // Coupled phase begins (accumulation or z0 = 0): decide slip direction or stick.
  void enter_coupled(double t) {
    double* y = cvode_.y();
    y[H] = y[U] = 0.0;
    const double r = ctx_.m.plate_vt(t) - y[VX];
    if (std::fabs(r) <= 1e-13 * ctx_.m.B * ctx_.m.w)
      stick_or_reverse(t);
    else
      restart(t, Mode::Slip, r > 0.0 ? 1.0 : -1.0);
  }

  // Relative tangential velocity is 0: stick if static friction can hold the part, else keep
  // slipping in the direction the plate's acceleration pulls away (full Coulomb friction at r = 0).
  void stick_or_reverse(double t) {
    const Model& m = ctx_.m;
    double* y = cvode_.y();
    // Exact plate velocity: the new slip root then starts at exactly 0 and CVODE treats it as
    // "just left zero" instead of detecting a spurious crossing caused by rounding.
    y[VX] = m.plate_vt(t);
    const double sn = std::sin(m.w * t);
    if (std::fabs(m.B * m.w * m.w * sn) <= m.mu * m.normal_force(t))
      restart(t, Mode::Stick, 0.0);
    else
      restart(t, Mode::Slip, sn > 0.0 ? -1.0 : 1.0);
  }

  Ctx ctx_;  // declared before cvode_, which keeps a pointer to it
  CvodeSession cvode_;
};

CaseResult ConveyorSolver::run(double a_hat, double z0, int periods, int window) {
  CaseResult res;
  const vibro_peers::Stopwatch watch;
  ctx_.m.set_amplitude(a_hat);
  const Model& m = ctx_.m;
  const double T = 1.0 / m.f;
  const double t_end = periods * T;
  const double t_win = (periods - window) * T;
  const long max_events = 10000L * periods;  // guard against an endless event loop

  double* y = cvode_.y();
  double t = 0.0;
  y[X] = 0.0;
  y[VX] = 0.0;
  if (z0 > 0.0) {  // drop from rest: absolute vz = 0, plate moves up at A w
    y[H] = z0;
    y[U] = -m.A * m.w;
    restart(t, Mode::Flight, 0.0);
  } else {  // resting on the plate: coupled start, relative velocity 0 (the default on_plate = coupled)
    enter_coupled(t);
  }

  bool have_x_win = false;
  double x_win = 0.0;
  if (t_win <= 0.0) {
    have_x_win = true;
    x_win = y[X];
  }
  long events = 0;

  while (true) {
    const int flag = cvode_.advance(have_x_win ? t_end : t_win, t);

    if (flag == CV_SUCCESS) {
      if (!have_x_win) {
        have_x_win = true;
        x_win = y[X];
        continue;
      }
      res.mean_velocity = (y[X] - x_win) / (window * T);
      res.ok = true;
      break;
    }
    if (flag != CV_ROOT_RETURN) {
      res.error = CvodeSession::failure(flag);
      break;
    }
    if (++events > max_events) {
      res.error = "event cap reached";
      break;
    }
    int found[kNumRoots] = {0, 0, 0};
    cvode_.root_info(found);

    switch (ctx_.mode) {
      case Mode::Flight: {
        ++res.impacts;
        // A positive approach velocity is interpolation rounding at a tangency: treat as grazing.
        const double u_minus = std::fmin(y[U], 0.0);
        const double u_plus = -m.cr * u_minus;
        const double s_imp = (1.0 + m.cr) * (-u_minus);  // normal impulse per mass
        const double wt = m.plate_vt(t);
        if (y[VX] < wt) y[VX] = std::fmin(y[VX] + m.mu * s_imp, wt);
        else if (y[VX] > wt) y[VX] = std::fmax(y[VX] - m.mu * s_imp, wt);
        if (u_plus < m.u_tol && m.normal_force(t) > 0.0) {
          ++res.accumulations;
          enter_coupled(t);
        } else {
          y[H] = 0.0;
          y[U] = u_plus;
          restart(t, Mode::Flight, 0.0);
        }
        break;
      }
      case Mode::Slip:
        if (found[1]) {  // lift-off wins over a simultaneous slip end
          y[H] = y[U] = 0.0;
          restart(t, Mode::Flight, 0.0);
        } else {
          stick_or_reverse(t);
        }
        break;
      case Mode::Stick:
        if (found[2]) {
          y[H] = y[U] = 0.0;
          restart(t, Mode::Flight, 0.0);
        } else {
          // Break-away sets the slip sign directly; re-testing the stick condition exactly on
          // its boundary would let rounding bounce between stick and slip.
          y[VX] = m.plate_vt(t);
          restart(t, Mode::Slip, found[0] ? -1.0 : 1.0);
        }
        break;
    }
  }
  res.wall_s = watch.seconds();
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, "usage: %s CASES.csv PERIODS WINDOW [ATOL=1e-12]\n", argv[0]);
    return 2;
  }
  const auto cases = vibro_peers::read_rows<2>(argv[1]);  // a_hat, z0
  int periods = 0, window = 0;
  if (!vibro_peers::parse_periods_window(argv[2], argv[3], periods, window)) return 2;
  const double atol = argc == 5 ? std::atof(argv[4]) : 1e-12;
  const double rtol = 1e-10;

  ConveyorSolver solver(rtol, atol);
  std::printf("a_hat,z0,mean_velocity,impacts,accumulations,wall_s\n");
  vibro_peers::RunTotals totals;
  for (const auto& [a_hat, z0] : cases) {
    const CaseResult r = solver.run(a_hat, z0, periods, window);
    std::printf("%.10g,%.10g,%.12g,%ld,%ld,%.6g\n", a_hat, z0, r.mean_velocity, r.impacts, r.accumulations,
                r.wall_s);
    if (totals.add(r)) std::fprintf(stderr, "case a_hat=%g z0=%g failed: %s\n", a_hat, z0, r.error.c_str());
  }
  std::fflush(stdout);
  std::fprintf(stderr,
               "cvode_conveyor: %zu cases (%d failed), %d periods, rtol %g atol %g: %.3f s, "
               "%.3f cases/s, %.4g impacts/s\n",
               totals.cases, totals.failed, periods, rtol, atol, totals.wall_s, totals.cases_per_s(),
               totals.impacts_per_s());
  return totals.failed ? 1 : 0;
}
