#include "model_files/symbolic.hpp"

#include <cmath>

namespace vibro::model_file::symbolic {

Expr number(double value, SourcePos pos) {
  Expr e;
  e.kind = ExprKind::Number;
  e.number = value;
  e.pos = pos;
  return e;
}

Expr state(int index, const std::string& name, SourcePos pos) {
  Expr e;
  e.kind = ExprKind::Name;
  e.name = name;
  e.refers = NameKind::State;
  e.index = index;
  e.pos = pos;
  return e;
}

bool is_number(const Expr& e, double value) { return e.kind == ExprKind::Number && e.number == value; }

namespace {
bool is_a_number(const Expr& e) { return e.kind == ExprKind::Number; }
}  // namespace

Expr negate(Expr a) {
  if (is_a_number(a)) return number(a.number == 0 ? 0.0 : -a.number, a.pos);
  if (a.kind == ExprKind::Negate) return std::move(a.args[0]);
  Expr e;
  e.kind = ExprKind::Negate;
  e.pos = a.pos;
  e.args.push_back(std::move(a));
  return e;
}

Expr add(Expr a, Expr b) {
  if (is_number(a, 0)) return b;
  if (is_number(b, 0)) return a;
  if (is_a_number(a) && is_a_number(b)) return number(a.number + b.number, a.pos);
  const SourcePos pos = a.pos;
  return binary('+', std::move(a), std::move(b), pos);
}

Expr subtract(Expr a, Expr b) {
  if (is_number(b, 0)) return a;
  if (is_number(a, 0)) return negate(std::move(b));
  if (is_a_number(a) && is_a_number(b)) return number(a.number - b.number, a.pos);
  const SourcePos pos = a.pos;
  return binary('-', std::move(a), std::move(b), pos);
}

Expr multiply(Expr a, Expr b) {
  if (is_number(a, 0) || is_number(b, 0)) return number(0, a.pos);
  if (is_number(a, 1)) return b;
  if (is_number(b, 1)) return a;
  if (is_number(a, -1)) return negate(std::move(b));
  if (is_number(b, -1)) return negate(std::move(a));
  if (is_a_number(a) && is_a_number(b)) return number(a.number * b.number, a.pos);
  const SourcePos pos = a.pos;
  return binary('*', std::move(a), std::move(b), pos);
}

Expr divide(Expr a, Expr b) {
  if (is_number(a, 0)) return number(0, a.pos);
  if (is_number(b, 1)) return a;
  const SourcePos pos = a.pos;
  return binary('/', std::move(a), std::move(b), pos);
}

Expr call(const std::string& function, Expr argument) {
  Expr e;
  e.kind = ExprKind::Call;
  e.name = function;
  e.pos = argument.pos;
  e.args.push_back(std::move(argument));
  return e;
}

bool depends_on(const Expr& e, int variable) {
  if (e.kind == ExprKind::Name)
    return variable == kTime ? e.refers == NameKind::Time : e.refers == NameKind::State && e.index == variable;
  for (const auto& a : e.args)
    if (depends_on(a, variable)) return true;
  return false;
}

Expr derivative(const Expr& e, int variable, const std::string& file) {
  if (!depends_on(e, variable)) return number(0, e.pos);
  const auto d = [&](const Expr& a) { return derivative(a, variable, file); };
  switch (e.kind) {
    case ExprKind::Number: return number(0, e.pos);
    case ExprKind::Name: return number(1, e.pos);  // depends_on: it is the variable
    case ExprKind::Negate: return negate(d(e.args[0]));
    case ExprKind::Binary: {
      const Expr& a = e.args[0];
      const Expr& b = e.args[1];
      switch (e.op) {
        case '+': return add(d(a), d(b));
        case '-': return subtract(d(a), d(b));
        case '*': return add(multiply(d(a), b), multiply(a, d(b)));
        case '/':
          if (!depends_on(b, variable)) return divide(d(a), b);
          return divide(subtract(multiply(d(a), b), multiply(a, d(b))), multiply(b, b));
        default: {  // a^c, the exponent fixed by the parameters (the parser refuses any other)
          Expr exponent = subtract(b, number(1, b.pos));
          // x^2 -> 2 x, not 2 x^1 (the same value: a power of 1 is its base)
          Expr lowered = is_number(exponent, 1) ? a : is_number(exponent, 0) ? number(1, e.pos) : binary('^', a, std::move(exponent), e.pos);
          return multiply(multiply(b, std::move(lowered)), d(a));
        }
      }
    }
    case ExprKind::Call: {
      const Expr& a = e.args[0];
      if (e.name == "sin") return multiply(call("cos", a), d(a));
      if (e.name == "cos") return multiply(negate(call("sin", a)), d(a));
      if (e.name == "exp") return multiply(call("exp", a), d(a));
      if (e.name == "log") return divide(d(a), a);
      if (e.name == "sqrt") return divide(d(a), multiply(number(2, e.pos), call("sqrt", a)));
      if (e.name == "abs") return multiply(divide(a, call("abs", a)), d(a));
      throw ModelFileError(where(file, e.pos) + ": " + e.name + "() of a value that changes along a run has no rate "
                           "there; accepted in a guard that is not affine: + - * / ^, sin, cos, exp, log, sqrt, abs");
    }
  }
  return number(0, e.pos);
}

Expr substituted(const Expr& e, int variable, const Expr& value) {
  if (!depends_on(e, variable)) return e;
  switch (e.kind) {
    case ExprKind::Name: return value;
    case ExprKind::Negate: return negate(substituted(e.args[0], variable, value));
    case ExprKind::Binary: {
      Expr a = substituted(e.args[0], variable, value), b = substituted(e.args[1], variable, value);
      switch (e.op) {
        case '+': return add(std::move(a), std::move(b));
        case '-': return subtract(std::move(a), std::move(b));
        case '*': return multiply(std::move(a), std::move(b));
        case '/': return divide(std::move(a), std::move(b));
        default: return binary('^', std::move(a), std::move(b), e.pos);
      }
    }
    default: {
      Expr out = e;
      for (auto& a : out.args) a = substituted(a, variable, value);
      return out;
    }
  }
}

}  // namespace vibro::model_file::symbolic
