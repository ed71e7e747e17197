#pragma once
// A hybrid system stated declaratively, for one case (one set of parameter values): the vector field
// of each mode, the guards (affine in the state and the forcing phase, so the event locator can prove
// it misses none), and what happens at each guard: a rigid stop with Newton restitution (optionally a
// Coulomb impulse on a tangential velocity, with the stick clamp, and sticking once chatter has run
// out, released by an automatic guard), or a switch to another mode. The engine adapter
// (HybridSimulation) turns it into a run loop, counters, stroboscopic samples and the Jacobians of the
// variational equations, derived by automatic differentiation: a model needs no loop of its own.
//
// The forcing is periodic with period T: the adapter carries (cos wt, sin wt), w = 2 pi / T, as two
// extra states, so a vector field reads the forcing as drive.cos, drive.sin and a guard may depend on
// it affinely. Vector fields are generic callables, instantiated for double and for Eigen's
// AutoDiffScalar; write them with `auto` parameters and without branches on the state.
#include <Eigen/Core>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <unsupported/Eigen/AutoDiff>
#include <utility>
#include <vector>

#include "engine/events/polynomial_first_root.hpp"
#include "engine/hybrid_model/drive.hpp"
#include "engine/hybrid_model/tape_scalar.hpp"

namespace vibro {

// A rigid stop on one coordinate: the guard is position - at (`stop_above`: the body moves below the
// stop and hits it from below). At a hit the velocity becomes -restitution times itself (Newton);
// with a tangential velocity component, a Coulomb impulse of mu times the normal impulse moves it
// towards 0 and never through it (stick clamp). With `sticks`, a rebound slower than the chatter
// threshold (numerics key v_eps) ends the chatter: the body rests on the stop while the free vector
// field presses it there, and leaves when that pressing acceleration falls through zero.
struct StopLaw {
  int position = 0;
  int velocity = 1;
  double at = 0;
  bool stop_above = true;
  double restitution = 1;
  bool sticks = true;
  int tangential = -1;  // velocity component the Coulomb impulse acts on; -1: none
  double mu = 0;
  bool counted = false;  // its impacts get a counter of their own, "impacts_<guard name>"
};

// One body's share of a gap: the gap grows by `coefficient` times position component `position`,
// whose rate is component `velocity`; `mass` is that body's inertia along it, which decides how an
// impulse across the gap divides between the bodies (a fixed obstacle has infinite mass: no term).
struct GapTerm {
  int position = 0;
  int velocity = 1;
  double coefficient = 1;
  double mass = 1;
};

// A rigid contact across an affine gap g = sum coefficient x[position] + a_cos cos(wt) + a_sin sin(wt)
// + b, open while g > 0 and hit when g falls through 0: between two moving bodies (terms of both
// signs), or a body against a moving obstacle (the forcing terms). At a hit the gap's rate reverses
// and scales by -restitution (Newton) through an impulse on the terms' velocities weighted by 1/mass,
// which keeps the momentum of the bodies; with `sticks`, a rebound slower than v_eps ends the chatter:
// the bodies move together (the gap held at 0 by the contact force) until that force turns tensile.
// For two bodies this is engine/contact/two_body_restitution.hpp; StopLaw is the one-term case.
struct GapLaw {
  std::vector<GapTerm> terms;
  double a_cos = 0, a_sin = 0, b = 0;
  double restitution = 1;
  bool sticks = true;
  int tangential = -1;  // StopLaw's Coulomb impulse (one term of mass 1 only); -1: none
  double mu = 0;
  bool counted = false;  // its impacts get a counter of their own, "impacts_<guard name>"
};

inline GapLaw gap_of(const StopLaw& stop) {
  const double side = stop.stop_above ? -1.0 : 1.0;  // the gap is at - x above, x - at below
  GapLaw gap;
  gap.terms = {{stop.position, stop.velocity, side, 1.0}};
  gap.b = -side * stop.at;
  gap.restitution = stop.restitution;
  gap.sticks = stop.sticks;
  gap.tangential = stop.tangential;
  gap.mu = stop.mu;
  gap.counted = stop.counted;
  return gap;
}

// A general affine guard a . x + a_cos cos(wt) + a_sin sin(wt) + b, crossed in direction `crossing`,
// whose event switches to mode `target` and maps the state affinely, x -> jump x + shift (by default
// no jump): one event that resets the state and changes the mode, as the rocking block's corner change
// (Housner: the angular velocity times r, rocking continues about the other corner).
//
// With `rest_velocity` (>= 0) the guard is a surface the two modes share and the state may come to
// rest on it: the guard reads one state component (a position) whose rate in both modes is component
// rest_velocity. When a crossing leaves the state slower than the chatter threshold v_eps across the
// surface, and neither mode's field pulls it off the surface, it rests there (the resting mode of this
// guard, the surface and its rate held at 0); it is released into whichever of the two modes' fields
// first pulls it off the surface towards that mode's side (the side the applied force points to).
template <int N>
struct SwitchGuard {
  Eigen::Matrix<double, N, 1> a = Eigen::Matrix<double, N, 1>::Zero();
  double a_cos = 0, a_sin = 0, b = 0;
  Crossing crossing = Crossing::Falling;
  int target = 0;
  Eigen::Matrix<double, N, N> jump = Eigen::Matrix<double, N, N>::Identity();
  Eigen::Matrix<double, N, 1> shift = Eigen::Matrix<double, N, 1>::Zero();
  int rest_velocity = -1;  // -1: the state never rests on this guard
  // A reset that is not affine: the index HybridDescription::reset_map returned; the event maps the
  // state x -> map(x, drive) instead of jump x + shift. -1: the affine jump.
  int map = -1;
  // Its events are impacts on an obstacle whose gap or impact law a GapLaw cannot state (a curved
  // wall, an impact law of the model's own): they count as a stop's impacts (impacts_per_period, and
  // "impacts_<guard name>" with `counted`), record their phase and closing speed (the guard
  // function's rate just before), come before switches in a simultaneous group, and a target equal
  // to the guard's own mode is no mode switch.
  bool impact = false;
  bool counted = false;
};

template <int N>
class HybridDescription {
 public:
  static constexpr int kStates = N;
  using State = Eigen::Matrix<double, N, 1>;
  using Jet = Eigen::AutoDiffScalar<Eigen::Matrix<double, N + 2, 1>>;  // d/d(x, cos, sin)
  using JetState = Eigen::Matrix<Jet, N, 1>;
  using Field = std::function<void(const State&, const Drive<double>&, State&)>;
  using JetField = std::function<void(const JetState&, const Drive<Jet>&, JetState&)>;
  using FieldTracer = std::function<FieldTape()>;  // throws UntraceableField

