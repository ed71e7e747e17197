#include "model_files/model_file_parser.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "engine/core/suggest.hpp"
#include "engine/hybrid/integrator_parameters.hpp"
#include "model_files/symbolic.hpp"

namespace vibro::model_file {

namespace {

const std::vector<std::string> kStatements{"model",   "param",  "initial", "state",   "period", "mode",    "stop",
                                           "switch",  "start",  "require", "observe", "class",  "symmetry"};

// A name as written, for the checks after every line is read.
struct NamedAt {
  std::string name;
  SourcePos pos;
};

struct PendingField {
  int mode;
  NamedAt state;
  Expr value;
};
struct PendingGuard {
  GuardDecl guard;
  std::optional<NamedAt> velocity, tangential, target;
  std::vector<NamedAt> reset_states;            // a switch's `reset STATE = EXPR`, in guard.resets' order
  std::vector<std::pair<NamedAt, Expr>> masses;  // a stop's `mass STATE = EXPR, ...`
};
struct PendingStart {
  StartDecl start;
  NamedAt mode;
};

class Reader {
 public:
  Reader(const std::string& text, const std::string& file) : file_(file) {
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) statement(SourceCursor(file, line, ++number));
    last_line_ = number;
  }

  ModelFileSpec finish() {
    const SourceCursor at_end(file_, "", last_line_ + 1);
    if (spec_.name.empty()) at_end.fail_at({1, 1}, "the file has no 'model NAME: summary' line");
    if (spec_.states.empty()) at_end.fail_at({1, 1}, "the model declares no state ('state x [unit] = initial value')");
    if (static_cast<int>(spec_.states.size()) > kMaxFileStates)
      at_end.fail_at(spec_.states[kMaxFileStates].pos, "at most " + std::to_string(kMaxFileStates) + " states");
    if (!period_seen_) at_end.fail_at({1, 1}, "the model declares no forcing period ('period 2*pi/omega')");
    if (spec_.modes.empty()) at_end.fail_at({1, 1}, "the model declares no mode ('mode NAME' and a field line per state)");
    resolve_everything();
    return std::move(spec_);
  }

 private:
  void statement(SourceCursor in) {
    if (in.at_end()) return;
    const SourcePos pos = in.pos();
    // A field line: NAME' = EXPR
    if (in.at_identifier()) {
      SourceCursor probe = in;
      const std::string name = probe.identifier("a name");
      if (probe.take('\'')) {
        field(probe, {name, pos});
        return;
      }
    }
    const std::string word = in.label("a statement");
    if (word == "model") model(in);
    else if (word == "param") parameter(in, ParameterGroup::Physics);
    else if (word == "initial") parameter(in, ParameterGroup::Initial);
    else if (word == "state") state(in);
    else if (word == "period") period(in, pos);
    else if (word == "mode") mode(in, pos);
    else if (word == "stop") stop(in, pos);
    else if (word == "switch") switch_guard(in, pos);
    else if (word == "start") start(in);
    else if (word == "require") require(in, pos);
    else if (word == "observe") observe(in);
    else if (word == "class") class_line(in);
    else if (word == "symmetry") symmetry(in, pos);
    else
      in.fail_at(pos, "unknown statement '" + word + "'" + did_you_mean(word, kStatements) +
                          "; accepted: a field line NAME' = ..., or one of model, param, initial, state, period, mode, "
                          "stop, switch, start, require, observe, class");
    if (!in.at_end()) in.fail("unexpected text after the statement: '" + in.rest() + "'");
  }

  void model(SourceCursor& in) {
    if (!spec_.name.empty()) in.fail("a second 'model' line; a file declares one model");
    spec_.name = in.identifier("the model's name");
    in.expect(':', "after the model's name, then its one-line summary");
    spec_.summary = in.rest();
  }

  void declare(const std::string& name, SourcePos pos, const SourceCursor& in) {
    static const std::vector<std::string> reserved = [] {
      std::vector<std::string> r{"t", "pi", "v_eps"};
      std::vector<ParameterSpec> numerics;
      append_integrator_parameters(numerics);
      for (const auto& p : numerics) r.push_back(p.name);
      for (const auto& f : functions()) r.emplace_back(f.name);
      return r;
    }();
    if (std::find(reserved.begin(), reserved.end(), name) != reserved.end())
      in.fail_at(pos, "'" + name + "' is a reserved name (t, pi, the functions and the numerics keys v_eps, rtol, atol, ...)");
    if (const auto it = declared_.find(name); it != declared_.end())
      in.fail_at(pos, "'" + name + "' is declared twice (first at line " + std::to_string(it->second.line) + ")");
    declared_[name] = pos;
  }

  std::string unit(SourceCursor& in) {
    if (!in.take('[')) return "-";
    std::string u = in.until(']');
    in.take(']');
    u.erase(0, u.find_first_not_of(' '));
    u.erase(u.find_last_not_of(' ') + 1);
    return u.empty() ? "-" : u;
  }

