#include "engine/core/case_budget.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

namespace vibro {

namespace {

std::int64_t times(std::int64_t per_period, int periods) {
  const std::int64_t most = std::numeric_limits<std::int64_t>::max();
  return per_period > most / std::max(periods, 1) ? most : per_period * std::max(periods, 1);
}

}  // namespace

CaseBudget::CaseBudget(const CaseLimits& limits)
    : limits_(limits),
      started_(std::chrono::steady_clock::now()),
      stretch_step_cap_(limits.steps_per_period),
      stretch_event_cap_(limits.events_per_period) {}

void CaseBudget::close_stretch() {
  if (stretch_periods_ == 1) {
    peak_steps_ = std::max(peak_steps_, stretch_steps_);
    peak_events_ = std::max(peak_events_, stretch_events_);
  }
}

void CaseBudget::begin_periods(int periods) {
  close_stretch();
  periods_begun_ += stretch_periods_;
  stretch_periods_ = std::max(periods, 1);
  stretch_steps_ = stretch_events_ = 0;
  stretch_step_cap_ = times(limits_.steps_per_period, stretch_periods_);
  stretch_event_cap_ = times(limits_.events_per_period, stretch_periods_);
  ticks_ = kTicksPerClockRead - 1;  // read the clock at the next charge: a period may be one long step
}

void CaseBudget::slow_check() {
  ticks_ = 0;
  auto fail = [&](BudgetLimit limit, std::int64_t used, std::int64_t cap, const char* what, bool per_period) {
    std::ostringstream out;
    out << "case budget: " << used << " " << what;
    if (per_period) {
      out << " in " << (stretch_periods_ == 1 ? "one period" : std::to_string(stretch_periods_) + " periods")
          << " (period " << periods_begun_ + 1 << "), more than the " << cap << " allowed";
    } else {
      out << " in total, more than the " << cap << " allowed";
    }
    throw BudgetExceeded(limit, out.str());
  };
  if (stretch_steps_ > stretch_step_cap_)
    fail(BudgetLimit::StepsPerPeriod, stretch_steps_, stretch_step_cap_, "integration steps", true);
  if (stretch_events_ > stretch_event_cap_)
    fail(BudgetLimit::EventsPerPeriod, stretch_events_, stretch_event_cap_, "events", true);
  if (steps_ > limits_.steps) fail(BudgetLimit::Steps, steps_, limits_.steps, "integration steps", false);
  if (events_ > limits_.events) fail(BudgetLimit::Events, events_, limits_.events, "events", false);
  if (std::isinf(limits_.wall_seconds)) return;  // no clock to read (batched back ends: no per-case wall time)
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (elapsed > limits_.wall_seconds) {
    std::ostringstream out;
    out << "case budget: " << elapsed << " s of wall-clock time (period " << periods_begun_ + 1
        << "), more than the " << limits_.wall_seconds << " s allowed";
    throw BudgetExceeded(BudgetLimit::WallSeconds, out.str());
  }
}

}  // namespace vibro
