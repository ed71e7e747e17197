#pragma once
// Derivatives of a model file's expressions (expression.hpp) with respect to a state component or
// the time, built with the trivial cases folded (x + 0, 1 * x, 0 * x, numbers with numbers) so that
// the result stays as short as a person would write it: the rate of a non-affine guard along a
// mode's field (an auxiliary state's field), and the coefficients of an affine guard.
#include <string>

#include "model_files/expression.hpp"

namespace vibro::model_file::symbolic {

inline constexpr int kTime = -1;  // the variable t

Expr number(double value, SourcePos pos = {});
Expr state(int index, const std::string& name, SourcePos pos = {});
Expr negate(Expr a);
Expr add(Expr a, Expr b);
Expr subtract(Expr a, Expr b);
Expr multiply(Expr a, Expr b);
Expr divide(Expr a, Expr b);
Expr call(const std::string& function, Expr argument);

bool is_number(const Expr& e, double value);
// Whether `e` reads state `variable` (or t, kTime).
bool depends_on(const Expr& e, int variable);

// de/d(variable): a state's index or kTime. Throws ModelFileError naming the place where e has no
// derivative along a run (min, max or sign of a value that changes).
Expr derivative(const Expr& e, int variable, const std::string& file);

// e with state `variable` (or t) replaced by `value`, the trivial cases folded.
Expr substituted(const Expr& e, int variable, const Expr& value);

}  // namespace vibro::model_file::symbolic