  // param NAME [UNIT] = DEFAULT [in RANGE] DESCRIPTION
  void parameter(SourceCursor& in, ParameterGroup group) {
    const SourcePos pos = in.pos();
    const std::string name = in.identifier("the parameter's name");
    declare(name, pos, in);
    const std::string u = unit(in);
    in.expect('=', "and the parameter's default value");
    const SourcePos value_pos = in.pos();
    const double value = in.number("the default value");
    ParameterSpec p = ParameterSpec::real(name, group, u, value, -INFINITY, INFINITY, "");
    if (in.looking_at("in") && in.take_word("in")) {
      const char open = in.peek();
      if (open != '[' && open != '(') in.fail("expected a range after 'in': [lo, hi], (lo, hi], [lo, hi) or (lo, hi)");
      in.take(open);
      p.min = in.number("the range's lower end");
      p.min_inclusive = open == '[';
      in.expect(',', "between the range's ends");
      p.max = in.number("the range's upper end");
      const char close = in.peek();
      if (close != ']' && close != ')') in.fail("expected ']' or ')' to close the range");
      in.take(close);
      p.max_inclusive = close == ']';
      if (!(p.min <= p.max)) in.fail_at(value_pos, "the range's lower end lies above its upper end");
    }
    if (!p.in_range(value)) in.fail_at(value_pos, "the default " + p.format_value(value) + " lies outside the range " + p.accepted_range());
    p.description = in.rest();
    param_pos_.push_back(pos);
    spec_.parameters.push_back(std::move(p));
  }

  // state NAME [UNIT] = INITIAL [scale EXPR]
  void state(SourceCursor& in) {
    StateDecl s;
    s.pos = in.pos();
    s.name = in.identifier("the state's name");
    declare(s.name, s.pos, in);
    s.unit = unit(in);
    in.expect('=', "and the state's initial value (an expression in the parameters)");
    s.initial = parse_expression(in);
    if (in.take_word("scale")) s.scale = parse_expression(in);
    spec_.states.push_back(std::move(s));
  }

  void period(SourceCursor& in, SourcePos pos) {
    if (period_seen_) in.fail_at(pos, "a second 'period' line");
    period_seen_ = true;
    spec_.period = parse_expression(in);
    if (in.peek() == '[') spec_.time_unit = unit(in);  // `period 2*pi/omega [-]`: the unit of time and of the period
  }

  void mode(SourceCursor& in, SourcePos pos) {
    ModeDecl m;
    m.pos = in.pos();
    m.name = in.label("the mode's name");
    for (const auto& other : spec_.modes)
      if (other.name == m.name) in.fail_at(m.pos, "mode '" + m.name + "' is declared twice (first at line " + std::to_string(other.pos.line) + ")");
    (void)pos;
    spec_.modes.push_back(std::move(m));
  }

  int current_mode(const SourceCursor& in, SourcePos pos, const std::string& what) const {
    if (spec_.modes.empty()) in.fail_at(pos, what + " before any 'mode NAME' line: it belongs to the mode above it");
    return static_cast<int>(spec_.modes.size()) - 1;
  }

  void field(SourceCursor& in, NamedAt state) {
    const int m = current_mode(in, state.pos, "a field line");
    in.expect('=', "after " + state.name + "' (a field line reads NAME' = expression)");
    fields_.push_back({m, state, parse_expression(in)});
  }

  std::string guard_name(SourceCursor& in) {
    const SourcePos pos = in.pos();
    const std::string name = in.label("the guard's name");
    for (const auto& g : guards_)
      if (g.guard.name == name)
        in.fail_at(pos, "guard '" + name + "' is declared twice (first at line " + std::to_string(g.guard.pos.line) + ")");
    in.expect(':', "after the guard's name");
    return name;
  }

  // stop NAME: LEFT (<= | >=) RIGHT [restitution E] [friction E on STATE] [velocity STATE] [mass STATE = E, ...]
  //           [reset STATE = EXPR]... [no sticking] [counted]
  void stop(SourceCursor& in, SourcePos pos) {
    PendingGuard p;
    GuardDecl& g = p.guard;
    g.is_stop = true;
    g.pos = pos;
    g.mode = current_mode(in, pos, "a stop");
    g.name = guard_name(in);
    Expr left = parse_expression(in);
    const SourcePos relation = in.pos();
    const bool at_most = in.take_text("<=");
    if (!at_most && !in.take_text(">="))
      in.fail("expected <= or >= (the side of the stop the state stays on: x <= sigma)");
    Expr right = parse_expression(in);
    g.function = at_most ? binary('-', std::move(right), std::move(left), relation)
                         : binary('-', std::move(left), std::move(right), relation);
    while (!in.at_end()) {
      const SourcePos option = in.pos();
      if (in.take_word("restitution")) g.restitution = parse_expression(in);
      else if (in.take_word("friction")) {
        g.mu = parse_expression(in);
        if (!in.take_word("on")) in.fail("expected 'on STATE' after the friction coefficient (the tangential velocity it acts on)");
        const SourcePos at = in.pos();
        p.tangential = NamedAt{in.identifier("the tangential velocity"), at};
      } else if (in.take_word("velocity")) {
        const SourcePos at = in.pos();
        p.velocity = NamedAt{in.identifier("the velocity of the stop's coordinate"), at};
      } else if (in.take_word("mass")) {
        do {
          const SourcePos at = in.pos();
          NamedAt body{in.identifier("the state of the body whose mass follows"), at};
          in.expect('=', "after the body's state (mass STATE = expression)");
          p.masses.emplace_back(std::move(body), parse_expression(in));
        } while (in.take(','));
      } else if (in.take_word("reset")) {
        reset_option(in, p);
      } else if (in.take_word("no")) {
        if (!in.take_word("sticking")) in.fail("expected 'no sticking'");
        g.sticks = false;
      } else if (in.take_word("counted")) g.counted = true;
      else
        in.fail_at(option, "unknown stop option '" + in.rest() +
                               "'; accepted: restitution E, friction E on STATE, velocity STATE, mass STATE = E, "
                               "reset STATE = EXPR, no sticking, counted");
    }
    if (!g.resets.empty() && (g.restitution || g.mu))
      in.fail_at(p.reset_states.front().pos, "stop '" + g.name + "' has reset lines and " + (g.restitution ? "a restitution" : "a friction") +
                                                 ": its reset lines are the whole impact law; accepted: restitution (and friction), or reset lines");
    guards_.push_back(std::move(p));
  }

