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

Axis parse_axis(const std::string& name, const std::string& expression, const std::string& where) {
  Axis axis{name, trim(expression), {}};
  const std::string& text = axis.expression;
  const auto open = text.find('(');
  if (open != std::string::npos) {
    if (text.back() != ')') throw InputError(where + ": missing ')' in '" + echoed(text) + "'");
    const std::string function = trim(text.substr(0, open));
    const auto args = parse_numbers(text.substr(open + 1, text.size() - open - 2), where);
    if (args.size() != 3) throw InputError(where + ": " + function + "() takes 3 arguments, got " + std::to_string(args.size()));
    if (function == "linspace") {
      const int n = count_argument(args[2], where);
      for (int i = 0; i < n; ++i)
        axis.values.push_back(n == 1 ? args[0] : args[0] + (args[1] - args[0]) * i / (n - 1));
    } else if (function == "logspace") {
      const int n = count_argument(args[2], where);
      if (args[0] <= 0 || args[1] <= 0) throw InputError(where + ": logspace(a, b, n) needs a > 0 and b > 0");
      for (int i = 0; i < n; ++i)
        axis.values.push_back(n == 1 ? args[0] : args[0] * std::pow(args[1] / args[0], double(i) / (n - 1)));
    } else if (function == "range") {
      if (args[2] == 0 || (args[1] - args[0]) / args[2] < 0)
        throw InputError(where + ": range(a, b, step) needs a step of the sign of b - a");
      const int n = count_argument(std::floor((args[1] - args[0]) / args[2] * (1 + 1e-12)) + 1, where);
      for (int i = 0; i < n; ++i) axis.values.push_back(args[0] + i * args[2]);
    } else {
      throw InputError(where + ": unknown axis function '" + echoed(function) + "'; expected linspace, logspace or range");
    }
  } else {
    axis.values = parse_numbers(text, where);
  }
  if (axis.values.empty()) throw InputError(where + ": the axis has no values");
  return axis;
}

}  // namespace vibro
