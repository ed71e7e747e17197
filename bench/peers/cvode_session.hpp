// Shared plumbing of the CVODE peer benchmarks (cvode_conveyor.cpp, cvode_gap_oscillator.cpp): one RAII
// session owning the SUNDIALS objects, set up the way a careful user integrates a non-stiff, event-driven
// problem, plus the CSV reading and run totals both programs print.
#pragma once

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace vibro_peers {

// CVODE callbacks made from typed functions on plain arrays, f(t, data, y, y') and g(t, data, y, gout), where
// data is the session's user data: the wrappers do the casts and report success.
template <class Data, void (*F)(double, const Data&, const double*, double*)>
int rhs_fn(double t, N_Vector y, N_Vector ydot, void* data) {
  F(t, *static_cast<const Data*>(data), N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  return 0;
}
template <class Data, void (*G)(double, const Data&, const double*, double*)>
int root_fn(double t, N_Vector y, double* gout, void* data) {
  G(t, *static_cast<const Data*>(data), N_VGetArrayPointer(y), gout);
  return 0;
}

// SUNContext, the serial state vector, CVODE's memory and its nonlinear solver, created together and freed
// together. The state starts at zero, t = 0; the user's rhs and root functions get `user_data`.
class CvodeSession {
 public:
  CvodeSession(sunindextype n, CVRhsFn rhs, void* user_data, double rtol, double atol) {
    if (SUNContext_Create(nullptr, &sunctx_) != 0) std::abort();
    y_ = N_VNew_Serial(n, sunctx_);
    N_VConst(0.0, y_);
    mem_ = CVodeCreate(CV_ADAMS, sunctx_);
    CVodeInit(mem_, rhs, 0.0, y_);
    CVodeSStolerances(mem_, rtol, atol);
    CVodeSetUserData(mem_, user_data);
    // Non-stiff between events: Adams with functional (fixed-point) iteration, no Jacobian.
    nls_ = SUNNonlinSol_FixedPoint(y_, 0, sunctx_);
    CVodeSetNonlinearSolver(mem_, nls_);
    // Long smooth arcs (slip in permanent contact, free flight) can take many steps between two events.
    CVodeSetMaxNumSteps(mem_, 1000000);
    CVodeSetMaxHnilWarns(mem_, -1);
    // Right after an event the gap root is exactly 0 by construction, so it starts out inactive by design.
    CVodeSetNoInactiveRootWarn(mem_);
    // Failures come back as return flags; CVODE's own messages would only clutter stderr.
    CVodeSetErrHandlerFn(mem_, quiet_errors, nullptr);
  }
  ~CvodeSession() {
    CVodeFree(&mem_);
    SUNNonlinSolFree(nls_);
    N_VDestroy(y_);
    SUNContext_Free(&sunctx_);
  }
  CvodeSession(const CvodeSession&) = delete;
  CvodeSession& operator=(const CvodeSession&) = delete;

  double* y() const { return N_VGetArrayPointer(y_); }

  // Restart CVODE at t from the current y() (at an event, or where the root set changes). The root functions
  // are re-registered too: CVODE keeps a root function that was exactly zero at a restart switched off until
  // it moves away from zero, and that flag survives CVodeReInit; re-registering clears it so no stale state
  // crosses an event. Keep `nroots` the same on every call: CVodeRootInit reallocates whenever it changes.
  void restart(double t, int nroots, CVRootFn g, int* direction) {
    long nst = 0;
    CVodeGetNumSteps(mem_, &nst);
    steps_ += nst;
    CVodeReInit(mem_, t, y_);
    CVodeRootInit(mem_, 0, nullptr);
    CVodeRootInit(mem_, nroots, g);
    CVodeSetRootDirection(mem_, direction);
  }

  // Integrate towards tout (CV_NORMAL), t updated; returns CVode's flag. An event landing within rounding of
  // tout would make CVode fail with CV_TOO_CLOSE, so a tout that close counts as reached.
  int advance(double tout, double& t) {
    if (tout - t > 1e-13 * tout) return CVode(mem_, tout, y_, &t, CV_NORMAL);
    t = tout;
    return CV_SUCCESS;
  }

  // After CV_ROOT_RETURN: which root functions crossed zero.
  void root_info(int* found) const { CVodeGetRootInfo(mem_, found); }

  static std::string failure(int flag) { return std::string("CVode failed: ") + CVodeGetReturnFlagName(flag); }

  // CVODE steps taken over the session's lifetime, across restarts.
  long steps() const {
    long nst = 0;
    CVodeGetNumSteps(mem_, &nst);
    return steps_ + nst;
  }

 private:
  static void quiet_errors(int, const char*, const char*, char*, void*) {}

  SUNContext sunctx_ = nullptr;
  N_Vector y_ = nullptr;
  void* mem_ = nullptr;
  SUNNonlinearSolver nls_ = nullptr;
  long steps_ = 0;  // steps before the last restart (CVodeReInit zeroes CVODE's own count)
};

// What every case reports besides its model-specific numbers.
struct CaseStatus {
  long impacts = 0;
  double wall_s = 0.0;
  bool ok = false;
  std::string error;
};

class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// Sums over a run's cases, for the summary line on stderr.
struct RunTotals {
  std::size_t cases = 0;
  int failed = 0;
  double wall_s = 0.0;
  long impacts = 0;

  // Returns true if the case failed.
  bool add(const CaseStatus& r) {
    ++cases;
    if (!r.ok) ++failed;
    wall_s += r.wall_s;
    impacts += r.impacts;
    return !r.ok;
  }
  double cases_per_s() const { return wall_s > 0 ? static_cast<double>(cases) / wall_s : 0.0; }
  double impacts_per_s() const { return wall_s > 0 ? static_cast<double>(impacts) / wall_s : 0.0; }
};

// PERIODS and WINDOW from the command line; prints the complaint and returns false unless 0 < WINDOW <= PERIODS.
inline bool parse_periods_window(const char* periods_arg, const char* window_arg, int& periods, int& window) {
  periods = std::atoi(periods_arg);
  window = std::atoi(window_arg);
  if (periods <= 0 || window <= 0 || window > periods) {
    std::fprintf(stderr, "need 0 < WINDOW <= PERIODS\n");
    return false;
  }
  return true;
}

// Rows of N numbers from a CSV file. Empty lines and lines starting with '#' are skipped, and so is a line
// whose first field is not a number (a header line). The first N - 1 fields end at a comma, the last runs to
// the end of the line; a line with fewer fields is skipped. Exits with status 2 if the file cannot be opened.
template <std::size_t N>
std::vector<std::array<double, N>> read_rows(const char* path) {
  static_assert(N > 0, "at least one column");
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(2);
  }
  std::vector<std::array<double, N>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::array<std::string, N> field;
    bool complete = true;
    for (std::size_t i = 0; i < N && complete; ++i)
      complete = static_cast<bool>(i + 1 < N ? std::getline(ss, field[i], ',') : std::getline(ss, field[i]));
    if (!complete) continue;
    std::array<double, N> row{};
    char* end = nullptr;
    row[0] = std::strtod(field[0].c_str(), &end);
    if (end == field[0].c_str()) continue;  // header line
    for (std::size_t i = 1; i < N; ++i) row[i] = std::strtod(field[i].c_str(), nullptr);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace vibro_peers