  // reset STATE = EXPR (after the word `reset`), an option of stops and switches
  static void reset_option(SourceCursor& in, PendingGuard& p) {
    const SourcePos state = in.pos();
    p.reset_states.push_back(NamedAt{in.identifier("the state the event resets"), state});
    in.expect('=', "after the reset's state (reset STATE = expression)");
    p.guard.resets.emplace_back(-1, parse_expression(in));
  }

  // switch NAME: LEFT (falls below | rises above) RIGHT -> MODE [reset STATE = EXPR]... [sticking] [velocity STATE]
  void switch_guard(SourceCursor& in, SourcePos pos) {
    PendingGuard p;
    GuardDecl& g = p.guard;
    g.is_stop = false;
    g.pos = pos;
    g.mode = current_mode(in, pos, "a switch");
    g.name = guard_name(in);
    Expr left = parse_expression(in);
    const SourcePos relation = in.pos();
    if (in.take_word("falls")) {
      if (!in.take_word("below")) in.fail("expected 'falls below'");
      g.crossing = Crossing::Falling;
    } else if (in.take_word("rises")) {
      if (!in.take_word("above")) in.fail("expected 'rises above'");
      g.crossing = Crossing::Rising;
    } else {
      in.fail("expected 'falls below' or 'rises above' (the crossing that switches the mode)");
    }
    Expr right = parse_expression(in);
    g.function = binary('-', std::move(left), std::move(right), relation);
    if (!in.take_text("->")) in.fail("expected '-> MODE' (the mode the switch enters)");
    const SourcePos at = in.pos();
    p.target = NamedAt{in.label("the mode the switch enters"), at};
    while (!in.at_end()) {
      const SourcePos option = in.pos();
      if (in.take_word("reset")) {
        reset_option(in, p);
      } else if (in.take_word("sticking")) {
        g.rests = true;
      } else if (in.take_word("velocity")) {
        const SourcePos state = in.pos();
        p.velocity = NamedAt{in.identifier("the velocity of the switch's coordinate"), state};
      } else {
        in.fail_at(option, "unknown switch option '" + in.rest() + "'; accepted: reset STATE = EXPR, sticking, velocity STATE");
      }
    }
    guards_.push_back(std::move(p));
  }

  // start MODE [if LEFT RELATION RIGHT]
  void start(SourceCursor& in) {
    PendingStart p;
    p.mode.pos = in.pos();
    p.mode.name = in.label("the initial mode");
    if (in.take_word("if")) {
      p.start.left = parse_expression(in);
      p.start.relation = relation(in, "the start condition");
      p.start.right = parse_expression(in);
    }
    starts_.push_back(std::move(p));
  }

  // The relation of a condition (start ... if, require): < <= > >=.
  static std::string relation(SourceCursor& in, const std::string& where) {
    for (const char* r : {"<=", ">=", "<", ">"})
      if (in.take_text(r)) return r;
    in.fail("expected <, <=, > or >= in " + where);
  }

  // require LEFT RELATION RIGHT: MESSAGE
  void require(SourceCursor& in, SourcePos pos) {
    RequireDecl r;
    r.pos = pos;
    SourceCursor text = in;
    text.skip_spaces();
    r.condition = text.until(':');
    while (!r.condition.empty() && (r.condition.back() == ' ' || r.condition.back() == '\t')) r.condition.pop_back();
    r.left = parse_expression(in);
    r.relation = relation(in, "the requirement");
    r.right = parse_expression(in);
    in.expect(':', "after the condition, then what it means when it fails (require x0 <= sigma: the start lies beyond the stop)");
    r.message = in.rest();
    if (r.message.empty()) in.fail("expected what the condition means when it fails after ':'");
    spec_.requirements.push_back(std::move(r));
  }

  // observe NAME, NAME, ...  (impacts_per_period, impact_speed, impact_phase, max_X, min_X, amplitude_X, drift_X)
  void observe(SourceCursor& in) {
    do {
      const SourcePos pos = in.pos();
      observed_.push_back({in.identifier("an observable"), pos});
    } while (in.take(','));
  }

  // class CODE: MEANING
  void class_line(SourceCursor& in) {
    in.skip_spaces();
    std::string code = in.until(':');
    in.take(':');
    while (!code.empty() && (code.back() == ' ' || code.back() == '\t')) code.pop_back();
    if (code.empty()) in.fail("expected 'class CODE: meaning'");
    spec_.classes.push_back({code, in.rest()});
  }

  // symmetry STATE = [-]STATE, ...   or   symmetry swap MODE MODE
  void symmetry(SourceCursor& in, SourcePos pos) {
    if (!symmetry_pos_) symmetry_pos_ = pos;
    if (in.take_word("swap")) {
      const SourcePos first = in.pos();
      std::string a = in.label("a mode");
      const SourcePos second = in.pos();
      swapped_modes_.push_back({{std::move(a), first}, {in.label("a second mode"), second}});
      return;
    }
    do {
      const SourcePos at = in.pos();
      NamedAt image{in.identifier("a state"), at};
      in.expect('=', "in 'symmetry STATE = [-]STATE'");
      const double sign = in.take('-') ? -1 : 1;
      const SourcePos of_at = in.pos();
      mirrored_states_.push_back({std::move(image), {in.identifier("a state"), of_at}, sign});
    } while (in.take(','));
  }

  // --- resolution, after every line is read ---

