#include "model_files/file_model.hpp"

#include <cmath>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "model_files/model_file_parser.hpp"
#include "model_files/symbolic.hpp"

namespace vibro::model_file {

HybridModelInfo info_of(const ModelFileSpec& spec) {
  HybridModelInfo info;
  info.name = spec.name;
  info.summary = spec.summary;
  info.time_unit = spec.time_unit;
  for (const auto& s : spec.states) info.state.push_back({s.name, s.unit});
  info.parameters = spec.parameters;
  info.observables = spec.observables;
  return info;
}

namespace {
[[noreturn]] void refuse(const ModelFileSpec& spec, SourcePos pos, const std::string& what, double value, const std::string& accepted) {
  std::ostringstream out;
  out.precision(17);
  out << where(spec.file, pos) << ": " << what << " is " << value << " in this case; accepted: " << accepted;
  throw ModelFileError(out.str());
}

bool holds(double l, const std::string& relation, double r) {
  return relation == "<" ? l < r : relation == "<=" ? l <= r : relation == ">" ? l > r : l >= r;
}
}  // namespace

CaseValues case_values(const ModelFileSpec& spec, const ParameterSet& values) {
  CaseValues c;
  c.states = static_cast<int>(spec.states.size());
  // HybridModel's parameters begin with the file's, in its order; the numerics keys follow.
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) c.parameters.push_back(values.at(static_cast<int>(i)));
  const double period = case_value(spec.period, c);
  if (!(period > 0) || !std::isfinite(period)) refuse(spec, spec.period.pos, "the period", period, "a positive finite number");
  c.omega = 2 * M_PI / period;
  return c;
}

GapLaw stop_law(const ModelFileSpec& spec, const GuardDecl& g, const CaseValues& c) {
  const AffineCoefficients a = affine_coefficients(g.function, c, spec.file);
  GapLaw law;
  for (const StopBody& body : g.bodies) {
    const std::string& state = spec.states[static_cast<std::size_t>(body.position)].name;
    const double coefficient = a.a[static_cast<std::size_t>(body.position)];
    if (!(coefficient != 0) || !std::isfinite(coefficient))
      refuse(spec, g.function.pos, "the coefficient of " + state + " in stop '" + g.name + "'", coefficient, "a finite number other than 0");
    double mass = 1;
    if (body.mass) {
      mass = case_value(*body.mass, c);
      if (!(mass > 0) || !std::isfinite(mass))
        refuse(spec, body.mass->pos, "the mass of " + state + " in stop '" + g.name + "'", mass, "a positive finite number");
    }
    law.terms.push_back({body.position, body.velocity, coefficient, mass});
  }
  law.a_cos = a.a_cos;
  law.a_sin = a.a_sin;
  law.b = a.b;
  if (g.restitution) {
    law.restitution = case_value(*g.restitution, c);
    check_restitution(spec, g, c);
  }
  law.sticks = g.sticks;
  law.tangential = g.tangential;
  if (g.mu) {
    law.mu = case_value(*g.mu, c);
    if (!(law.mu >= 0) || !std::isfinite(law.mu)) refuse(spec, g.mu->pos, "the friction coefficient of stop '" + g.name + "'", law.mu, "[0, inf)");
  }
  law.counted = g.counted;
  return law;
}

void check_restitution(const ModelFileSpec& spec, const GuardDecl& g, const CaseValues& c) {
  if (!g.restitution) return;
  const double e = case_value(*g.restitution, c);
  if (!(e >= 0 && e <= 1)) refuse(spec, g.restitution->pos, "the restitution of stop '" + g.name + "'", e, "[0, 1]");
}

Expr reset_value(const ModelFileSpec& spec, const GuardDecl& g, int state) {
  for (const auto& [reset, value] : g.resets)
    if (reset == state) return value;
  return symbolic::state(state, spec.states[static_cast<std::size_t>(state)].name, g.pos);
}

AffineCoefficients reset_coefficients(const ModelFileSpec& spec, const GuardDecl& g, int state, const Expr& value,
                                      const CaseValues& c) {
  AffineCoefficients r = affine_coefficients(value, c, spec.file);
  if (r.a_cos != 0 || r.a_sin != 0)
    throw ModelFileError(where(spec.file, value.pos) + ": the reset of " + spec.states[static_cast<std::size_t>(state)].name +
                         " in switch '" + g.name + "' reads the forcing; accepted: constants times states and constants");
  return r;
}

