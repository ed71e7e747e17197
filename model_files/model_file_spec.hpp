#pragma once
// What a model file (docs/model_files.md) says, read and checked: its parameters, states, period,
// modes with their vector fields, guards, initial mode, observables and classes, every expression
// resolved against the declared names. model_file_parser.hpp makes it; file_model.hpp runs it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/events/polynomial_first_root.hpp"
#include "engine/hybrid_model/hybrid_model_info.hpp"
#include "model_files/expression.hpp"

namespace vibro::model_file {

struct StateDecl {
  std::string name, unit;
  Expr initial;
  std::optional<Expr> scale;  // `scale EXPR`: the component's tolerance unit on the section (default 1)
  SourcePos pos;
};

struct ModeDecl {
  std::string name;
  SourcePos pos;
  std::vector<std::optional<Expr>> fields;  // one per state, in state order
};

// One body a stop's gap reads: its position state, that state's rate, and its mass (a stop between
// two moving bodies divides the impulse by the masses; a one-body stop needs none).
struct StopBody {
  int position = -1, velocity = -1;
  std::optional<Expr> mass;
};

// A stop (a rigid contact while `gap` >= 0, hit when it falls through 0) or a switch (the mode
// changes to `target` when `function` crosses 0 in `crossing`'s direction). `function` is affine in
// the state and the forcing's cos and sin (an auxiliary state where the file's is not).
struct GuardDecl {
  bool is_stop = true;
  std::string name;
  SourcePos pos;
  int mode = 0;
  Expr function;  // the gap of a stop, the switching function of a switch
  // Stop:
  std::vector<StopBody> bodies;      // the states its gap reads, in state order
  int position = -1, velocity = -1;  // the last body's (a one-body stop's) state and rate; a sticking switch's
  std::optional<Expr> restitution;   // default 1
  std::optional<Expr> mu;            // Coulomb impulse on `tangential`
  int tangential = -1;
  bool sticks = true, counted = false;
  // A stop whose gap is not affine in the state (a curved obstacle) or whose impact is written as
  // `reset` lines: its impact is the reset map `resets` (for a curved stop without them: Newton's law
  // along the gap's gradient, written out by the parser), run as the engine's impact switch.
  bool mapped_impact = false;
  // Switch:
  Crossing crossing = Crossing::Falling;
  int target = 0;
  // `reset STATE = EXPR`: the state's value just after the event, from the state just before (states
  // not named keep theirs). `map`: some value is not affine in the state or reads the forcing, so the
  // reset runs as a map (its Jacobian by automatic differentiation); else as an affine jump.
  std::vector<std::pair<int, Expr>> resets;
  bool map = false;
  bool rests = false;                        // `sticking`: the state may rest on the switch's surface (position, velocity as a stop's)
  // A guard whose function as written (`tracked`) is not affine: `function` is then the auxiliary
  // state `auxiliary` (z' = dg/dt along each mode's field, z(0) = g at the start), which follows it.
  int auxiliary = -1;
  Expr tracked;
};

// `start MODE if LEFT RELATION RIGHT`: the first whose condition holds on the case's parameters
// gives the initial mode; none: the first mode.
struct StartDecl {
  int mode = 0;
  std::optional<Expr> left, right;
  std::string relation;  // < <= > >=
};

// `require LEFT RELATION RIGHT: MESSAGE`: a condition on the case's parameters (the initial state's
// included) that a C++ model's validate() would check; a case where it fails is infeasible, a sweep
// where it fails in every case is refused, each with MESSAGE and the place.
struct RequireDecl {
  Expr left, right;
  std::string relation;  // < <= > >=
  std::string condition, message;  // as written
  SourcePos pos;
};

// `symmetry x = -x, v = -v` and `symmetry swap slip+ slip-`: the equations' half-period symmetry
// (docs/model_files.md): state i's image is signs[i] times state images[i]'s (unnamed states their
// own), and the modes exchanged in pairs.
struct SymmetryDecl {
  std::vector<int> images;
  std::vector<double> signs;
  std::vector<std::pair<std::string, std::string>> swapped_modes;
  SourcePos pos;
};

struct ModelFileSpec {
  std::string file;  // as given
  std::string name, summary;
  std::vector<ParameterSpec> parameters;
  std::vector<StateDecl> states;
  Expr period;
  std::string time_unit = "s";  // `period EXPR [UNIT]`
  std::vector<ModeDecl> modes;
  std::vector<GuardDecl> guards;
  std::vector<StartDecl> starts;
  std::vector<RequireDecl> requirements;
  std::vector<WindowObservable> observables;
  std::vector<ClassCode> classes;
  std::optional<SymmetryDecl> symmetry;
};

// The value state `state` takes at guard g's event: its reset line's, else the state itself.
Expr reset_value(const ModelFileSpec& spec, const GuardDecl& g, int state);

}  // namespace vibro::model_file