  std::vector<std::string> parameter_names() const {
    std::vector<std::string> out;
    for (const auto& p : spec_.parameters) out.push_back(p.name);
    return out;
  }
  std::vector<std::string> state_names() const {
    std::vector<std::string> out;
    for (const auto& s : spec_.states) out.push_back(s.name);
    return out;
  }
  int state_index(const NamedAt& n, const SourceCursor& in) const {
    const auto names = state_names();
    const auto it = std::find(names.begin(), names.end(), n.name);
    if (it == names.end())
      in.fail_at(n.pos, "'" + n.name + "' is not a state" + did_you_mean(n.name, names) + "; the states: " + joined(names));
    return static_cast<int>(it - names.begin());
  }
  int mode_index(const NamedAt& n, const SourceCursor& in) const {
    std::vector<std::string> names;
    for (const auto& m : spec_.modes) names.push_back(m.name);
    const auto it = std::find(names.begin(), names.end(), n.name);
    if (it == names.end())
      in.fail_at(n.pos, "'" + n.name + "' is not a mode" + did_you_mean(n.name, names) + "; the modes: " + joined(names));
    return static_cast<int>(it - names.begin());
  }
  static std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  // Resolves every name in `e`; `with_state`: the state and t may appear (a field or guard).
  void resolve(Expr& e, bool with_state, const SourceCursor& in) const {
    for (auto& a : e.args) resolve(a, with_state, in);
    if (e.kind == ExprKind::Call) {
      const FunctionInfo* f = find_function(e.name);
      if (!f) {
        std::vector<std::string> names;
        for (const auto& g : functions()) names.emplace_back(g.name);
        in.fail_at(e.pos, "unknown function '" + e.name + "'" + did_you_mean(e.name, names) + "; accepted: " + joined(names));
      }
      if (static_cast<int>(e.args.size()) != f->arity)
        in.fail_at(e.pos, e.name + " takes " + std::to_string(f->arity) + (f->arity == 1 ? " argument" : " arguments") +
                              ", not " + std::to_string(e.args.size()));
      return;
    }
    if (e.kind != ExprKind::Name) return;
    const auto params = parameter_names();
    const auto states = state_names();
    if (const auto it = std::find(params.begin(), params.end(), e.name); it != params.end()) {
      e.refers = NameKind::Parameter;
      e.index = static_cast<int>(it - params.begin());
    } else if (e.name == "pi") {
      e.refers = NameKind::Pi;
    } else if (const auto s = std::find(states.begin(), states.end(), e.name); with_state && s != states.end()) {
      e.refers = NameKind::State;
      e.index = static_cast<int>(s - states.begin());
    } else if (with_state && e.name == "t") {
      e.refers = NameKind::Time;
    } else if (!with_state && (e.name == "t" || s != states.end())) {
      in.fail_at(e.pos, "'" + e.name + "' is not fixed before a run starts: here only the parameters and pi may appear");
    } else {
      std::vector<std::string> candidates = params;
      candidates.push_back("pi");
      if (with_state) {
        candidates.insert(candidates.end(), states.begin(), states.end());
        candidates.push_back("t");
      }
      in.fail_at(e.pos, "unknown name '" + e.name + "'" + did_you_mean(e.name, candidates) + "; accepted here: " +
                            (with_state ? "the parameters (" + joined(params) + "), the states (" + joined(states) + "), t and pi"
                                        : "the parameters (" + joined(params) + ") and pi"));
    }
  }

  // The vector field's rules beyond names: t only through the forcing cos(w t + phase), sin(...);
  // no sign() of the state (a switch of the field, which belongs to a guard and a mode); exponents
  // fixed by the parameters.
  static const Expr* non_affine(const Expr& e, bool trig_terms) {
    if (fixed_by_parameters(e)) return nullptr;
    switch (e.kind) {
      case ExprKind::Number:
      case ExprKind::Name: return nullptr;
      case ExprKind::Negate: return non_affine(e.args[0], trig_terms);
      case ExprKind::Binary:
        if (e.op == '+' || e.op == '-') {
          if (const Expr* bad = non_affine(e.args[0], trig_terms)) return bad;
          return non_affine(e.args[1], trig_terms);
        }
        if (e.op == '*' && fixed_by_parameters(e.args[0])) return non_affine(e.args[1], trig_terms);
        if ((e.op == '*' || e.op == '/') && fixed_by_parameters(e.args[1])) return non_affine(e.args[0], trig_terms);
        return &e;
      case ExprKind::Call:
        if (trig_terms && (e.name == "cos" || e.name == "sin") && !depends_on_state(e.args[0])) return nullptr;
        return &e;
    }
    return &e;
  }

  void check_time_and_branches(const Expr& e, const SourceCursor& in) const {
    if (e.kind == ExprKind::Call && (e.name == "cos" || e.name == "sin") && depends_on_time(e.args[0])) {
      const Expr& arg = e.args[0];
      if (depends_on_state(arg) || non_affine(arg, false))
        in.fail_at(arg.pos, e.name + "'s argument must be w*t + phase with w and phase fixed by the parameters "
                               "(the engine sees time through the forcing's cos(w t) and sin(w t) only)");
      return;
    }
    if (e.kind == ExprKind::Name && e.refers == NameKind::Time)
      in.fail_at(e.pos, "t may appear only as cos(w*t + phase) or sin(w*t + phase), w the forcing's angular frequency "
                        "2 pi / period (the engine sees time through the forcing phase only)");
    if (e.kind == ExprKind::Call && e.name == "sign" && !fixed_by_parameters(e.args[0]))
      in.fail_at(e.pos, "sign() of a value that changes along a run switches the field: declare a mode per sign and "
                        "switch guards between them (so that the event locator sees every switch)");
    if (e.kind == ExprKind::Binary && e.op == '^' && !fixed_by_parameters(e.args[1]))
      in.fail_at(e.args[1].pos, "an exponent must be fixed by the parameters (x^2, x^p), not change along a run");
    for (const auto& a : e.args) check_time_and_branches(a, in);
  }

