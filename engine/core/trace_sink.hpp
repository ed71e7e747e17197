#pragma once
// A case's continuous time history, as a Simulation reports it once a sink is attached (vibro trace):
// its state on a fixed time grid, read from the integrator's dense output or the model's closed form
// at the grid times (no extra steps, so the orbit is the one a sweep computes), and every discrete
// event with the state just before and just after it. A simulation without a sink checks one pointer.
#include <cstdint>
#include <string>
#include <vector>

namespace vibro {

// The trace's state components: the stroboscopic section's components first, in StrobeLayout order
// (so a trace row at t = k T is comparable with the sample), then the rest (drift coordinate, ...).
struct TraceLayout {
  std::vector<std::string> components;
  std::vector<std::string> units;  // SI, one per component
  int dims() const { return static_cast<int>(components.size()); }
};

class TraceSink {
 public:
  // The grid: t_j = j T / samples_per_period from t = 0, exactly k T at every period's start.
  TraceSink(double period, int samples_per_period) : period_(period), per_period_(samples_per_period) {}
  virtual ~TraceSink() = default;

  // The state (TraceLayout order) at grid time t, in discrete mode `mode`.
  virtual void on_state(double t, int mode, const double* state) = 0;
  // A discrete event at time t: the state just before and just after it (equal where only the mode
  // or the force law switches).
  virtual void on_event(double t, const std::string& kind, const double* before, const double* after) = 0;

  // Reports every grid time not reported yet up to and including t_end, with the state that
  // state_at(t, out) writes. The model calls it before it applies an event or stops at a sample, so a
  // grid time at an event gets the state before it, and each grid time is reported once.
  template <class StateAt>
  void fill_to(double t_end, int mode, StateAt&& state_at) {
    for (double t = grid_time(next_); t <= t_end; t = grid_time(++next_)) {
      buffer_.resize(static_cast<std::size_t>(dims_));
      state_at(t, buffer_.data());
      on_state(t, mode, buffer_.data());
    }
  }
  // Grid times before t are not reported: a simulation that starts later than t = 0 (a restart).
  void skip_to(double t) {
    while (grid_time(next_) < t) ++next_;
  }
  void set_dims(int dims) { dims_ = dims; }
  double grid_time(std::int64_t j) const {
    return period_ * static_cast<double>(j / per_period_) + static_cast<double>(j % per_period_) * (period_ / static_cast<double>(per_period_));
  }

 private:
  double period_;
  std::int64_t per_period_;
  std::int64_t next_ = 0;  // the first grid index not reported yet
  int dims_ = 0;
  std::vector<double> buffer_;
};

// An event's kind read from what it counted: the names of the counters it advanced, each made
// singular ("impacts" -> "impact"), joined by "+" ("impact+sticking"); "" when it counted none.
// Step counters are bookkeeping, not events.
inline std::string counted_event_kind(const std::vector<std::string>& counter_names, const std::int64_t* before,
                                      const std::int64_t* after) {
  std::string kind;
  for (std::size_t i = 0; i < counter_names.size(); ++i) {
    const std::string& name = counter_names[i];
    if (before[i] == after[i] || name == "steps" || name.find("_steps") != std::string::npos) continue;
    const bool plural = !name.empty() && name.back() == 's';
    kind += (kind.empty() ? "" : "+") + (plural ? name.substr(0, name.size() - 1) : name);
  }
  return kind;
}

// A switch of the discrete mode with nothing counted: "flight_to_contact".
inline std::string mode_switch_kind(const std::vector<std::string>& mode_names, int from, int to) {
  auto name = [&](int m) {
    return m >= 0 && static_cast<std::size_t>(m) < mode_names.size() ? mode_names[static_cast<std::size_t>(m)]
                                                                       : "mode" + std::to_string(m);
  };
  return name(from) + "_to_" + name(to);
}

}  // namespace vibro
