// Housner's rocking block written in C++ through the hybrid-model API (Housner, "The behavior of
// inverted pendulum structures during earthquakes", Bulletin of the Seismological Society of America,
// 1963): at theta = 0 one switch guard both resets the state (omega times r) and changes the mode (the
// other corner), and chatter ends in rest on that surface. Declared with its modes and its guards in
// either order, it gives the same trace: events, states and samples bit for bit. Simultaneous crossings
// follow the documented rule (stops first, then time, then the guard's name), not the declaration order.
#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/trace_sink.hpp"
#include "engine/hybrid_model/hybrid_simulation.hpp"

using namespace vibro;

namespace {

struct Recorded {
  std::vector<double> times;
  std::vector<std::string> kinds;
  std::vector<double> states;  // before and after of every event
};

class EventSink final : public TraceSink {
 public:
  EventSink() : TraceSink(1.0, 1) { set_dims(2); }
  void on_state(double, int, const double*) override {}
  void on_event(double t, const std::string& kind, const double* before, const double* after) override {
    out.times.push_back(t);
    out.kinds.push_back(kind);
    out.states.insert(out.states.end(), {before[0], before[1], after[0], after[1]});
  }
  Recorded out;
};

struct Options {
  bool modes_reversed = false, guards_reversed = false;
  bool second_guard = false;  // a second switch on theta = 0 in the right mode, named after to_left, entering toppled
};

const double kAlpha = 0.25, kR = 1 - 1.5 * std::sin(kAlpha) * std::sin(kAlpha);  // Housner's r

std::shared_ptr<HybridDescription<2>> rocking_block(const Options& o, double a, double w, double theta0) {
  const double p = 2, alpha = kAlpha, r = kR;
  auto d = std::make_shared<HybridDescription<2>>();
  d->period = 2 * M_PI / w;
  d->initial << theta0, 0;
  auto right_field = [=](const auto& x, const auto& drive, auto& dx) {
    using std::cos;
    using std::sin;
    dx[0] = x[1];
    dx[1] = -p * p * (sin(alpha - x[0]) + a * drive.cos * cos(alpha - x[0]));
  };
  auto left_field = [=](const auto& x, const auto& drive, auto& dx) {
    using std::cos;
    using std::sin;
    dx[0] = x[1];
    dx[1] = p * p * (sin(alpha + x[0]) - a * drive.cos * cos(alpha + x[0]));
  };
  auto frozen = [](const auto&, const auto&, auto& dx) { dx.setZero(); };
  int right, left, toppled;
  if (o.modes_reversed) {
    toppled = d->mode("toppled", frozen);
    left = d->mode("left", left_field);
    right = d->mode("right", right_field);
  } else {
    right = d->mode("right", right_field);
    left = d->mode("left", left_field);
    toppled = d->mode("toppled", frozen);
  }
  d->initial_mode = right;
  // One guard per corner change: the reset (omega times r) and the mode change in one event; the block
  // may rest on theta = 0 (omega is theta's rate).
  auto corner = [&](Crossing crossing, int target) {
    SwitchGuard<2> g;
    g.a << 1, 0;
    g.crossing = crossing;
    g.target = target;
    g.jump(1, 1) = r;
    g.rest_velocity = 1;
    return g;
  };
  auto topple = [&](double sign, int target) {
    SwitchGuard<2> g;
    g.a << sign, 0;
    g.b = -alpha;
    g.crossing = Crossing::Rising;
    g.target = target;
    return g;
  };
  std::vector<std::pair<int, std::pair<std::string, SwitchGuard<2>>>> guards{
      {right, {"to_left", corner(Crossing::Falling, left)}},
      {right, {"topple_right", topple(1, toppled)}},
      {left, {"to_right", corner(Crossing::Rising, right)}},
      {left, {"topple_left", topple(-1, toppled)}}};
  if (o.second_guard) {
    SwitchGuard<2> same = corner(Crossing::Falling, toppled);
    same.jump.setIdentity();
    same.rest_velocity = -1;
    guards.push_back({right, {"to_toppled", same}});
  }
  if (o.guards_reversed) std::reverse(guards.begin(), guards.end());
  for (const auto& [mode, named] : guards) d->switch_guard(mode, named.first, named.second);
  return d;
}

struct Traced {
  Recorded events;
  std::vector<std::array<double, 3>> samples;  // theta, omega, and the mode's name's length (names differ in index)
  std::vector<std::string> modes;
};

Traced trace(const Options& o, double a, double w, double theta0, int periods) {
  auto d = rocking_block(o, a, w, theta0);
  HybridFrame frame;
  frame.names = {"theta", "omega"};
  frame.units = {"rad", "rad/s"};
  frame.numerics.control.rtol = 1e-12;
  frame.numerics.control.atol = 1e-14;
  frame.numerics.control.h_max = d->period / 8;
  frame.numerics.v_eps = 1e-12;
  HybridSimulation<2> simulation(d, frame);
  EventSink sink;
  simulation.attach_trace(&sink);
  struct Samples : StrobeObserver {
    int left;
    Traced* out;
    const StrobeLayout* layout;
    bool on_sample(const StrobeSample& s) override {
      out->samples.push_back({s.state[0], s.state[1], 0});
      out->modes.push_back(layout->mode_names[static_cast<std::size_t>(s.mode)]);
      return --left > 0;
    }
  } observer;
  Traced out;
  observer.left = periods;
  observer.out = &out;
  observer.layout = &simulation.layout();
  simulation.run(observer);
  out.events = sink.out;
  return out;
}

long count_prefix(const Traced& t, const std::string& prefix) {
  long n = 0;
  for (const auto& k : t.events.kinds) n += k.rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("Rocking block through the API: one guard resets and changes mode, in either declaration order",
          "[hybrid_api][rocking]") {
  for (const double w : {2.0, 3.0}) {
    const Traced first = trace({}, 0.26, w, 0.0, 6);  // from rest on both corners
    REQUIRE(count_prefix(first, "switch to left") > 10);
    REQUIRE(count_prefix(first, "switch+sticking") > 0);  // chatter ran out: at rest on theta = 0
    REQUIRE(count_prefix(first, "release to left") > 0);  // and lifted on both sides
    REQUIRE(count_prefix(first, "release to right") > 0);
    // Every corner change keeps theta and scales omega by r, without reversing it.
    for (std::size_t i = 0; i < first.events.kinds.size(); ++i) {
      if (first.events.kinds[i].rfind("switch to ", 0) != 0) continue;
      const double* s = &first.events.states[4 * i];
      CHECK(s[2] == s[0]);
      CHECK(s[3] == kR * s[1]);
    }
    for (const Options o : {Options{true, false}, Options{false, true}, Options{true, true}}) {
      const Traced other = trace(o, 0.26, w, 0.0, 6);
      CHECK(other.events.times == first.events.times);
      CHECK(other.events.kinds == first.events.kinds);
      CHECK(other.events.states == first.events.states);
      CHECK(other.samples == first.samples);
      CHECK(other.modes == first.modes);
    }
    WARN("w = " << w << ": " << first.events.times.size() << " events, " << count_prefix(first, "switch+sticking")
                << " rests, releases left " << count_prefix(first, "release to left") << " right "
                << count_prefix(first, "release to right"));
  }
}

TEST_CASE("Simultaneous crossings: the guard's name decides, not the order of declaration", "[hybrid_api][rocking]") {
  // In the right mode a second switch, to_toppled, crosses at the same instant as to_left (the same
  // function): by the rule, to_left (first by name) applies and the group ends with its mode change.
  const Traced first = trace({false, false, true}, 0.0, 3.0, 0.02, 2);
  const Traced reversed = trace({true, true, true}, 0.0, 3.0, 0.02, 2);
  REQUIRE(!first.events.kinds.empty());
  CHECK(first.events.kinds.front() == "switch to left");
  CHECK(count_prefix(first, "switch to toppled") == 0);
  CHECK(reversed.events.times == first.events.times);
  CHECK(reversed.events.kinds == first.events.kinds);
  CHECK(reversed.events.states == first.events.states);
}