  // A switch whose function g(x, t) is not affine becomes affine in an auxiliary state z that
  // follows g: z' = grad g . f + dg/dt - k (z - g) in every mode (f the mode's field), z(0) = g(x0, 0). The event
  // locator is then certified on z, and z equals g up to the integration error. Refused where z
  // could not follow g: a stop (its impact acts through the gap's coefficients), a resting surface,
  // and a g that reads a state an impact, a rest or a reset changes at an event.
  void track_with_auxiliary(GuardDecl& g, SourcePos bad, const SourceCursor& in) {
    const std::string accepted = "; accepted: an affine guard (sums of constants times states, cos(w*t + phase), "
                                 "sin(w*t + phase) and constants), or a stop or switch not affine in states that no "
                                 "impact, rest or reset changes (then an auxiliary state follows it)";
    if (g.rests) in.fail_at(bad, "guard '" + g.name + "' is not affine in the state here, and it is a switch with sticking: a rest needs a surface on one coordinate" + accepted);
    std::vector<int> read;
    collect_states(g.function, read);
    const int original = static_cast<int>(spec_.states.size()) - static_cast<int>(auxiliary_states_);
    for (const auto& other : spec_.guards) {
      std::vector<std::pair<int, std::string>> changed;  // the states `other` changes at its events, and how
      if (other.is_stop && !other.mapped_impact) {
        for (const auto& b : other.bodies) changed.push_back({b.velocity, "an impact on stop '" + other.name + "'"});
        if (other.tangential >= 0) changed.push_back({other.tangential, "the friction impulse of stop '" + other.name + "'"});
      }
      if (other.rests) changed.push_back({other.velocity, "a rest on switch '" + other.name + "'"});
      for (const auto& [state, value] : other.resets)
        changed.push_back({state, (other.is_stop ? "the impact of stop '" : "the reset of switch '") + other.name + "'"});
      for (const auto& [state, how] : changed)
        if (std::find(read.begin(), read.end(), state) != read.end())
          in.fail_at(bad, "guard '" + g.name + "' is not affine in the state here and reads " + spec_.states[static_cast<std::size_t>(state)].name +
                          ", which " + how + " changes: an auxiliary state following the guard would not follow that jump" + accepted);
    }
    if (spec_.states.size() + 1 > static_cast<std::size_t>(kMaxFileStates))
      in.fail_at(bad, "guard '" + g.name + "' is not affine in the state here and its auxiliary state would make more than " +
                          std::to_string(kMaxFileStates) + " states" + accepted);
    StateDecl z;
    z.name = "z_";
    for (const char c : g.name) z.name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    while (declared_.count(z.name)) z.name += "_";
    declared_[z.name] = g.pos;
    z.unit = "-";
    z.pos = g.pos;
    Expr initial = symbolic::substituted(g.function, symbolic::kTime, symbolic::number(0, g.pos));
    for (int i = 0; i < original; ++i) initial = symbolic::substituted(initial, i, spec_.states[static_cast<std::size_t>(i)].initial);
    z.initial = std::move(initial);
    const int index = static_cast<int>(spec_.states.size());
    // z - g decays at the rate k = 2 w (w = 2 pi / period): z keeps to g within the integration
    // error instead of adding up its errors, and z alone, whose value the system does not read,
    // adds the Floquet multiplier exp(-k T) = exp(-4 pi) ~ 3.5e-6 rather than a neutral 1.
    using symbolic::number;
    const Expr pi = [&] {
      Expr e = symbolic::state(0, "pi", g.pos);
      e.refers = NameKind::Pi;
      e.index = -1;
      return e;
    }();
    const Expr k = binary('/', binary('*', number(4, g.pos), pi, g.pos), spec_.period, g.pos);
    const Expr off = symbolic::subtract(symbolic::state(index, z.name, g.pos), g.function);
    for (auto& m : spec_.modes) {
      Expr rate = symbolic::derivative(g.function, symbolic::kTime, spec_.file);
      for (const int i : read)
        rate = symbolic::add(std::move(rate), symbolic::multiply(symbolic::derivative(g.function, i, spec_.file), *m.fields[static_cast<std::size_t>(i)]));
      m.fields.push_back(symbolic::subtract(std::move(rate), symbolic::multiply(k, off)));
    }
    g.tracked = g.function;
    g.auxiliary = index;
    g.function = symbolic::state(index, z.name, g.function.pos);
    spec_.states.push_back(std::move(z));
    ++auxiliary_states_;
  }

  // A reset's Jacobian (the saltation matrix of its event: Floquet multipliers, shooting,
  // continuation) differentiates it: abs, sign, min and max of a value that changes have no
  // derivative where they turn.
  static const Expr* not_differentiable(const Expr& e) {
    if (e.kind == ExprKind::Call && (e.name == "abs" || e.name == "sign" || e.name == "min" || e.name == "max") && !fixed_by_parameters(e))
      return &e;
    for (const auto& a : e.args)
      if (const Expr* bad = not_differentiable(a)) return bad;
    return nullptr;
  }
  void check_differentiable(const Expr& e, const std::string& what, const SourceCursor& in) const {
    if (const Expr* bad = not_differentiable(e))
      in.fail_at(bad->pos, what + " is not differentiable in the state at " + bad->name + "(): its Jacobian (the saltation "
                               "matrix of the event, for Floquet multipliers, shooting and continuation) is the derivative "
                               "taken here; accepted in a reset: + - * / ^, sin, cos, exp, log, sqrt of the state, and abs, "
                               "sign, min, max only of values the parameters fix");
  }

