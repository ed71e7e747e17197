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

// Throws InputError naming `where` (e.g. "axes.a_hat") on malformed text.
Axis parse_axis(const std::string& name, const std::string& expression, const std::string& where);

}  // namespace vibro
