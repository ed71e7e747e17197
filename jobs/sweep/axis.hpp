#pragma once
// One sweep axis: a named parameter and its values, from `linspace(a, b, n)`, `logspace(a, b, n)`
// (n values from a to b, geometric), `range(a, b, step)` or an explicit list `v1, v2, ...`.
#include <string>
#include <vector>

namespace vibro {

struct Axis {
  std::string name;
  std::string expression;  // as written, for provenance
  std::vector<double> values;
};

// An axis expression checked and counted, its values not made yet: the size of a grid is known,
// and a grid too large refused, before any memory is spent on its axes.
struct AxisPlan {
  enum class Kind { Linspace, Logspace, Range, List };
  std::string name;
  std::string expression;
  Kind kind = Kind::List;
  double first = 0, last = 0, step = 0;  // linspace/logspace: a, b; range: a, step
  long long count = 0;
  std::vector<double> list;  // Kind::List: the values as written
};

// Throws InputError naming `where` (e.g. "axes.a_hat") on malformed text.
AxisPlan plan_axis(const std::string& name, const std::string& expression, const std::string& where);
Axis build_axis(const AxisPlan& plan);
inline Axis parse_axis(const std::string& name, const std::string& expression, const std::string& where) {
  return build_axis(plan_axis(name, expression, where));
}

}  // namespace vibro