  // A stop whose impact is a reset map (its gap not affine, or reset lines): no rest on it (the
  // engine's rest holds a flat gap shut by its contact force) and no Coulomb impulse (the map is the law).
  void check_mapped_stop(const GuardDecl& g, bool curved, const SourceCursor& in) const {
    const std::string why = curved ? "its gap is not affine in the state (a curved obstacle)" : "its impact is written as reset lines";
    if (g.mu)
      in.fail_at(g.mu->pos, "stop '" + g.name + "' has a friction impulse and " + why + "; accepted: friction on a stop affine "
                            "in the state, or the whole impact law as reset lines (reset STATE = EXPR)");
    if (g.sticks)
      in.fail_at(g.pos, "stop '" + g.name + "': " + why + ", and a rest on such a stop is not supported (a rest holds a "
                        "gap affine in the state shut by its contact force); accepted: 'no sticking' on this stop (chatter "
                        "is then followed impact by impact), or a stop affine in the state with restitution");
  }

  // The positions a stop with reset lines reads (what `vibro describe` names); their rates are the map's business.
  static void collect_stop_positions(GuardDecl& g) {
    std::vector<int> states;
    collect_states(g.function, states);
    std::sort(states.begin(), states.end());
    for (const int s : states) {
      StopBody b;
      b.position = s;
      g.bodies.push_back(b);
    }
    g.position = g.bodies.back().position;
  }

  // Newton's law along a curved stop's gradient, written out as its reset lines: with n_j = dg/dq_j
  // over the positions q_j its gap g reads (v_j their rates, m_j their masses, default 1) and the
  // gap's rate g' = sum n_j v_j + dg/dt, the impulse lambda = -(1 + e) g' / sum n_j^2 / m_j sets
  // v_j <- v_j + lambda n_j / m_j: the gap's rate becomes -e times itself, and the velocity along the
  // wall (the part of v orthogonal to the gradient, in the masses' metric) is kept.
  void write_newton_reset(GuardDecl& g, const SourceCursor& in) {
    namespace sym = symbolic;
    const SourcePos at = g.function.pos;
    const auto velocity = [&](const StopBody& b) { return sym::state(b.velocity, spec_.states[static_cast<std::size_t>(b.velocity)].name, at); };
    Expr rate = sym::derivative(g.function, sym::kTime, spec_.file), weight = sym::number(0, at);
    std::vector<Expr> normal;
    for (const StopBody& b : g.bodies) {
      normal.push_back(sym::derivative(g.function, b.position, spec_.file));
      rate = sym::add(std::move(rate), sym::multiply(normal.back(), velocity(b)));
      weight = sym::add(std::move(weight), b.mass ? sym::divide(sym::multiply(normal.back(), normal.back()), *b.mass) : sym::multiply(normal.back(), normal.back()));
    }
    const Expr e = g.restitution ? *g.restitution : sym::number(1, at);
    const Expr impulse = sym::divide(sym::multiply(sym::negate(sym::add(sym::number(1, at), e)), rate), weight);
    for (std::size_t j = 0; j < g.bodies.size(); ++j) {
      const StopBody& b = g.bodies[j];
      Expr push = b.mass ? sym::divide(normal[j], *b.mass) : normal[j];
      Expr value = sym::add(velocity(b), sym::multiply(impulse, std::move(push)));
      check_differentiable(value, "the impact of stop '" + g.name + "' (Newton's law along its gap's gradient, which differentiates the gap)", in);
      g.resets.emplace_back(b.velocity, std::move(value));
    }
    g.map = true;
  }

  void check_affine_guard(const GuardDecl& g, const SourceCursor& in) const {
    if (const Expr* bad = non_affine(g.function, true))
      in.fail_at(bad->pos, "guard '" + g.name + "' is not affine in the state here; accepted: sums of constants times "
                           "states, cos(w*t + phase), sin(w*t + phase) and constants (the event locator needs "
                           "a . x + a_cos cos(wt) + a_sin sin(wt) + b to certify that it misses no crossing)");
    if (fixed_by_parameters(g.function))
      in.fail_at(g.function.pos, "guard '" + g.name + "' reads no state: it would never be crossed");
  }

  static void collect_states(const Expr& e, std::vector<int>& out) {
    if (e.kind == ExprKind::Name && e.refers == NameKind::State &&
        std::find(out.begin(), out.end(), e.index) == out.end())
      out.push_back(e.index);
    for (const auto& a : e.args) collect_states(a, out);
  }

  // The state a position's field names (x' = v): the rate a stop reverses, or a surface's.
  int rate_state(const GuardDecl& g, int position, const std::string& what, const SourceCursor& in, bool several = false) const {
    const Expr& rate = *spec_.modes[static_cast<std::size_t>(g.mode)].fields[static_cast<std::size_t>(position)];
    if (rate.kind != ExprKind::Name || rate.refers != NameKind::State)
      in.fail_at(g.pos, what + " '" + g.name + "': the field of " + spec_.states[position].name + " in mode '" +
                            spec_.modes[g.mode].name + "' is not a state, so its velocity is unknown; " +
                            (several ? "write it as a state (x1' = v1)" : "add 'velocity STATE'"));
    return rate.index;
  }

