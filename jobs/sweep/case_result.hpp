#pragma once
// What one case of a sweep produced. A case that cannot start or fails numerically is recorded
// with its status and reason; it never takes the sweep down.
#include <array>
#include <complex>
#include <limits>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"
#include "jobs/sweep/strobe_points.hpp"

namespace vibro {

enum class CaseStatus : std::int8_t { Ok = 0, Infeasible = 1, Failed = 2, NotRun = 3 };

struct StrobePoint {
  std::array<double, kMaxStrobeDims> state;
  double drift_position;
  int mode;
};

struct CaseResult {
  CaseStatus status = CaseStatus::NotRun;
  std::string reason;
  std::string class_code;
  Periodicity periodicity = Periodicity::NotConverged;
  int period = 0;
  bool stopped_early = false;
  int periods_run = 0;
  int jumps = 0;                  // accelerated transients (adaptive mode)
  int window_periods = 0;
  double wall_seconds = 0;
  std::vector<double> observables;
  std::vector<std::int64_t> counters;         // whole run
  std::vector<std::int64_t> window_counters;  // averaging window only
  std::vector<StrobePoint> strobe;            // the window's stroboscopic points, or its last orbit (StrobePoints)
  std::vector<std::complex<double>> floquet;  // multipliers of the steady orbit (output.floquet)
  std::int8_t shooting = -1;                  // output.shooting: -1 not attempted, 0 failed, 1 converged
  double shooting_residual = 0;               // |P^k(x) - x| at the end of Newton, in the layout's scales
  StrobeSample shot_state{};                  // the orbit's point found by shooting (when converged)
  std::vector<double> lyapunov;               // exponents, 1/s, largest first (output.lyapunov_periods)
  double stretch_exponent = std::numeric_limits<double>::quiet_NaN();  // 1/s, between resets (same periods)
  std::int32_t stretch_resets = -1;           // periods that passed a reset; -1 not computed
  StrobeSample final_state{};                 // where the case ended (carried along a continuation axis)
  bool has_final_state = false;
};

// A default CaseResult. Copy-assigned to a result reused from case to case, it empties it and keeps
// its strings' and vectors' memory: a batched sweep's 10^6 results, each made anew, were three heap
// blocks apiece (observables, counters); made anew and moved, twice the copying (1.7 KB a result).
inline const CaseResult& empty_case_result() {
  static const CaseResult empty;
  return empty;
}

// The stored window as stroboscopic samples (state, drift position and mode; no times or counters).
inline std::vector<StrobeSample> strobe_window(const CaseResult& r) {
  std::vector<StrobeSample> window(r.strobe.size());
  for (std::size_t i = 0; i < r.strobe.size(); ++i) {
    window[i].state = r.strobe[i].state;
    window[i].drift_position = r.strobe[i].drift_position;
    window[i].mode = r.strobe[i].mode;
  }
  return window;
}

}  // namespace vibro
