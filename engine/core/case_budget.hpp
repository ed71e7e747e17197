#pragma once
// A bound on the work of one case: wall-clock seconds, integration steps and events (impacts,
// contact switches), per forcing period and in total. Parameters that are in range can still make a
// case that never ends (a flight of 1e100 periods, a stiffness that needs 1e-20 s steps, millions
// of impacts in one period); the budget ends such a case with a reason instead of stalling the sweep.
//
// The case's runner installs a budget for its thread (ActiveBudget); the engine's loops charge it
// through charge_step / charge_events, which cost nothing when no budget is installed (unit tests,
// continuation tools). Models whose loops are their own charge it the same way. The runner marks
// each period (begin_budget_periods), so "per period" counts from the last mark.
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace vibro {

// The defaults lie far above what the examples reach: at most 4000 steps and 91 events in a period
// (dimer, conveyor), about 2e6 steps and 1e4 events in a whole case, under a minute of wall time.
struct CaseLimits {
  double wall_seconds = 600;
  std::int64_t steps_per_period = 1'000'000;
  std::int64_t events_per_period = 100'000;
  std::int64_t steps = 100'000'000;  // whole case
  std::int64_t events = 10'000'000;
};

// Which bound a case ran into (the runner names the setting to raise).
enum class BudgetLimit { WallSeconds, StepsPerPeriod, EventsPerPeriod, Steps, Events };

class BudgetExceeded : public std::runtime_error {
 public:
  BudgetExceeded(BudgetLimit limit, const std::string& what) : std::runtime_error(what), limit_(limit) {}
  BudgetLimit limit() const { return limit_; }

 private:
  BudgetLimit limit_;
};

class CaseBudget {
 public:
  explicit CaseBudget(const CaseLimits& limits);
  // Throw BudgetExceeded once a bound is passed.
  void charge_step() {
    ++steps_;
    ++stretch_steps_;
    if (stretch_steps_ > stretch_step_cap_ || steps_ > limits_.steps || ++ticks_ == kTicksPerClockRead) slow_check();
  }
  void charge_events(int count) {
    events_ += count;
    stretch_events_ += count;
    if (stretch_events_ > stretch_event_cap_ || events_ > limits_.events || ++ticks_ == kTicksPerClockRead) slow_check();
  }
  // The next `periods` forcing periods start now: their allowance is `periods` times the per-period
  // bounds (an analysis that maps several periods at once marks them together).
  void begin_periods(int periods);
  std::int64_t steps() const { return steps_; }
  std::int64_t events() const { return events_; }
  // The most steps and events any single-period stretch has used so far (for sizing the defaults).
  std::int64_t peak_steps_per_period() const { return peak_steps_; }
  std::int64_t peak_events_per_period() const { return peak_events_; }

 private:
  static constexpr int kTicksPerClockRead = 1024;  // a clock read costs about one cheap step
  void slow_check();
  void close_stretch();
  CaseLimits limits_;
  std::chrono::steady_clock::time_point started_;
  std::int64_t steps_ = 0, events_ = 0;
  std::int64_t stretch_steps_ = 0, stretch_events_ = 0;
  std::int64_t stretch_step_cap_, stretch_event_cap_;
  int stretch_periods_ = 1;
  std::int64_t periods_begun_ = 0;
  std::int64_t peak_steps_ = 0, peak_events_ = 0;
  int ticks_ = 0;
};

namespace budget_detail {
inline thread_local CaseBudget* active = nullptr;
// In a model plugin, which carries its own copy of this header's inline variables: the loading
// vibro's accessor to its thread's `active`, set when the plugin is loaded (engine/core/plugin_abi.hpp),
// so that a plugin's loops charge the budget the host's runner installed. Null in vibro itself.
inline CaseBudget* (*host_active)() = nullptr;
inline CaseBudget* current() { return host_active ? host_active() : active; }
}  // namespace budget_detail

// Installs `budget` for the calling thread for the scope's lifetime.
class ActiveBudget {
 public:
  explicit ActiveBudget(CaseBudget& budget) : previous_(budget_detail::active) { budget_detail::active = &budget; }
  ~ActiveBudget() { budget_detail::active = previous_; }
  ActiveBudget(const ActiveBudget&) = delete;
  ActiveBudget& operator=(const ActiveBudget&) = delete;

 private:
  CaseBudget* previous_;
};

inline void charge_step() {
  if (CaseBudget* b = budget_detail::current()) b->charge_step();
}
inline void charge_events(int count = 1) {
  if (CaseBudget* b = budget_detail::current()) b->charge_events(count);
}
inline void begin_budget_periods(int periods) {
  if (CaseBudget* b = budget_detail::current()) b->begin_periods(periods);
}

}  // namespace vibro
