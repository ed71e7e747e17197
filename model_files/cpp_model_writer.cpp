#include "model_files/cpp_model_writer.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "model_files/symbolic.hpp"

namespace vibro::model_file {

namespace {

namespace sym = symbolic;

std::string literal(double v) {
  if (std::isinf(v)) return v > 0 ? "kInf" : "-kInf";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  std::string text(buffer, end);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";  // a double: 2 * jet needs 2.0
  return text;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A harmonic term cos(k t + phase) or sin(...) of the file, as the generated code computes it.
struct HarmonicTerm {
  bool simple = false;  // cos(W*t) / sin(W*t) with W the period's own frequency: drive.cos / drive.sin
  bool is_cos = true;
  int index = -1;       // general: hINDEX, declared in describe()
};

class Writer {
 public:
  Writer(const ModelFileSpec& spec, std::string model_name, std::string origin)
      : s_(spec), name_(std::move(model_name)), origin_(std::move(origin)), n_(static_cast<int>(spec.states.size())) {
    static const std::set<std::string> reserved{
        "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
        "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export",
        "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
        "new", "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public", "register",
        "return", "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true",
        "try", "typedef", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor",
        "requires", "concept", "s", "ds", "d", "p", "w", "drive", "std", "vibro", "power", "smaller", "larger",
        "harmonic", "Harmonic", "T", "require", "fixed_pow", "sign_of", "kInf", "Model", "G", "ParameterSpec", "WindowStat", "registration", "M_PI", "guard",
        "gap", "stop"};
    const auto identifier = [&](const std::string& name) {
      std::string id = name;
      while (reserved.count(id) || used_.count(id) || (id.size() > 1 && id[0] == 'h' && std::isdigit(static_cast<unsigned char>(id[1]))))
        id += "_";
      used_.insert(id);
      return id;
    };
    for (const auto& p : s_.parameters) parameter_ids_.push_back(identifier(p.name));
    for (const auto& st : s_.states) state_ids_.push_back(identifier(st.name));
    for (const auto& m : s_.modes) {
      std::string id = "mode_";
      for (const char c : m.name) id += c == '+' ? std::string("_plus") : c == '-' ? std::string("_minus") : std::string(1, is_identifier_char(c) ? c : '_');
      mode_ids_.push_back(identifier(id));
    }
    find_harmonics();
  }

  std::string source() {
    std::ostringstream o;
    header(o);
    o << "class Model final : public vibro::HybridModel<" << n_ << "> {\n public:\n";
    constructor(o);
    describe(o);
    validate(o);
    symmetry(o);
    o << "};\n\nconst vibro::RegisterModel<Model> registration;\n\n}  // namespace\n";
    return o.str();
  }

 private:
  // --- expressions ---

  bool simple_frequency(const Expr& argument) const {
    // W*t or t*W, W a parameter with a non-negative range, and the period written 2*pi/W.
    if (argument.kind != ExprKind::Binary || argument.op != '*') return false;
    const Expr* w = nullptr;
    for (int i = 0; i < 2; ++i)
      if (argument.args[i].kind == ExprKind::Name && argument.args[1 - i].kind == ExprKind::Name &&
          argument.args[1 - i].refers == NameKind::Time && argument.args[i].refers == NameKind::Parameter)
        w = &argument.args[i];
    if (!w || s_.parameters[static_cast<std::size_t>(w->index)].min < 0) return false;
    const Expr& t = s_.period;
    return t.kind == ExprKind::Binary && t.op == '/' && t.args[1].kind == ExprKind::Name && t.args[1].index == w->index &&
           t.args[1].refers == NameKind::Parameter && t.args[0].kind == ExprKind::Binary && t.args[0].op == '*' &&
           sym::is_number(t.args[0].args[0], 2) && t.args[0].args[1].kind == ExprKind::Name &&
           t.args[0].args[1].refers == NameKind::Pi;
  }

  static bool is_forcing(const Expr& e) {
    return e.kind == ExprKind::Call && (e.name == "cos" || e.name == "sin") && depends_on_time(e.args[0]);
  }

  void find_harmonics_in(const Expr& e) {
    if (is_forcing(e)) {
      HarmonicTerm h;
      h.is_cos = e.name == "cos";
      h.simple = simple_frequency(e.args[0]);
      if (!h.simple) {
        const std::string k = cpp(sym::derivative(e.args[0], sym::kTime, s_.file));
        const std::string phase = cpp(sym::substituted(e.args[0], sym::kTime, sym::number(0)));
        const std::string key = std::string(h.is_cos ? "true" : "false") + ", " + k + ", " + phase;
        const auto it = harmonic_index_.find(key);
        h.index = it != harmonic_index_.end() ? it->second : static_cast<int>(harmonic_keys_.size());
        if (it == harmonic_index_.end()) {
          harmonic_index_[key] = h.index;
          harmonic_keys_.push_back(key);
        }
      }
      harmonics_[&e] = h;
      return;
    }
    for (const auto& a : e.args) find_harmonics_in(a);
  }

  void find_harmonics() {
    for (const auto& m : s_.modes)
      for (const auto& f : m.fields) find_harmonics_in(*f);
    for (const auto& g : s_.guards) {
      find_harmonics_in(g.function);
      for (const auto& reset : g.resets) find_harmonics_in(reset.second);
    }
  }

  // C++ of `e` at precedence level `level` (1 sum, 2 product, 3 unary, 4 atom): parenthesised where
  // the tree's grouping would otherwise change, so that the operations are the file's.
  std::string cpp(const Expr& e, int level = 1) const {
    const auto wrap = [&](int own, std::string text) { return own < level ? "(" + text + ")" : text; };
    switch (e.kind) {
      case ExprKind::Number: return e.number < 0 ? wrap(3, literal(e.number)) : literal(e.number);
      case ExprKind::Name:
        if (e.refers == NameKind::Pi) return "M_PI";
        if (e.refers == NameKind::State) {
          if (e.index == n_) return "drive.cos";  // the guards' forcing placeholders
          if (e.index == n_ + 1) return "drive.sin";
          return state_ids_[static_cast<std::size_t>(e.index)];
        }
        if (e.refers == NameKind::Parameter) {
          const auto p = static_cast<std::size_t>(e.index);
          if (p < parameter_ids_.size()) {
            used_parameters_.insert(e.index);
            return parameter_ids_[p];
          }
          const std::size_t h = p - parameter_ids_.size();  // a general harmonic's coefficient
          return "h" + std::to_string(h / 2) + (h % 2 == 0 ? ".on_cos" : ".on_sin");
        }
        return "t";
      case ExprKind::Negate: return wrap(3, "-" + cpp(e.args[0], 3));
      case ExprKind::Binary: {
        if (e.op == '^') {
          const bool fixed = fixed_by_parameters(e.args[0]);
          return std::string(fixed ? "fixed_pow(" : "power(") + cpp(e.args[0]) + ", " + cpp(e.args[1]) + ")";
        }
        const int own = e.op == '+' || e.op == '-' ? 1 : 2;
        const int right = e.args[1].kind == ExprKind::Negate ? 4 : own + 1;
        return wrap(own, cpp(e.args[0], own) + " " + e.op + " " + cpp(e.args[1], right));
      }
      case ExprKind::Call: {
        if (const auto it = harmonics_.find(&e); it != harmonics_.end()) {
          const HarmonicTerm& h = it->second;
          if (h.simple) return h.is_cos ? "drive.cos" : "drive.sin";
          const std::string id = "h" + std::to_string(h.index);
          return "(" + id + ".on_cos * drive.cos + " + id + ".on_sin * drive.sin)";
        }
        const bool fixed = fixed_by_parameters(e);
        std::string function = e.name;
        if (e.name == "min" || e.name == "max") function = fixed ? "std::" + e.name : e.name == "min" ? "smaller" : "larger";
        else if (e.name == "sign") function = "sign_of";
        else if (fixed) function = "std::" + e.name;
        std::string text = function + "(";
        for (std::size_t i = 0; i < e.args.size(); ++i) text += (i ? ", " : "") + cpp(e.args[i]);
        return text + ")";
      }
    }
    return "0.0";
  }

  // The guard's function with each harmonic term replaced by on_cos C + on_sin S (C, S the
  // placeholders n_ and n_ + 1 for cos wt and sin wt): affine in the states and C, S.
  Expr with_placeholders(const Expr& e) const {
    if (const auto it = harmonics_.find(&e); it != harmonics_.end()) {
      const HarmonicTerm& h = it->second;
      const Expr c = sym::state(n_, "cos_wt"), s = sym::state(n_ + 1, "sin_wt");
      if (h.simple) return h.is_cos ? c : s;
      Expr on_cos, on_sin;
      on_cos.kind = on_sin.kind = ExprKind::Name;
      on_cos.refers = on_sin.refers = NameKind::Parameter;
      on_cos.index = static_cast<int>(parameter_ids_.size()) + 2 * h.index;
      on_sin.index = on_cos.index + 1;
      return sym::add(sym::multiply(on_cos, c), sym::multiply(on_sin, s));
    }
    Expr out = e;
    for (std::size_t i = 0; i < e.args.size(); ++i) out.args[i] = with_placeholders(e.args[i]);
    return out;
  }

  struct Affine {
    std::vector<Expr> a;  // per state, then cos wt, sin wt
    Expr b;
  };
  Affine affine(const Expr& function) const {
    const Expr g = with_placeholders(function);
    Affine out;
    Expr zero = g;
    for (int i = 0; i < n_ + 2; ++i) {
      out.a.push_back(sym::derivative(g, i, s_.file));
      zero = sym::substituted(zero, i, sym::number(0));
    }
    out.b = zero;
    return out;
  }

  // --- the file's parts ---

  void header(std::ostringstream& o) const {
    o << "// " << name_ << ": a vibro model plugin written by `vibro new-model " << name_ << " --from " << origin_ << "`\n"
      << "// from the model file's model " << s_.name << " (" << s_.summary << "): the same system through the\n"
      << "// hybrid-model API (vibro's docs/writing_a_model.md). Each expression keeps the file's order of\n"
      << "// operations and the project builds without floating-point contraction, so that a sweep gives\n"
      << "// the model file's results; edit it as your own model from here on.\n"
      << "#include <algorithm>\n#include <cmath>\n#include <limits>\n#include <string>\n#include <type_traits>\n\n"
      << "#include \"analysis/hybrid_model.hpp\"\n#include \"engine/core/input_error.hpp\"\n"
      << "#include \"engine/core/model_registry.hpp\"\n#include \"engine/hybrid_model/field_tape.hpp\"\n\n"
      << "namespace {\n\n"
      << "using std::abs, std::cos, std::exp, std::log, std::sin, std::sqrt;\n"
      << "using vibro::ParameterSpec;\nusing vibro::WindowStat;\nusing G = vibro::ParameterGroup;\n"
      << "constexpr double kInf = std::numeric_limits<double>::infinity();\n\n"
      << "// a^c on the state: on doubles as vibro's field tapes compute it (a * a for c = 2, ...), else pow.\n"
      << "template <class T>\nauto power(const T& a, double c) {\n"
      << "  if constexpr (std::is_same_v<T, double>) {\n    return vibro::field_tape_detail::folded_pow(a, c);\n"
      << "  } else {  // the exponent read at run time, as the file's program holds it (not folded by the compiler)\n"
      << "    using std::pow;\n    const volatile double exponent = c;\n    return pow(a, static_cast<double>(exponent));\n  }\n}\n\n"
      << "// a^b of values the parameters fix, as the model file folds it: the library's pow at run time.\n"
      << "[[maybe_unused]] double fixed_pow(double a, double b) {\n  const volatile double exponent = b;\n"
      << "  return std::pow(a, static_cast<double>(exponent));\n}\n\n"
      << "// min, max of values that change along a run: on doubles as vibro's field tapes pick them.\n"
      << "template <class T>\nT smaller(const T& a, const T& b) {\n"
      << "  if constexpr (std::is_same_v<T, double>) return a < b ? a : b;\n  else return min(a, b);\n}\n"
      << "template <class T>\nT larger(const T& a, const T& b) {\n"
      << "  if constexpr (std::is_same_v<T, double>) return a >= b ? a : b;\n  else return max(a, b);\n}\n"
      << "[[maybe_unused]] double sign_of(double a) { return static_cast<double>((a > 0) - (a < 0)); }\n\n"
      << "// Refuses a case whose values the model cannot use.\n"
      << "void require(bool holds, const std::string& what) {\n  if (!holds) throw vibro::InputError(what);\n}\n\n";
    if (!harmonic_keys_.empty())
      o << "// cos or sin of (k t + phase) as on_cos cos(wt) + on_sin sin(wt): the engine sees time through the\n"
        << "// forcing's phase only, so k must be the forcing's angular frequency w or -w.\n"
        << "struct Harmonic {\n  double on_cos, on_sin;\n};\n"
        << "Harmonic harmonic(bool is_cos, double k, double phase, double w) {\n"
        << "  require(std::fabs(std::fabs(k) - w) <= 1e-12 * w, \"a forcing term's angular frequency is not the forcing's 2 pi / period\");\n"
        << "  const double s = k > 0 ? 1.0 : -1.0;\n"
        << "  if (phase == 0) return is_cos ? Harmonic{1, 0} : Harmonic{0, s};\n"
        << "  if (is_cos) return {std::cos(phase), -s * std::sin(phase)};\n"
        << "  return {std::sin(phase), s * std::cos(phase)};\n}\n\n";
  }

  void constructor(std::ostringstream& o) const {
    o << "  Model()\n      : HybridModel<" << n_ << ">({" << quoted(name_) << ",\n                        "
      << quoted(s_.summary) << ",\n                        {";
    for (std::size_t i = 0; i < s_.states.size(); ++i)
      o << (i ? ", " : "") << "{" << quoted(s_.states[i].name) << ", " << quoted(s_.states[i].unit) << "}";
    o << "},\n                        {";
    for (std::size_t i = 0; i < s_.parameters.size(); ++i) {
      const ParameterSpec& p = s_.parameters[i];
      o << (i ? ",\n                         " : "") << "ParameterSpec::real(" << quoted(p.name) << ", "
        << (p.group == ParameterGroup::Initial ? "G::Initial" : "G::Physics") << ", " << quoted(p.unit) << ", "
        << literal(p.default_value) << ", " << literal(p.min) << ", " << literal(p.max) << ", " << quoted(p.description) << ")"
        << (p.min_inclusive || std::isinf(p.min) ? "" : ".open_below()") << (p.max_inclusive || std::isinf(p.max) ? "" : ".open_above()");
    }
    o << "},\n                        {";
    static const std::map<WindowStat, const char*> stats{
        {WindowStat::ImpactsPerPeriod, "ImpactsPerPeriod"}, {WindowStat::ImpactSpeed, "ImpactSpeed"},
        {WindowStat::ImpactPhase, "ImpactPhase"},           {WindowStat::Maximum, "Maximum"},
        {WindowStat::Minimum, "Minimum"},                   {WindowStat::HalfPeakToPeak, "HalfPeakToPeak"},
        {WindowStat::Drift, "Drift"}};
    for (std::size_t i = 0; i < s_.observables.size(); ++i)
      o << (i ? ", " : "") << "{WindowStat::" << stats.at(s_.observables[i].stat) << ", " << quoted(s_.observables[i].component) << "}";
    o << "},\n                        " << quoted(s_.time_unit) << "}) {\n";
    if (!s_.classes.empty()) {
      o << "    explain_classes({";
      for (std::size_t i = 0; i < s_.classes.size(); ++i)
        o << (i ? ",\n                     " : "") << "{" << quoted(s_.classes[i].code) << ", " << quoted(s_.classes[i].meaning) << "}";
      o << "});\n";
    }
    o << "  }\n\n";
  }

  std::string condition(const Expr& left, const std::string& relation, const Expr& right) const {
    return cpp(left) + " " + relation + " " + cpp(right);
  }

  static void collect_states(const Expr& e, std::set<int>& out) {
    if (e.kind == ExprKind::Name && e.refers == NameKind::State) out.insert(e.index);
    for (const auto& a : e.args) collect_states(a, out);
  }

  void describe(std::ostringstream& o) {
    std::ostringstream body;  // written first: it decides which parameters describe() reads
    body << "    vibro::HybridDescription<" << n_ << "> d;\n";
    for (const auto& r : s_.requirements)
      body << "    if (!(" << condition(r.left, r.relation, r.right) << "))\n      throw vibro::InfeasibleCase("
           << quoted(r.message + " (required: " + r.condition + ")") << ");\n";
    body << "    d.period = " << cpp(s_.period) << ";\n"
         << "    require(d.period > 0 && std::isfinite(d.period), \"the period is not a positive finite number\");\n";
    if (!harmonic_keys_.empty()) {
      body << "    const double w = 2 * M_PI / d.period;\n";
      for (std::size_t h = 0; h < harmonic_keys_.size(); ++h)
        body << "    const Harmonic h" << h << " = harmonic(" << harmonic_keys_[h] << ", w);\n";
    }
    for (int i = 0; i < n_; ++i) {
      const StateDecl& st = s_.states[static_cast<std::size_t>(i)];
      body << "    d.initial[" << i << "] = " << cpp(st.initial) << ";\n";
      if (st.scale)
        body << "    d.scales[" << i << "] = " << cpp(*st.scale) << ";\n    require(d.scales[" << i << "] > 0 && std::isfinite(d.scales["
             << i << "]), \"the scale of " << st.name << " is not a positive finite number\");\n";
    }
    for (std::size_t m = 0; m < s_.modes.size(); ++m) mode(body, m);
    for (const auto& g : s_.guards) {
      if (g.is_stop && !g.mapped_impact) stop(body, g);
      else switch_guard(body, g);
    }
    if (!s_.starts.empty()) {
      body << "    d.initial_mode = ";
      bool closed = false;
      for (const auto& st : s_.starts) {
        if (!st.left) {
          body << mode_ids_[static_cast<std::size_t>(st.mode)];
          closed = true;
          break;
        }
        body << "(" << condition(*st.left, st.relation, *st.right) << ") ? " << mode_ids_[static_cast<std::size_t>(st.mode)] << " : ";
      }
      if (!closed) body << mode_ids_[0];
      body << ";\n";
    }
    body << "    return d;\n  }\n\n";
    o << "  vibro::HybridDescription<" << n_ << "> describe(const vibro::ParameterSet& p) const override {\n";
    for (const int i : used_parameters_)
      o << "    const double " << parameter_ids_[static_cast<std::size_t>(i)] << " = p.get(" << quoted(s_.parameters[static_cast<std::size_t>(i)].name) << ");\n";
    o << body.str();
  }

  void mode(std::ostringstream& o, std::size_t m) const {
    const ModeDecl& mode = s_.modes[m];
    std::vector<const Expr*> fields;  // the file's own expressions: their harmonic terms are known by address
    for (const auto& f : mode.fields) fields.push_back(&*f);
    o << "    [[maybe_unused]] const int " << mode_ids_[m] << " = d.mode(" << quoted(mode.name) << ", ";
    lambda(o, fields, "ds", "    ");
    o << ");\n";
  }

  // [=](const auto& s, const auto& drive, auto& OUT) { OUT[i] = values[i]; ... }, the states it reads named.
  void lambda(std::ostringstream& o, const std::vector<const Expr*>& values, const std::string& out, const std::string& indent) const {
    std::set<int> read;
    bool drive = false, constant = false;
    for (const Expr* f : values) {
      collect_states(*f, read);
      drive = drive || depends_on_time(*f);
      constant = constant || fixed_by_parameters(*f);
    }
    o << "[=](const auto& s, const auto& " << (drive ? "drive" : "/*drive*/") << ", auto& " << out << ") {\n";
    if (constant) o << indent << "  using T = typename std::decay_t<decltype(" << out << ")>::Scalar;\n";
    for (const int i : read)
      o << indent << "  const auto& " << state_ids_[static_cast<std::size_t>(i)] << " = s[" << i << "];\n";
    for (int i = 0; i < n_; ++i) {
      const Expr& f = *values[static_cast<std::size_t>(i)];
      o << indent << "  " << out << "[" << i << "] = " << (fixed_by_parameters(f) ? "T(" + cpp(f) + ")" : cpp(f)) << ";\n";
    }
    o << indent << "}";
  }

  // The law's common options; `what` the variable's name.
  void contact_options(std::ostringstream& o, const GuardDecl& g, const std::string& what) const {
    if (g.restitution)
      o << "    " << what << ".restitution = " << cpp(*g.restitution) << ";\n    require(" << what << ".restitution >= 0 && " << what
        << ".restitution <= 1, \"the restitution of stop '" << g.name << "' lies outside [0, 1]\");\n";
    if (!g.sticks) o << "    " << what << ".sticks = false;\n";
    if (g.mu)
      o << "    " << what << ".tangential = " << g.tangential << ";  // " << s_.states[static_cast<std::size_t>(g.tangential)].name
        << "\n    " << what << ".mu = " << cpp(*g.mu) << ";\n    require(" << what << ".mu >= 0 && std::isfinite(" << what
        << ".mu), \"the friction coefficient of stop '" << g.name << "' is not in [0, inf)\");\n";
    if (g.counted) o << "    " << what << ".counted = true;\n";
  }

  // A guard's block, its lines indented inside its braces.
  static void block(std::ostringstream& o, const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    bool first = true;
    while (std::getline(lines, line)) {
      const bool inner = !first && line != "    }";
      o << (inner ? "  " : "") << line << "\n";
      first = false;
    }
  }

  void stop(std::ostringstream& out, const GuardDecl& g) const {
    std::ostringstream o;
    stop_lines(o, g);
    block(out, o.str());
  }

  void switch_guard(std::ostringstream& out, const GuardDecl& g) const {
    std::ostringstream o;
    switch_lines(o, g);
    block(out, o.str());
  }

  void stop_lines(std::ostringstream& o, const GuardDecl& g) const {
    const Affine a = affine(g.function);
    const std::string mode = mode_ids_[static_cast<std::size_t>(g.mode)];
    const bool no_forcing = sym::is_number(a.a[static_cast<std::size_t>(n_)], 0) && sym::is_number(a.a[static_cast<std::size_t>(n_ + 1)], 0);
    const Expr& coefficient = a.a[static_cast<std::size_t>(g.bodies.back().position)];
    const bool unit = sym::is_number(coefficient, 1) || sym::is_number(coefficient, -1);
    o << "    {  // stop " << g.name << "\n";
    if (g.bodies.size() == 1 && !g.bodies[0].mass && no_forcing && unit) {
      const bool above = sym::is_number(coefficient, -1);  // gap = at - x: the body stays below
      o << "    vibro::StopLaw stop;\n    stop.position = " << g.position << ";  // " << state_ids_[static_cast<std::size_t>(g.position)]
        << "\n    stop.velocity = " << g.velocity << ";  // " << state_ids_[static_cast<std::size_t>(g.velocity)]
        << "\n    stop.at = " << cpp(above ? a.b : sym::negate(a.b)) << ";\n";
      if (!above) o << "    stop.stop_above = false;\n";
      contact_options(o, g, "stop");
      o << "    d.stop(" << mode << ", " << quoted(g.name) << ", stop);\n    }\n";
      return;
    }
    o << "    vibro::GapLaw gap;\n";
    for (const StopBody& body : g.bodies) {
      const std::string mass = body.mass ? cpp(*body.mass) : "1.0";
      o << "    gap.terms.push_back({" << body.position << ", " << body.velocity << ", "
        << cpp(a.a[static_cast<std::size_t>(body.position)]) << ", " << mass << "});  // "
        << state_ids_[static_cast<std::size_t>(body.position)] << "\n";
      if (body.mass) o << "    require(" << mass << " > 0, \"the mass of " << s_.states[static_cast<std::size_t>(body.position)].name << " in stop '" << g.name << "' is not positive\");\n";
    }
    forcing_and_constant(o, a, "gap");
    contact_options(o, g, "gap");
    o << "    d.gap(" << mode << ", " << quoted(g.name) << ", gap);\n    }\n";
  }

  void forcing_and_constant(std::ostringstream& o, const Affine& a, const std::string& what) const {
    if (!sym::is_number(a.a[static_cast<std::size_t>(n_)], 0)) o << "    " << what << ".a_cos = " << cpp(a.a[static_cast<std::size_t>(n_)]) << ";\n";
    if (!sym::is_number(a.a[static_cast<std::size_t>(n_ + 1)], 0)) o << "    " << what << ".a_sin = " << cpp(a.a[static_cast<std::size_t>(n_ + 1)]) << ";\n";
    if (!sym::is_number(a.b, 0)) o << "    " << what << ".b = " << cpp(a.b) << ";\n";
  }

  void switch_lines(std::ostringstream& o, const GuardDecl& g) const {
    const Affine a = affine(g.function);
    if (g.is_stop)
      o << "    {  // stop " << g.name << ": an impact switch, its gap " << (g.auxiliary >= 0 ? "(the auxiliary state) " : "")
        << "falling through 0, its law the reset map\n    vibro::SwitchGuard<" << n_ << "> guard;\n";
    else
      o << "    {  // switch " << g.name << ": the guard's function " << (g.crossing == Crossing::Falling ? "falls below" : "rises above")
        << " 0\n    vibro::SwitchGuard<" << n_ << "> guard;\n";
    for (int i = 0; i < n_; ++i)
      if (!sym::is_number(a.a[static_cast<std::size_t>(i)], 0))
        o << "    guard.a[" << i << "] = " << cpp(a.a[static_cast<std::size_t>(i)]) << ";  // " << state_ids_[static_cast<std::size_t>(i)] << "\n";
    forcing_and_constant(o, a, "guard");
    const int target = g.is_stop ? g.mode : g.target;
    o << "    guard.crossing = vibro::Crossing::" << (g.is_stop || g.crossing == Crossing::Falling ? "Falling" : "Rising") << ";\n"
      << "    guard.target = " << mode_ids_[static_cast<std::size_t>(target)] << ";\n";
    if (g.is_stop) {
      o << "    guard.impact = true;\n";
      if (g.counted) o << "    guard.counted = true;\n";
      if (g.restitution)
        o << "    require(" << cpp(*g.restitution) << " >= 0 && " << cpp(*g.restitution) << " <= 1, \"the restitution of stop '" << g.name
          << "' lies outside [0, 1]\");\n";
    }
    if (g.map) {
      std::vector<Expr> kept;  // the states the map keeps
      kept.reserve(static_cast<std::size_t>(n_));
      std::vector<const Expr*> values;
      for (int i = 0; i < n_; ++i) {
        const auto reset = std::find_if(g.resets.begin(), g.resets.end(), [i](const auto& r) { return r.first == i; });
        if (reset != g.resets.end()) {
          values.push_back(&reset->second);
        } else {
          kept.push_back(sym::state(i, s_.states[static_cast<std::size_t>(i)].name));
          values.push_back(&kept.back());
        }
      }
      o << "    guard.map = d.reset_map(";
      lambda(o, values, "after", "    ");
      o << ");\n";
    }
    for (const auto& [state, value] : g.map ? std::vector<std::pair<int, Expr>>{} : g.resets) {
      o << "    // reset " << s_.states[static_cast<std::size_t>(state)].name << "\n";
      Expr zero = value;
      for (int i = 0; i < n_; ++i) {
        o << "    guard.jump(" << state << ", " << i << ") = " << cpp(sym::derivative(value, i, s_.file)) << ";\n";
        zero = sym::substituted(zero, i, sym::number(0));
      }
      o << "    guard.shift[" << state << "] = " << cpp(zero) << ";\n";
    }
    if (g.rests) o << "    guard.rest_velocity = " << g.velocity << ";  // " << state_ids_[static_cast<std::size_t>(g.velocity)] << "\n";
    o << "    d.switch_guard(" << mode_ids_[static_cast<std::size_t>(g.mode)] << ", " << quoted(g.name) << ", guard);\n    }\n";
  }

  // The file's `symmetry` lines as the override that declares them (docs/writing_a_model.md).
  void symmetry(std::ostringstream& o) const {
    if (!s_.symmetry) return;
    const SymmetryDecl& s = *s_.symmetry;
    const std::size_t n = s.images.size();
    o << "\n  // The file's symmetry lines.\n"
      << "  std::optional<vibro::HalfPeriodSymmetry> half_period_symmetry(const vibro::ParameterSet&) const override {\n"
      << "    vibro::HalfPeriodSymmetry symmetry;\n"
      << "    symmetry.reflection = Eigen::MatrixXd::Zero(" << n << ", " << n << ");\n";
    for (std::size_t i = 0; i < n; ++i)
      o << "    symmetry.reflection(" << i << ", " << s.images[i] << ") = " << (s.signs[i] < 0 ? "-1" : "1") << ";\n";
    for (const auto& [a, b] : s.swapped_modes) o << "    symmetry.swap_modes(" << quoted(a) << ", " << quoted(b) << ");\n";
    o << "    return symmetry;\n  }\n";
  }

  void validate(std::ostringstream& o) {
    o << "  // The requirements, and a start on the open side of the initial mode's stops (at t = 0), as the\n"
      << "  // model file checks them: a sweep is refused only when no case passes.\n"
      << "  void validate(const vibro::ParameterSet& p) const override {\n";
    std::ostringstream body;
    for (const auto& r : s_.requirements) {
      used_parameters_.clear();
      body << "    if (!(" << condition(r.left, r.relation, r.right) << ")) throw vibro::InputError("
           << quoted(r.message + " (required: " + r.condition + ")") << ");\n";
      for (const int i : used_parameters_) read_in_validate_.insert(i);
    }
    for (const int i : read_in_validate_)
      o << "    const double " << parameter_ids_[static_cast<std::size_t>(i)] << " = p.get(" << quoted(s_.parameters[static_cast<std::size_t>(i)].name) << ");\n";
    o << body.str()
      << "    const auto d = describe(p);\n"
      << "    for (const auto& g : d.guards()) {\n"
      << "      if (g.mode != d.initial_mode || !(g.is_stop || g.change.impact)) continue;\n"
      << "      double gap = g.is_stop ? g.gap.a_cos + g.gap.b : g.change.a_cos + g.change.b;  // t = 0: cos wt = 1, sin wt = 0\n"
      << "      for (const auto& term : g.gap.terms) gap += term.coefficient * d.initial[term.position];\n"
      << "      if (!g.is_stop) gap += g.change.a.dot(d.initial);  // an impact switch: its gap (a curved stop's auxiliary state)\n"
      << "      if (gap < 0) throw vibro::InputError(\"the initial state lies beyond stop '\" + g.name + \"'\");\n"
      << "    }\n  }\n";
  }

  const ModelFileSpec& s_;
  std::string name_, origin_;
  int n_;
  std::set<std::string> used_;
  std::vector<std::string> parameter_ids_, state_ids_, mode_ids_;
  std::map<const Expr*, HarmonicTerm> harmonics_;
  std::map<std::string, int> harmonic_index_;
  std::vector<std::string> harmonic_keys_;
  mutable std::set<int> used_parameters_, read_in_validate_;
};

}  // namespace

std::string cpp_model_source(const ModelFileSpec& spec, const std::string& model_name, const std::string& origin) {
  return Writer(spec, model_name, origin).source();
}

}  // namespace vibro::model_file