  // A stop's bodies: one state (a body against a fixed or moving obstacle), or several, each with a
  // mass that decides how the impulse divides (two bodies: a gap between them).
  // `masses_needed`: a flat gap between bodies divides its impulse by their masses; a curved stop's
  // impulse along its gradient takes mass 1 where none is given (the coordinates of one body).
  void resolve_stop_bodies(PendingGuard& p, const SourceCursor& in, bool masses_needed) {
    GuardDecl& g = p.guard;
    std::vector<int> states;
    collect_states(g.function, states);
    std::sort(states.begin(), states.end());
    const bool several = states.size() > 1;
    if (several && p.velocity)
      in.fail_at(p.velocity->pos, "stop '" + g.name + "' reads several states: 'velocity' names one; each body's rate is "
                                  "the state its field names (x1' = v1)");
    if (several && p.tangential)
      in.fail_at(p.tangential->pos, "stop '" + g.name + "' reads several states: a Coulomb impulse needs a stop on one coordinate");
    for (const int s : states) {
      StopBody body;
      body.position = s;
      body.velocity = !several && p.velocity ? state_index(*p.velocity, in) : rate_state(g, s, "stop", in, several);
      g.bodies.push_back(std::move(body));
    }
    for (auto& [named, mass] : p.masses) {
      const int s = state_index(named, in);
      const auto body = std::find_if(g.bodies.begin(), g.bodies.end(), [&](const StopBody& b) { return b.position == s; });
      if (body == g.bodies.end())
        in.fail_at(named.pos, "stop '" + g.name + "' does not read " + named.name + "; a mass belongs to a state its gap reads");
      if (body->mass) in.fail_at(named.pos, "stop '" + g.name + "': a second mass for " + named.name);
      resolve(mass, false, in);
      body->mass = std::move(mass);
    }
    if (several && masses_needed)
      for (const auto& b : g.bodies)
        if (!b.mass)
          in.fail_at(g.function.pos, "stop '" + g.name + "' reads " + std::to_string(states.size()) + " states and has no mass for " +
                                         spec_.states[b.position].name + "; accepted: a stop on one coordinate (x <= sigma), or "
                                         "a gap between bodies with each one's mass (mass x1 = m1, x2 = m2), which divides the impulse");
    g.position = g.bodies.back().position;
    g.velocity = g.bodies.back().velocity;
  }

  void resolve_everything() {
    const SourceCursor in(file_, "", 0);
    const int n = static_cast<int>(spec_.states.size());
    for (auto& m : spec_.modes) m.fields.resize(static_cast<std::size_t>(n));
    resolve(spec_.period, false, in);
    for (auto& s : spec_.states) {
      resolve(s.initial, false, in);
      if (s.scale) resolve(*s.scale, false, in);
    }
    for (auto& f : fields_) {
      const int i = state_index(f.state, in);
      auto& slot = spec_.modes[static_cast<std::size_t>(f.mode)].fields[static_cast<std::size_t>(i)];
      if (slot) in.fail_at(f.state.pos, "a second field for " + f.state.name + "' in mode '" + spec_.modes[f.mode].name + "'");
      resolve(f.value, true, in);
      check_time_and_branches(f.value, in);
      slot = std::move(f.value);
    }
    for (const auto& m : spec_.modes)
      for (int i = 0; i < n; ++i)
        if (!m.fields[static_cast<std::size_t>(i)])
          in.fail_at(m.pos, "mode '" + m.name + "' has no field for state " + spec_.states[static_cast<std::size_t>(i)].name +
                                " (every mode gives every state's rate: " + spec_.states[static_cast<std::size_t>(i)].name + "' = ...)");
    for (auto& p : guards_) {
      GuardDecl& g = p.guard;
      resolve(g.function, true, in);
      check_time_and_branches(g.function, in);
      const Expr* curved = non_affine(g.function, true);
      if (curved) non_affine_guards_.push_back({spec_.guards.size(), curved->pos});
      else check_affine_guard(g, in);
      if (g.restitution) resolve(*g.restitution, false, in);
      if (g.mu) resolve(*g.mu, false, in);
      if (p.tangential) g.tangential = state_index(*p.tangential, in);
      if (p.target) g.target = mode_index(*p.target, in);
      const std::string kind = g.is_stop ? "stop" : "switch";
      for (std::size_t k = 0; k < g.resets.size(); ++k) {
        auto& [state, value] = g.resets[k];
        state = state_index(p.reset_states[k], in);
        for (std::size_t j = 0; j < k; ++j)
          if (g.resets[j].first == state) in.fail_at(p.reset_states[k].pos, kind + " '" + g.name + "' resets " + p.reset_states[k].name + " twice");
        resolve(value, true, in);
        check_time_and_branches(value, in);
        check_differentiable(value, "the reset of " + p.reset_states[k].name + " in " + kind + " '" + g.name + "'", in);
        if (non_affine(value, false)) g.map = true;
      }
      if (g.is_stop) {
        g.mapped_impact = curved || !g.resets.empty();
        if (g.mapped_impact) check_mapped_stop(g, curved != nullptr, in);
        if (g.resets.empty()) {
          resolve_stop_bodies(p, in, !curved);
        } else {
          if (p.velocity || !p.masses.empty())
            in.fail_at(p.velocity ? p.velocity->pos : p.masses.front().first.pos,
                       "stop '" + g.name + "' has reset lines: they are the whole impact law, so 'velocity' and 'mass' have nothing to "
                       "act on; accepted: reset lines alone, or restitution with velocity and mass");
          collect_stop_positions(g);
        }
      }
      if (g.rests) {
        std::vector<int> states;
        collect_states(g.function, states);
        if (states.size() != 1)
          in.fail_at(g.function.pos, "switch '" + g.name + "' reads " + std::to_string(states.size()) +
                                         " states; a switch with sticking is a surface on one coordinate (theta falls below 0)");
        g.position = states.front();
        g.velocity = p.velocity ? state_index(*p.velocity, in) : rate_state(g, g.position, "switch", in);
      }
      spec_.guards.push_back(std::move(g));
    }
    for (auto& g : spec_.guards)
      if (g.mapped_impact && g.resets.empty()) write_newton_reset(g, in);
    for (const auto& [index, pos] : non_affine_guards_) track_with_auxiliary(spec_.guards[index], pos, in);
    for (auto& p : starts_) {
      p.start.mode = mode_index(p.mode, in);
      if (p.start.left) resolve(*p.start.left, false, in);
      if (p.start.right) resolve(*p.start.right, false, in);
      spec_.starts.push_back(std::move(p.start));
    }
    for (auto& r : spec_.requirements) {
      resolve(r.left, false, in);
      resolve(r.right, false, in);
    }
    for (const auto& o : observed_) spec_.observables.push_back(observable(o, in));
    if (symmetry_pos_) resolve_symmetry(in);
  }

