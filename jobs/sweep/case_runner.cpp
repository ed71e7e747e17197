#include "jobs/sweep/case_runner.hpp"

#include <chrono>
#include <cmath>
#include <exception>
#include <string>

#include "analysis/periodic_shooting.hpp"
#include "analysis/map_lyapunov.hpp"

namespace vibro {

namespace {

// Every stroboscopic sample starts a new period of the case's budget.
class PeriodMarks : public StrobeObserver {
 public:
  explicit PeriodMarks(StrobeObserver& inner) : inner_(inner) {}
  bool on_sample(const StrobeSample& sample) override {
    begin_budget_periods(1);
    return inner_.on_sample(sample);
  }

 private:
  StrobeObserver& inner_;
};

// The setting a user raises when a case ran out of this part of its budget.
const char* budget_key(BudgetLimit limit) {
  switch (limit) {
    case BudgetLimit::WallSeconds: return "run.case_wall_limit";
    case BudgetLimit::StepsPerPeriod: return "run.max_steps_per_period";
    case BudgetLimit::EventsPerPeriod: return "run.max_events_per_period";
    case BudgetLimit::Steps: return "run.max_steps";
    case BudgetLimit::Events: return "run.max_events";
  }
  return "";
}

}  // namespace

SteadyState record_steady_state(const Model& model, const ParameterSet& values, const StrobeLayout& layout,
                                SteadyStateDetector& detector, StrobePoints strobe_points, CaseResult& result) {
  const int periods_run = detector.samples_seen(), jumps = detector.jumps();
  SteadyState steady = detector.finish();
  record_classified_window(model, values, layout, steady, periods_run, jumps, strobe_points, result);
  return steady;
}

namespace {

// The counters at the window's end and over it, and where the case ended: from the window's first
// and last samples (null: an empty window, counters 0 and no final state).
void record_window_ends(const StrobeLayout& layout, const StrobeSample* first, const StrobeSample* last,
                        CaseResult& result) {
  const auto counters = layout.counter_names.size();
  result.counters.clear();
  result.window_counters.clear();
  result.counters.reserve(counters);
  result.window_counters.reserve(counters);
  for (std::size_t c = 0; c < counters; ++c) {
    result.counters.push_back(last ? last->counters[c] : 0);
    result.window_counters.push_back(last ? last->counters[c] - first->counters[c] : 0);
  }
  if (last) {
    result.final_state = *last;
    result.has_final_state = true;
  }
}

}  // namespace

void record_classified_window(const Model& model, const ParameterSet& values, const StrobeLayout& layout,
                              const SteadyState& steady, int periods_run, int jumps, StrobePoints strobe_points,
                              CaseResult& result) {
  result.periods_run = periods_run;
  result.jumps = jumps;
  const CaseSummary summary = model.summarize(steady, layout, values);
  result.status = CaseStatus::Ok;
  result.class_code = summary.class_code;
  result.observables = summary.observables;
  result.periodicity = steady.periodicity;
  result.period = steady.period;
  result.stopped_early = steady.stopped_early;
  result.window_periods = steady.window_periods();
  if (steady.window.empty()) {
    record_window_ends(layout, nullptr, nullptr, result);
  } else {
    record_window_ends(layout, &steady.window.front(), &steady.window.back(), result);
  }
  if (strobe_points != StrobePoints::None) {
    const std::size_t size = steady.window.size();
    const bool one_orbit = strobe_points == StrobePoints::Orbit && has_period(steady.periodicity) &&
                           static_cast<std::size_t>(steady.period) <= size;
    const std::size_t first = one_orbit ? size - static_cast<std::size_t>(steady.period) : 0;
    result.strobe.reserve(size - first);
    for (std::size_t k = first; k < size; ++k) {
      const StrobeSample& s = steady.window[k];
      result.strobe.push_back({s.state, s.drift_position, s.mode});
    }
  }
}

void record_held_summary(const HeldSummary& summary, const StrobeLayout& layout, const StrobeSample& first,
                         const StrobeSample& last, int window_periods, int periods_run, CaseResult& result) {
  SummaryCase made;
  make_summary_case(-1, summary, layout, first, last, window_periods, periods_run, result.wall_seconds, made);
  record_summary_case(made, result);
  result.final_state = last;
  result.has_final_state = true;
}

void record_case_exception(std::exception_ptr error, CaseResult& result) {
  try {
    std::rethrow_exception(error);
  } catch (const BudgetExceeded& e) {
    result.status = CaseStatus::Failed;
    result.reason = std::string(e.what()) + " (" + budget_key(e.limit()) + ")";
  } catch (const InfeasibleCase& e) {
    result.status = CaseStatus::Infeasible;
    result.reason = e.what();
  } catch (const std::exception& e) {
    result.status = CaseStatus::Failed;
    result.reason = e.what();
  }
}

CaseResult run_case(const Model& model, const ParameterSet& values, const SteadyStateSettings& settings,
                    StrobePoints strobe_points, const StrobeSample* warm_start, CaseExtras extras) {
  const auto started = std::chrono::steady_clock::now();
  CaseResult result;
  CaseBudget budget(extras.limits);
  const ActiveBudget active(budget);
  try {
    auto simulation = model.start(values);
    if (warm_start) {
      // Same state, fresh clock and counters: this case's counts are its own.
      StrobeSample start = *warm_start;
      start.period = 0;
      start.time = 0;
      start.counters.fill(0);
      if (!simulation->restart_from(start)) throw CaseFailure("cannot start from the previous case's final state");
    }
    const StrobeLayout& layout = simulation->layout();
    SteadyStateDetector detector(layout, settings);
    PeriodMarks marked(detector);
    simulation->run(marked);
    while (const StrobeSample* target = detector.jump_target()) {
      detector.jump_done(simulation->restart_from(*target));
      simulation->run(marked);
    }
    const SteadyState steady = record_steady_state(model, values, layout, detector, strobe_points, result);
    const bool periodic = has_period(steady.periodicity);
    if (extras.shooting && periodic && !steady.window.empty()) {
      // The multipliers of the orbit itself, not of the last sample near it: slowly converging and
      // unstable orbits, which no simulation settles on, get theirs too.
      const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, steady.window.back(), steady.period);
      result.shooting = orbit.converged ? 1 : 0;
      result.shooting_residual = orbit.residual;
      if (orbit.converged) {
        result.shot_state = orbit.state;
        result.floquet = orbit.multipliers;
      }
    }
    if (extras.floquet && periodic && result.shooting != 1) {
      begin_budget_periods(steady.period);
      result.floquet = simulation->floquet_multipliers(steady.period);
    }
    if (extras.lyapunov_periods > 0 && !steady.window.empty()) {
      const MapLyapunov lyapunov =
          lyapunov_along_map(*simulation, steady.window.back(), extras.lyapunov_periods, layout.period);
      result.lyapunov = lyapunov.spectrum;
      const StretchExponent& stretch = lyapunov.between_resets;
      result.stretch_exponent = stretch.exponent;
      result.stretch_resets = std::isnan(stretch.exponent) && stretch.resets == 0 ? -1 : stretch.resets;
    }
  } catch (...) {
    record_case_exception(std::current_exception(), result);
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace vibro
