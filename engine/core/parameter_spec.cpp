#include "engine/core/parameter_spec.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "engine/core/input_error.hpp"
#include "engine/core/suggest.hpp"

namespace vibro {

const char* group_section(ParameterGroup group) {
  switch (group) {
    case ParameterGroup::Physics: return "parameters";
    case ParameterGroup::Initial: return "initial";
    case ParameterGroup::Numerics: return "numerics";
  }
  return "parameters";
}

ParameterSpec ParameterSpec::real(std::string name, ParameterGroup group, std::string unit, double value,
                                  double lo, double hi, std::string description) {
  ParameterSpec spec;
  spec.name = std::move(name);
  spec.group = group;
  spec.unit = std::move(unit);
  spec.default_value = value;
  spec.min = lo;
  spec.max = hi;
  spec.description = std::move(description);
  return spec;
}

ParameterSpec ParameterSpec::choice(std::string name, ParameterGroup group, std::vector<std::string> choices,
                                    std::string default_choice, std::string description) {
  ParameterSpec spec;
  spec.name = std::move(name);
  spec.group = group;
  spec.kind = ParameterKind::Choice;
  spec.unit = "-";
  spec.choices = std::move(choices);
  spec.description = std::move(description);
  spec.min = 0;
  spec.max = static_cast<double>(spec.choices.size()) - 1;
  for (std::size_t i = 0; i < spec.choices.size(); ++i)
    if (spec.choices[i] == default_choice) spec.default_value = static_cast<double>(i);
  return spec;
}

bool ParameterSpec::in_range(double value) const {
  if (!std::isfinite(value)) return false;
  // Subnormal: no physical value, and arithmetic on it runs about 100 times slower (a ball balancer
  // with k_x = 1e-320 took 120 microseconds a step).
  if (value != 0 && std::fabs(value) < std::numeric_limits<double>::min()) return false;
  if (kind != ParameterKind::Real && value != std::floor(value)) return false;
  const bool above_min = min_inclusive ? value >= min : value > min;
  const bool below_max = max_inclusive ? value <= max : value < max;
  return above_min && below_max;
}

// " m/s" for messages; nothing for dimensionless keys.
static std::string unit_suffix(const std::string& unit) { return unit.empty() || unit == "-" ? "" : " " + unit; }

static std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out.precision(12);
  out << v;
  return out.str();
}

std::string ParameterSpec::accepted_range() const {
  if (kind == ParameterKind::Choice) {
    std::string text = "one of: ";
    for (std::size_t i = 0; i < choices.size(); ++i) text += (i ? ", " : "") + choices[i];
    return text;
  }
  std::string text = (min_inclusive && !std::isinf(min) ? "[" : "(") + number(min) + ", " + number(max) +
                     (max_inclusive && !std::isinf(max) ? "]" : ")");
  if (kind == ParameterKind::Integer) text = "an integer in " + text;
  return text;
}

std::string ParameterSpec::format_value(double value) const {
  if (kind == ParameterKind::Choice) {
    const auto i = static_cast<std::size_t>(value);
    return i < choices.size() ? choices[i] : "?";
  }
  return number(value);
}

double ParameterSpec::parse(const std::string& text) const {
  const std::string where = std::string(group_section(group)) + "." + name;
  if (kind == ParameterKind::Choice) {
    for (std::size_t i = 0; i < choices.size(); ++i)
      if (choices[i] == text) return static_cast<double>(i);
    throw InputError(where + " = '" + echoed(text) + "' is not accepted" + did_you_mean(text, choices) + "; expected " +
                     accepted_range());
  }
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  while (end && *end && std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (text.empty() || end == text.c_str() || *end != '\0')
    throw InputError(where + " = '" + echoed(text) + "' is not a number; expected " + accepted_range() + " " + unit);
  if (value != 0 && std::fabs(value) < std::numeric_limits<double>::min())
    throw InputError(where + " = " + echoed(text) + " is subnormal (below 2.2e-308 in magnitude); expected " +
                     accepted_range() + unit_suffix(unit));
  if (!in_range(value))
    throw InputError(where + " = " + echoed(text) + " is out of range; expected " + accepted_range() + unit_suffix(unit));
  return value;
}

ParameterSet::ParameterSet(const std::vector<ParameterSpec>* specs) : specs_(specs) {
  if (!specs) return;  // an empty set, to be assigned later
  values_.reserve(specs->size());
  for (const auto& spec : *specs) values_.push_back(spec.default_value);
}

int ParameterSet::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < specs_->size(); ++i)
    if ((*specs_)[i].name == name) return static_cast<int>(i);
  return -1;
}

double ParameterSet::get(const std::string& name) const {
  const int i = index_of(name);
  if (i < 0) throw InputError("unknown parameter '" + name + "'");
  return at(i);
}

void ParameterSet::set(const std::string& name, double value) {
  const int i = index_of(name);
  if (i < 0) throw InputError("unknown parameter '" + name + "'");
  set_at(i, value);
}

void ParameterSet::set_at(int index, double value) {
  const auto& spec = (*specs_)[static_cast<std::size_t>(index)];
  if (!spec.in_range(value))
    throw InputError(std::string(group_section(spec.group)) + "." + spec.name + " = " + spec.format_value(value) +
                     " is out of range; expected " + spec.accepted_range() + unit_suffix(spec.unit));
  values_[static_cast<std::size_t>(index)] = value;
}

const std::string& ParameterSet::choice(const std::string& name) const {
  const int i = index_of(name);
  if (i < 0) throw InputError("unknown parameter '" + name + "'");
  const auto& spec = (*specs_)[static_cast<std::size_t>(i)];
  return spec.choices.at(static_cast<std::size_t>(at(i)));
}

}  // namespace vibro