double state_scale(const ModelFileSpec& spec, int state, const CaseValues& c) {
  const StateDecl& s = spec.states[static_cast<std::size_t>(state)];
  if (!s.scale) return 1;
  const double scale = case_value(*s.scale, c);
  if (!(scale > 0) || !std::isfinite(scale)) refuse(spec, s.scale->pos, "the scale of " + s.name, scale, "a positive finite number");
  return scale;
}

int initial_mode(const ModelFileSpec& spec, const CaseValues& c) {
  for (const auto& s : spec.starts) {
    if (!s.left) return s.mode;
    const double l = case_value(*s.left, c), r = case_value(*s.right, c);
    if (holds(l, s.relation, r)) return s.mode;
  }
  return 0;
}

std::optional<HalfPeriodSymmetry> half_period_symmetry_of(const ModelFileSpec& spec) {
  if (!spec.symmetry) return std::nullopt;
  const auto n = static_cast<Eigen::Index>(spec.symmetry->images.size());
  HalfPeriodSymmetry symmetry;
  symmetry.reflection = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    symmetry.reflection(i, spec.symmetry->images[static_cast<std::size_t>(i)]) = spec.symmetry->signs[static_cast<std::size_t>(i)];
  for (const auto& [a, b] : spec.symmetry->swapped_modes) symmetry.swap_modes(a, b);
  return symmetry;
}

std::string failed_requirement(const ModelFileSpec& spec, const CaseValues& c) {
  for (const auto& r : spec.requirements) {
    const double l = case_value(r.left, c), right = case_value(r.right, c);
    if (holds(l, r.relation, right)) continue;
    std::ostringstream out;
    out.precision(17);
    out << where(spec.file, r.pos) << ": " << r.message << " (required: " << r.condition << "; here " << l << " "
        << r.relation << " " << right << " fails)";
    return out.str();
  }
  return "";
}

void validate_case(const ModelFileSpec& spec, const ParameterSet& values) {
  const CaseValues c = case_values(spec, values);
  if (std::string why = failed_requirement(spec, c); !why.empty()) throw InputError(why);
  std::vector<double> initial;
  for (const auto& state : spec.states) initial.push_back(case_value(state.initial, c));
  const int mode = initial_mode(spec, c);
  for (const auto& g : spec.guards) {
    if (!g.is_stop || g.mode != mode) continue;
    const AffineCoefficients a = affine_coefficients(g.function, c, spec.file);
    double gap = a.a_cos + a.b;  // t = 0: cos wt = 1, sin wt = 0
    for (std::size_t i = 0; i < initial.size(); ++i) gap += a.a[i] * initial[i];
    if (gap >= 0) continue;
    std::ostringstream out;
    out.precision(17);
    out << where(spec.file, g.pos) << ": the initial state lies beyond stop '" << g.name << "' (its gap is " << gap
        << " at the start); accepted: an initial state where the stop's relation holds";
    throw InputError(out.str());
  }
}

#define VIBRO_FILE_MODEL_SIZE(n) \
  std::unique_ptr<Model> make_file_model_##n(std::shared_ptr<const ModelFileSpec> spec);
VIBRO_FILE_MODEL_SIZE(1)
VIBRO_FILE_MODEL_SIZE(2)
VIBRO_FILE_MODEL_SIZE(3)
VIBRO_FILE_MODEL_SIZE(4)
VIBRO_FILE_MODEL_SIZE(5)
VIBRO_FILE_MODEL_SIZE(6)
VIBRO_FILE_MODEL_SIZE(7)
VIBRO_FILE_MODEL_SIZE(8)
#undef VIBRO_FILE_MODEL_SIZE

std::unique_ptr<Model> make_file_model(std::shared_ptr<const ModelFileSpec> spec) {
  static_assert(kMaxFileStates == 8, "one make_file_model_<n> per size");
  switch (spec->states.size()) {
    case 1: return make_file_model_1(std::move(spec));
    case 2: return make_file_model_2(std::move(spec));
    case 3: return make_file_model_3(std::move(spec));
    case 4: return make_file_model_4(std::move(spec));
    case 5: return make_file_model_5(std::move(spec));
    case 6: return make_file_model_6(std::move(spec));
    case 7: return make_file_model_7(std::move(spec));
    default: return make_file_model_8(std::move(spec));
  }
}

}  // namespace vibro::model_file
