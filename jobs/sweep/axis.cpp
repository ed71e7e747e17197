#include "jobs/sweep/axis.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<double> parse_numbers(const std::string& text, const std::string& where) {
  std::vector<double> out;
  if (!text.empty() && text.back() == ',')
    throw InputError(where + ": empty value after the last ',' in '" + echoed(text) + "'");
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    item = trim(item);
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !std::isfinite(v))
      throw InputError(where + ": '" + echoed(item) + "' is not a number (axis syntax: linspace(a, b, n), "
                       "logspace(a, b, n), range(a, b, step) or a list v1, v2, ...)");
    out.push_back(v);
  }
  return out;
}

int count_argument(double n, const std::string& where) {
  if (n < 1 || n != std::floor(n) || n > 1e9)
    throw InputError(where + ": the number of values must be an integer in [1, 1e9], got " + std::to_string(n));
  return static_cast<int>(n);
}

}  // namespace

AxisPlan plan_axis(const std::string& name, const std::string& expression, const std::string& where) {
  AxisPlan plan;
  plan.name = name;
  plan.expression = trim(expression);
  const std::string& text = plan.expression;
  const auto open = text.find('(');
  if (open != std::string::npos) {
    if (text.back() != ')') throw InputError(where + ": missing ')' in '" + echoed(text) + "'");
    const std::string function = trim(text.substr(0, open));
    const auto args = parse_numbers(text.substr(open + 1, text.size() - open - 2), where);
    if (args.size() != 3) throw InputError(where + ": " + function + "() takes 3 arguments, got " + std::to_string(args.size()));
    plan.first = args[0];
    plan.last = args[1];
    if (function == "linspace") {
      plan.kind = AxisPlan::Kind::Linspace;
      plan.count = count_argument(args[2], where);
    } else if (function == "logspace") {
      plan.kind = AxisPlan::Kind::Logspace;
      plan.count = count_argument(args[2], where);
      if (args[0] <= 0 || args[1] <= 0) throw InputError(where + ": logspace(a, b, n) needs a > 0 and b > 0");
    } else if (function == "range") {
      plan.kind = AxisPlan::Kind::Range;
      plan.step = args[2];
      if (args[2] == 0 || (args[1] - args[0]) / args[2] < 0)
        throw InputError(where + ": range(a, b, step) needs a step of the sign of b - a");
      plan.count = count_argument(std::floor((args[1] - args[0]) / args[2] * (1 + 1e-12)) + 1, where);
    } else {
      throw InputError(where + ": unknown axis function '" + echoed(function) + "'; expected linspace, logspace or range");
    }
  } else {
    plan.kind = AxisPlan::Kind::List;
    plan.list = parse_numbers(text, where);
    plan.count = static_cast<long long>(plan.list.size());
  }
  if (plan.count == 0) throw InputError(where + ": the axis has no values");
  return plan;
}

Axis build_axis(const AxisPlan& plan) {
  Axis axis{plan.name, plan.expression, {}};
  if (plan.kind == AxisPlan::Kind::List) {
    axis.values = plan.list;
    return axis;
  }
  const auto n = static_cast<int>(plan.count);
  const double a = plan.first, b = plan.last;
  axis.values.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    switch (plan.kind) {
      case AxisPlan::Kind::Linspace: axis.values.push_back(n == 1 ? a : a + (b - a) * i / (n - 1)); break;
      case AxisPlan::Kind::Logspace: axis.values.push_back(n == 1 ? a : a * std::pow(b / a, double(i) / (n - 1))); break;
      default: axis.values.push_back(a + i * plan.step); break;
    }
  }
  return axis;
}

}  // namespace vibro
