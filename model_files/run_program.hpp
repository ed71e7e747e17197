#pragma once
// Runs a Program (case_expression.hpp) on a field's scalar type: double through the tape
// interpreter's own arithmetic (field_tape.hpp's value_of, so the batched and CUDA back ends, which
// interpret the traced tape, compute the same bits), the jets and the tape recorder through their
// operators and functions, found by argument-dependent lookup as in a C++ field.
#include <cmath>
#include <type_traits>

#include "model_files/case_expression.hpp"

namespace vibro::model_file {

namespace run_detail {

inline bool is_binary(TapeCode code) {
  return code == TapeCode::Add || code == TapeCode::Sub || code == TapeCode::Mul || code == TapeCode::Div ||
         code == TapeCode::Min || code == TapeCode::Max || code == TapeCode::Atan2;
}

template <class T>
T apply(const ProgramOp& o, const T& a, const T& b) {
  using std::abs, std::sqrt, std::sin, std::cos, std::exp, std::log, std::pow;
  const double c = o.constant;
  switch (o.code) {
    case TapeCode::Add: return a + b;
    case TapeCode::AddC: return a + c;
    case TapeCode::Sub: return a - b;
    case TapeCode::SubC: return a - c;
    case TapeCode::CSub: return c - a;
    case TapeCode::Neg: return -a;
    case TapeCode::Mul: return a * b;
    case TapeCode::MulC: return a * c;
    case TapeCode::Div: return a / b;
    case TapeCode::DivC: return a / c;
    case TapeCode::CDiv: return c / a;
    case TapeCode::Abs: return abs(a);
    case TapeCode::Sqrt: return sqrt(a);
    case TapeCode::Sin: return sin(a);
    case TapeCode::Cos: return cos(a);
    case TapeCode::Exp: return exp(a);
    case TapeCode::Log: return log(a);
    case TapeCode::PowC: return pow(a, c);
    case TapeCode::Min: return min(a, b);
    case TapeCode::Max: return max(a, b);
    case TapeCode::MinC: return min(a, c);
    case TapeCode::MaxC: return max(a, c);
    case TapeCode::CMin: return min(c, a);
    case TapeCode::CMax: return max(c, a);
    default: return a;  // compile() emits no other code
  }
}

}  // namespace run_detail

// The program's value at state x and forcing drive, in the scalar type T.
template <class T, class X, class D>
T run_program(const Program& p, const X& x, const D& drive) {
  constexpr int n = X::RowsAtCompileTime;
  T stack[kMaxProgramStack];
  int top = 0;
  for (const ProgramOp& o : p.ops) {
    if (o.code == TapeCode::Input) {
      const int i = static_cast<int>(o.constant);
      stack[top++] = i < n ? T(x[i]) : i == n ? T(drive.cos) : T(drive.sin);
    } else if (o.code == TapeCode::Constant) {
      stack[top++] = T(o.constant);
    } else if (run_detail::is_binary(o.code)) {
      --top;
      if constexpr (std::is_same_v<T, double>)
        stack[top - 1] = field_tape_detail::value_of(TapeOp{o.code, -1, -1, o.constant}, stack[top - 1], stack[top]);
      else
        stack[top - 1] = run_detail::apply<T>(o, stack[top - 1], stack[top]);
    } else {
      if constexpr (std::is_same_v<T, double>)
        stack[top - 1] = field_tape_detail::value_of(TapeOp{o.code, -1, -1, o.constant}, stack[top - 1], 0.0);
      else
        stack[top - 1] = run_detail::apply<T>(o, stack[top - 1], stack[top - 1]);
    }
  }
  return stack[0];
}

}  // namespace vibro::model_file
