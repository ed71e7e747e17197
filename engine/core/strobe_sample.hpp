#pragma once
// The stroboscopic (Poincare) section: one sample per forcing period, taken at t = k T. It is the
// only thing the model-independent steady-state detector sees of a model.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace vibro {

// Sized for a 12-degree-of-freedom system with a counter per stop of 24 stops and the extremes of
// 15 components; a sample is stored whole in checkpoints (jobs/output/checkpoint_log.cpp: a change
// of these sizes is a new checkpoint format).
inline constexpr int kMaxStrobeDims = 24;
inline constexpr int kMaxCounters = 32;
inline constexpr int kMaxAux = 32;
using StrobeAux = std::array<double, kMaxAux>;

struct StrobeSample {
  double time = 0.0;          // t = k T
  std::int64_t period = 0;    // k
  int mode = 0;               // the model's discrete mode at the sample (flight, contact, ...)
  double drift_position = 0;  // the coordinate whose mean rate is the drift (transport) velocity
  std::array<double, kMaxStrobeDims> state{};          // model units; scales in StrobeLayout
  std::array<std::int64_t, kMaxCounters> counters{};   // cumulative event counts since t = 0
  StrobeAux aux{};  // model quantities reported but not compared (e.g. last impact phase)
};

// A quantity whose window mean must settle for the `means` steady-state test: aux[aux] is its running
// time integral since t = 0, so its mean over a window is the integral's increase over the window's
// duration. Settled when consecutive window means differ by at most tol (absolute, model units) or
// by at most tol times the earlier mean (relative).
struct SettledMean {
  int aux = 0;
  double tol = 0;
  bool relative = false;
};

// How to read and compare samples of one case: names, units and scales (the tolerance unit) of the
// state components, the drift scale, and the names and meanings of the counters and modes. Units and
// meanings run parallel to the names; the result file carries them next to the data.
// A new member belongs in same_layout below too.
struct StrobeLayout {
  std::vector<std::string> state_names;
  std::vector<std::string> state_units;  // as in a sweep file: "m", "m/s", "rad", "-"
  std::vector<double> state_scales;
  double drift_scale = 1.0;  // velocity scale: drift increments are compared in units of drift_scale * period
  double period = 1.0;       // T, s
  std::string drift_unit = "-";        // of StrobeSample::drift_position
  std::string drift_meaning = "none";  // which coordinate drifts ("none": the model has no drift)
  std::vector<std::string> counter_names;
  std::vector<std::string> counter_meanings;
  std::vector<std::string> mode_names;  // mode i is StrobeSample::mode == i
  std::vector<std::string> mode_meanings;
  // Per state component (empty: none): an angle in rad, stored on any branch (e.g. modulo 2 pi), so
  // only its cos and sin are smooth functions of the motion (the quasi-periodic test uses those).
  std::vector<bool> angular;
  // Window means the `means` steady-state test watches (empty: the model does not support that test).
  std::vector<SettledMean> settled_means;
  int dims() const { return static_cast<int>(state_names.size()); }
  bool is_angle(int c) const {
    return static_cast<std::size_t>(c) < angular.size() && angular[static_cast<std::size_t>(c)];
  }
};

// Whether a and b are the same layout, numbers bit for bit (so that one may stand for the other in
// every computation: a batch keeps one copy of the layout its cases share).
// The same bits (NaN equals NaN, 0.0 differs from -0.0): a layout made from them is the same.
inline bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

inline bool same_layout(const StrobeLayout& a, const StrobeLayout& b) {
  if (a.state_scales.size() != b.state_scales.size() || a.settled_means.size() != b.settled_means.size()) return false;
  for (std::size_t i = 0; i < a.state_scales.size(); ++i)
    if (!same_bits(a.state_scales[i], b.state_scales[i])) return false;
  for (std::size_t i = 0; i < a.settled_means.size(); ++i) {
    const SettledMean &m = a.settled_means[i], &n = b.settled_means[i];
    if (m.aux != n.aux || !same_bits(m.tol, n.tol) || m.relative != n.relative) return false;
  }
  return same_bits(a.drift_scale, b.drift_scale) && same_bits(a.period, b.period) && a.state_names == b.state_names &&
         a.state_units == b.state_units && a.drift_unit == b.drift_unit && a.drift_meaning == b.drift_meaning &&
         a.counter_names == b.counter_names && a.counter_meanings == b.counter_meanings &&
         a.mode_names == b.mode_names && a.mode_meanings == b.mode_meanings && a.angular == b.angular;
}

// Receives the samples as the simulation produces them; returning false stops the simulation
// exactly at that sample (the case has reached its steady state or its budget).
class StrobeObserver {
 public:
  virtual ~StrobeObserver() = default;
  virtual bool on_sample(const StrobeSample& sample) = 0;
};

}  // namespace vibro
