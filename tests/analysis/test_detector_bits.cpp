// The adaptive steady-state detector's decisions, bit for bit: a digest of everything it answers (stop
// or go on at each sample, jump targets, final windows and classes) over a few hundred synthetic cases
// (contractions to period-k orbits along one real multiplier, a spiral or two modes, nonlinear and
// chaotic maps, mode changes, NaN states), each simulated as a map that restarts from the detector's
// jump targets. Speed-ups of the detector must not change a single bit of its results; the digest was
// computed by the detector before its scans were made to stop early and its history split (commit
// 3c88262). Only arithmetic (+ - * / and the detector's own calls): no libm call in the cases.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>

#include "analysis/steady_state.hpp"

using namespace vibro;

namespace {

struct Digest {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  template <class T>
  void add(const T& value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ULL;
  }
  void add(const StrobeSample& s) {  // field by field: the struct's padding is no data
    add(s.time);
    add(s.period);
    add(s.mode);
    add(s.drift_position);
    for (double x : s.state) add(x);
    for (auto c : s.counters) add(c);
    for (double x : s.aux) add(x);
  }
};

// Uniform in [0, 1), the same on every platform (std's distributions are not).
struct Uniform {
  std::uint64_t state;
  double operator()() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  }
};

StrobeLayout layout() {
  StrobeLayout l;
  l.state_names = {"u", "v", "w"};
  l.state_units = {"-", "-", "-"};
  l.state_scales = {1.0, 0.5, 2.0};
  l.drift_scale = 0.1;
  l.period = 0.02;
  l.counter_names = {"events"};
  l.counter_meanings = {"-"};
  l.mode_names = {"a", "b"};
  l.mode_meanings = {"-", "-"};
  return l;
}

// One synthetic case: (u, v) follow a 2 x 2 linear map plus a quadratic term (or the logistic map),
// w adds a period-k orbit, the drift grows by an orbit- and state-dependent step.
class Case {
 public:
  explicit Case(int id) : kind_(id % 7), rng_{0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(id + 1)} {
    k_ = 1 + static_cast<int>(rng_() * 5);
    for (int i = 0; i < k_; ++i) orbit_[i] = rng_() - 0.5;
    const double rho = 0.3 + 0.695 * rng_();
    if (kind_ == 1) {  // a spiral: rho times a rotation with rational cos and sin
      const double t = 0.2 + rng_(), c = (1 - t * t) / (1 + t * t), s = 2 * t / (1 + t * t);
      m_ = {rho * c, -rho * s, rho * s, rho * c};
    } else if (kind_ == 2) {  // two real modes
      m_ = {rho, 0.3 * rng_(), 0.0, -0.5 * rho};
    } else {
      m_ = {rho, 0.0, 0.1 * rng_(), 0.2};
    }
    quadratic_ = kind_ == 3 ? 0.5 * rng_() : kind_ == 6 ? 1e-3 * rng_() : 0.0;
    u_ = 0.5 * (rng_() - 0.25);
    v_ = 0.3 * (rng_() - 0.5);
    if (kind_ == 4) u_ = 0.1 + 0.8 * rng_();
    nan_at_ = kind_ == 5 && rng_() < 0.5 ? 5 + static_cast<int>(rng_() * 40) : -1;
  }
  StrobeSample next() {
    ++n_;
    if (kind_ == 4) {  // chaotic
      const double u = 3.9 * u_ * (1 - u_);
      v_ = u_;
      u_ = u;
    } else {
      const double u = m_[0] * u_ + m_[1] * v_ + quadratic_ * u_ * u_;
      v_ = m_[2] * u_ + m_[3] * v_;
      u_ = u;
    }
    const double orbit = orbit_[n_ % k_];
    x_ += 0.003 + 0.01 * orbit + 0.002 * v_;
    events_ += 1 + n_ % k_;
    StrobeSample s;
    s.time = n_ * 0.02;
    s.period = n_;
    s.mode = kind_ == 6 && u_ > 0 ? 1 : 0;
    s.drift_position = x_;
    s.state[0] = u_;
    s.state[1] = v_;
    s.state[2] = orbit + 0.5 * u_;
    if (n_ == nan_at_) s.state[1] = 0.0 / zero_;
    s.counters[0] = events_;
    s.aux[0] = orbit;
    return s;
  }
  void restart(const StrobeSample& s) {
    u_ = s.state[0];
    v_ = s.state[1];
    x_ = s.drift_position;
  }
  int kind() const { return kind_; }

 private:
  int kind_;
  Uniform rng_;
  int k_ = 1;
  std::array<double, 6> orbit_{};
  std::array<double, 4> m_{};
  double quadratic_ = 0, u_ = 0, v_ = 0, x_ = 0;
  std::int64_t events_ = 0;
  int n_ = 0, nan_at_ = -1;
  volatile double zero_ = 0.0;
};

// Runs one case through a detector, as Simulation::run and the batched runner drive it.
void run(int id, const SteadyStateSettings& settings, const StrobeLayout& l, Digest& digest) {
  Case c(id);
  SteadyStateDetector detector(l, settings);
  for (;;) {
    const StrobeSample s = c.next();
    const bool go_on = detector.on_sample(s);
    digest.add(go_on);
    if (go_on) continue;
    const StrobeSample* target = detector.jump_target();
    if (!target) break;
    digest.add(*target);
    const bool accept = id % 5 != 0 || detector.jumps() > 0;  // some refused
    if (accept) c.restart(*target);
    detector.jump_done(accept);
  }
  digest.add(detector.samples_seen());
  digest.add(detector.jumps());
  const SteadyState state = detector.finish();
  digest.add(static_cast<int>(state.periodicity));
  digest.add(state.period);
  digest.add(state.stopped_early);
  digest.add(state.window.size());
  for (const StrobeSample& s : state.window) digest.add(s);
}

}  // namespace

TEST_CASE("the steady-state detector's answers are the same bits as before its speed-ups", "[analysis][detector_bits]") {
  const StrobeLayout l = layout();
  Digest adaptive, fixed;
  int jumped = 0, early = 0;
  for (int id = 0; id < 700; ++id) {
    SteadyStateSettings settings;
    settings.mode = SteadyMode::Adaptive;
    settings.max_periods = id % 3 == 0 ? 160 : 100;
    run(id, settings, l, adaptive);
    // What the digest covers: a good share of the cases jump, and of them stop early.
    Case c(id);
    SteadyStateDetector d(l, settings);
    while (d.on_sample(c.next())) {
    }
    jumped += d.jump_target() ? 1 : 0;
    early += !d.jump_target() && d.samples_seen() < settings.max_periods ? 1 : 0;
    settings.mode = SteadyMode::Fixed;
    if (id % 4 == 0) run(id, settings, l, fixed);
  }
  CHECK(jumped > 100);
  CHECK(early > 100);
  CHECK(adaptive.h == 0x807c3a8f15cd8376ULL);
  CHECK(fixed.h == 0x677b21e129981a31ULL);
}