  struct Mode {
    std::string name;
    Field field;
    JetField jet_field;  // the same callable, for the Jacobian
    FieldTracer trace;   // the same callable's tape (field_tape.hpp), made when a back end asks for it
  };
  struct Guard {
    int mode;
    std::string name;
    bool is_stop;
    GapLaw gap;
    SwitchGuard<N> change;
  };

  double period = 1.0;  // forcing period T
  State initial = State::Zero();
  int initial_mode = 0;
  std::array<double, N> scales = filled(1.0);  // tolerance unit of each component on the section

  // Adds a mode with vector field `field(x, drive, dx)`; returns its index.
  // Names are the model's vocabulary (trace events, result files' mode and counter names): a second
  // mode or guard of the same name is refused here, before any case runs.
  template <class F>
  int mode(std::string name, F field) {
    for (const auto& m : modes_)
      if (m.name == name) throw std::invalid_argument("mode '" + name + "' is declared twice; every mode needs a name of its own");
    modes_.push_back({std::move(name), Field(field), JetField(field), [field] { return trace_field<N>(field); }});
    return static_cast<int>(modes_.size()) - 1;
  }
  void stop(int in_mode, std::string name, const StopLaw& law) { gap(in_mode, std::move(name), gap_of(law)); }
  void gap(int in_mode, std::string name, const GapLaw& law) {
    check_new_guard(name);
    guards_.push_back({in_mode, std::move(name), true, law, {}});
  }
  void switch_guard(int in_mode, std::string name, const SwitchGuard<N>& guard) {
    check_new_guard(name);
    if (guard.map < -1 || guard.map >= static_cast<int>(maps_.size()))
      throw std::invalid_argument("switch '" + name + "' names reset map " + std::to_string(guard.map) + "; " +
                                  std::to_string(maps_.size()) + " are registered (reset_map returns the index)");
    guards_.push_back({in_mode, std::move(name), false, {}, guard});
  }
  // Registers a reset map for SwitchGuard::map: a generic callable map(x, drive, out) writing the
  // state just after the event from the state x just before, written as a field is (`auto`
  // parameters, no branch on the state). Its Jacobian (the saltation matrices: Floquet multipliers,
  // shooting, continuation) comes from the same automatic differentiation as a field's, exact to
  // rounding; its tape runs on the batched back ends. Returns its index.
  template <class F>
  int reset_map(F map) {
    const std::string name = "reset map " + std::to_string(maps_.size());
    maps_.push_back({name, Field(map), JetField(map), [map] { return trace_field<N>(map); }});
    return static_cast<int>(maps_.size()) - 1;
  }

  const std::vector<Mode>& modes() const { return modes_; }
  const std::vector<Guard>& guards() const { return guards_; }
  const std::vector<Mode>& maps() const { return maps_; }  // the reset maps, as Mode (field: the map)
  // Whether guard `g`'s impacts get a counter of their own (a counted stop or impact switch).
  static bool counted(const Guard& g) { return g.is_stop ? g.gap.counted : g.change.impact && g.change.counted; }
  // The names of the counted stops' counters, in the order of their counter slots.
  std::vector<std::string> stop_counter_names() const {
    std::vector<std::string> names;
    for (const auto& g : guards_)
      if (counted(g)) names.push_back("impacts_" + g.name);
    return names;
  }

 private:
  void check_new_guard(const std::string& name) const {
    for (const auto& g : guards_)
      if (g.name == name)
        throw std::invalid_argument("guard '" + name + "' is declared twice; every guard of the model needs a name of its own");
  }
  static std::array<double, N> filled(double v) {
    std::array<double, N> a;
    a.fill(v);
    return a;
  }
  std::vector<Mode> modes_;
  std::vector<Guard> guards_;
  std::vector<Mode> maps_;
};

}  // namespace vibro