  // The symmetry's state map as a signed permutation, checked to be an involution; its modes.
  void resolve_symmetry(const SourceCursor& in) {
    SymmetryDecl s;
    s.pos = *symmetry_pos_;
    if (auxiliary_states_ > 0)
      in.fail_at(s.pos, "a symmetry cannot be declared for a model with a non-affine guard: its auxiliary state has no "
                        "declared image; accepted: a symmetry of a model whose guards are affine");
    for (const auto& o : spec_.observables)
      if (o.stat == WindowStat::Drift)
        in.fail_at(s.pos, "a symmetry cannot be declared with a drift observable (drift_" + o.component +
                              "): the section leaves that state out");
    const auto n = spec_.states.size();
    s.images.resize(n);
    s.signs.assign(n, 1.0);
    for (std::size_t i = 0; i < n; ++i) s.images[i] = static_cast<int>(i);
    std::vector<bool> named(n, false);
    for (const auto& m : mirrored_states_) {
      const auto i = static_cast<std::size_t>(state_index(m.image, in));
      if (named[i]) in.fail_at(m.image.pos, "the symmetry gives " + m.image.name + " a second image");
      named[i] = true;
      s.images[i] = state_index(m.of, in);
      s.signs[i] = m.sign;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const auto j = static_cast<std::size_t>(s.images[i]);
      if (s.images[j] != static_cast<int>(i) || s.signs[i] * s.signs[j] != 1)
        in.fail_at(s.pos, "the symmetry is not an involution: applied twice it does not give " + spec_.states[i].name +
                              " back (accepted: STATE = STATE or -STATE, an exchange of two states on both their lines)");
    }
    std::vector<bool> paired(spec_.modes.size(), false);
    for (const auto& [a, b] : swapped_modes_) {
      for (const NamedAt* m : {&a, &b}) {
        const auto k = static_cast<std::size_t>(mode_index(*m, in));
        if (paired[k]) in.fail_at(m->pos, "the symmetry names mode '" + m->name + "' in a second pair");
        paired[k] = true;
      }
      if (a.name == b.name) in.fail_at(b.pos, "the symmetry swaps mode '" + a.name + "' with itself (an unnamed mode is its own image)");
      s.swapped_modes.emplace_back(a.name, b.name);
    }
    spec_.symmetry = std::move(s);
  }

  WindowObservable observable(const NamedAt& o, const SourceCursor& in) const {
    if (o.name == "impacts_per_period") return {WindowStat::ImpactsPerPeriod, ""};
    if (o.name == "impact_speed") return {WindowStat::ImpactSpeed, ""};
    if (o.name == "impact_phase") return {WindowStat::ImpactPhase, ""};
    const std::vector<std::pair<std::string, WindowStat>> prefixed{
        {"max_", WindowStat::Maximum}, {"min_", WindowStat::Minimum}, {"amplitude_", WindowStat::HalfPeakToPeak}, {"drift_", WindowStat::Drift}};
    std::vector<std::string> accepted{"impacts_per_period", "impact_speed", "impact_phase"};
    for (const auto& [prefix, stat] : prefixed) {
      for (const auto& s : spec_.states) accepted.push_back(prefix + s.name);
      if (o.name.rfind(prefix, 0) != 0) continue;
      const std::string state = o.name.substr(prefix.size());
      for (const auto& s : spec_.states)
        if (s.name == state) return {stat, state};
    }
    in.fail_at(o.pos, "unknown observable '" + o.name + "'" + did_you_mean(o.name, accepted) +
                          "; accepted: impacts_per_period, impact_speed, impact_phase, and max_X, min_X, amplitude_X, drift_X for a state X");
  }

  std::string file_;
  int last_line_ = 0;
  ModelFileSpec spec_;
  std::map<std::string, SourcePos> declared_;
  std::vector<SourcePos> param_pos_;
  bool period_seen_ = false;
  std::vector<PendingField> fields_;
  std::vector<PendingGuard> guards_;
  std::vector<PendingStart> starts_;
  std::vector<std::pair<std::size_t, SourcePos>> non_affine_guards_;  // index in spec_.guards, the first non-affine part
  std::size_t auxiliary_states_ = 0;
  std::vector<NamedAt> observed_;
  struct MirroredState {
    NamedAt image, of;
    double sign;
  };
  std::optional<SourcePos> symmetry_pos_;
  std::vector<MirroredState> mirrored_states_;
  std::vector<std::pair<NamedAt, NamedAt>> swapped_modes_;
};

}  // namespace

ModelFileSpec parse_model_file(const std::string& text, const std::string& file) {
  Reader reader(text, file);
  ModelFileSpec spec = reader.finish();
  spec.file = file;
  return spec;
}

}  // namespace vibro::model_file
