#pragma once
// A model's vector field as data: the straight-line program its generic callable runs, recorded once
// per case (tape_scalar.hpp traces it), and an interpreter that runs that program on a CPU or a GPU.
//
// Why: the hybrid-model API holds a mode's field as a C++ callable, which a GPU kernel compiled into
// vibro cannot call. The API's fields are already generic (instantiated for double and for
// automatic-differentiation jets) and free of branches on the state, so running one with a recording
// scalar type yields the exact sequence of operations it performs: a tape. Interpreting the tape
// repeats those operations in the same order, so its values are the callable's to the bit (where the
// callable is compiled without floating-point contraction, as vibro is), and its derivatives repeat
// Eigen's AutoDiffScalar formulas operation for operation, so they are the jets' to the bit.
//
// Slots: op k of a tape defines slot k; the first `inputs` ops are the inputs x[0..N-1], cos(wt),
// sin(wt). Operands always name earlier slots. Host-and-device: + - * / and the <cmath> functions.
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/core/host_device.hpp"

namespace vibro {

// The operations a traced field may perform: AutoDiffScalar's set (what a field written for the
// jets can call), each in the variants whose derivative formulas differ (a jet with a double, a
// double with a jet, two jets).
enum class TapeCode : std::uint8_t {
  Input,     // inputs[constant]
  Constant,  // constant
  Add,       // a + b
  AddC,      // a + constant (or constant + a)
  Sub,       // a - b
  SubC,      // a - constant
  CSub,      // constant - a
  Neg,       // -a
  Mul,       // a * b
  MulC,      // a * constant (or constant * a)
  Div,       // a / b
  DivC,      // a / constant
  CDiv,      // constant / a
  Abs,
  Abs2,      // a * a
  Sqrt,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Sinh,
  Cosh,
  Tanh,
  Exp,
  Log,
  PowC,      // pow(a, constant)
  Atan2,     // atan2(a, b)
  Min,       // a.value < b.value ? a : b
  Max,       // a.value >= b.value ? a : b
  MinC,      // a.value <= constant ? a : constant
  MaxC,      // a.value >= constant ? a : constant
  CMin,      // constant < a.value ? constant : a
  CMax,      // constant > a.value ? constant : a
};

struct TapeOp {
  TapeCode code = TapeCode::Constant;
  std::int32_t a = -1, b = -1;  // operand slots
  double constant = 0;          // the constant operand, or the input's index
};

// A traced field: its ops (slot k is op k's result) and which slot each dx[i] is.
struct FieldTape {
  int inputs = 0;  // N + 2
  std::vector<TapeOp> ops;
  std::vector<std::int32_t> outputs;
};

namespace field_tape_detail {

// pow(a, c) as a compiled field computes it for a literal exponent: compilers fold c = -1, 0, 1, 2
// into 1/a, 1, a, a*a (GCC does at -O2, strict IEEE mode), which the C library's pow does not always
// match to the last bit (pow(a, 2) differs from a*a in ~0.1 % of arguments). A field whose exponent
// is a run-time value of exactly 2 or -1 therefore differs from its tape by an ulp there.
VIBRO_HD inline double folded_pow(double a, double c) {
  if (c == 2.0) return a * a;
  if (c == 1.0) return a;
  if (c == 0.0) return 1.0;
  if (c == -1.0) return 1.0 / a;
  return std::pow(a, c);
}

// The value of op `o` from its operands' values.
VIBRO_HD inline double value_of(const TapeOp& o, double a, double b) {
  const double c = o.constant;
  switch (o.code) {
    case TapeCode::Input:
    case TapeCode::Constant: return c;  // Input's value is set by the caller
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
    case TapeCode::Abs: return std::fabs(a);
    case TapeCode::Abs2: return a * a;
    case TapeCode::Sqrt: return std::sqrt(a);
    case TapeCode::Sin: return std::sin(a);
    case TapeCode::Cos: return std::cos(a);
    case TapeCode::Tan: return std::tan(a);
    case TapeCode::Asin: return std::asin(a);
    case TapeCode::Acos: return std::acos(a);
    case TapeCode::Sinh: return std::sinh(a);
    case TapeCode::Cosh: return std::cosh(a);
    case TapeCode::Tanh: return std::tanh(a);
    case TapeCode::Exp: return std::exp(a);
    case TapeCode::Log: return std::log(a);
    case TapeCode::PowC: return folded_pow(a, c);
    case TapeCode::Atan2: return std::atan2(a, b);
    case TapeCode::Min: return a < b ? a : b;
    case TapeCode::Max: return a >= b ? a : b;
    case TapeCode::MinC: return a <= c ? a : c;
    case TapeCode::MaxC: return a >= c ? a : c;
    case TapeCode::CMin: return c < a ? c : a;
    case TapeCode::CMax: return c > a ? c : a;
  }
  return 0;
}

// Which operand a selecting op (Min ... CMax) picked: 0 a, 1 b, 2 the constant; -1 not a selection.
VIBRO_HD inline int picked(const TapeOp& o, double a, double b) {
  const double c = o.constant;
  switch (o.code) {
    case TapeCode::Min: return a < b ? 0 : 1;
    case TapeCode::Max: return a >= b ? 0 : 1;
    case TapeCode::MinC: return a <= c ? 0 : 2;
    case TapeCode::MaxC: return a >= c ? 0 : 2;
    case TapeCode::CMin: return c < a ? 2 : 0;
    case TapeCode::CMax: return c > a ? 2 : 0;
    default: return -1;
  }
}

}  // namespace field_tape_detail

// Runs the tape on `inputs` (N + 2 values); slots needs ops_count doubles. dx[i] = slots[outputs[i]].
VIBRO_HD inline void run_tape(const TapeOp* ops, int ops_count, const double* inputs, double* slots) {
  for (int k = 0; k < ops_count; ++k) {
    const TapeOp& o = ops[k];
    if (o.code == TapeCode::Input) {
      slots[k] = inputs[static_cast<int>(o.constant)];
      continue;
    }
    slots[k] = field_tape_detail::value_of(o, o.a >= 0 ? slots[o.a] : 0.0, o.b >= 0 ? slots[o.b] : 0.0);
  }
}

// Runs the tape with forward derivatives along W of the input directions, first_direction onwards:
// slot k's value in values[k] and its W derivatives in derivatives[k * W ...] (W = N + 2 from 0: the
// whole gradient; W = 1: one direction, in little memory, as a GPU thread wants). Each formula is
// Eigen's AutoDiffScalar's for that operation, operation for operation, and each derivative component
// is computed on its own: the results are the jets' bits whatever W.
template <int W>
VIBRO_HD void run_tape_with_derivatives(const TapeOp* ops, int ops_count, const double* inputs, int first_direction,
                                        double* values, double* derivatives) {
  using field_tape_detail::picked;
  using field_tape_detail::value_of;
  for (int k = 0; k < ops_count; ++k) {
    const TapeOp& o = ops[k];
    double* d = derivatives + k * W;
    const double a = o.a >= 0 ? values[o.a] : 0.0, b = o.b >= 0 ? values[o.b] : 0.0, c = o.constant;
    const double* da = o.a >= 0 ? derivatives + o.a * W : nullptr;
    const double* db = o.b >= 0 ? derivatives + o.b * W : nullptr;
    if (o.code == TapeCode::Input) {
      values[k] = inputs[static_cast<int>(c)];
      for (int i = 0; i < W; ++i) d[i] = first_direction + i == static_cast<int>(c) ? 1.0 : 0.0;
      continue;
    }
    const double v = value_of(o, a, b);
    values[k] = v;
    // The factor a unary op's derivative multiplies da by (AutoDiffScalar: x.derivatives() * factor).
    double factor = 0;
    switch (o.code) {
      case TapeCode::Input:
      case TapeCode::Constant:
        for (int i = 0; i < W; ++i) d[i] = 0.0;
        continue;
      case TapeCode::Add:
        for (int i = 0; i < W; ++i) d[i] = da[i] + db[i];
        continue;
      case TapeCode::AddC:
      case TapeCode::SubC:
        for (int i = 0; i < W; ++i) d[i] = da[i];
        continue;
      case TapeCode::Sub:
        for (int i = 0; i < W; ++i) d[i] = da[i] - db[i];
        continue;
      case TapeCode::CSub:
      case TapeCode::Neg:
        for (int i = 0; i < W; ++i) d[i] = -da[i];
        continue;
      case TapeCode::Mul:
        for (int i = 0; i < W; ++i) d[i] = da[i] * b + db[i] * a;
        continue;
      case TapeCode::Div: {
        const double scale = 1.0 / (b * b);
        for (int i = 0; i < W; ++i) d[i] = (da[i] * b - db[i] * a) * scale;
        continue;
      }
      case TapeCode::Atan2: {
        const double squared_hypot = a * a + b * b;
        for (int i = 0; i < W; ++i) d[i] = (da[i] * b - a * db[i]) / squared_hypot;
        continue;
      }
      case TapeCode::Min:
      case TapeCode::Max:
      case TapeCode::MinC:
      case TapeCode::MaxC:
      case TapeCode::CMin:
      case TapeCode::CMax: {
        const int from = picked(o, a, b);
        for (int i = 0; i < W; ++i) d[i] = from == 0 ? da[i] : from == 1 ? db[i] : 0.0;
        continue;
      }
      case TapeCode::MulC: factor = c; break;
      case TapeCode::DivC: factor = 1.0 / c; break;
      case TapeCode::CDiv: factor = -c / (a * a); break;
      case TapeCode::Abs: factor = a < 0 ? -1.0 : 1.0; break;
      case TapeCode::Abs2: factor = 2.0 * a; break;
      case TapeCode::Sqrt: factor = 0.5 / v; break;
      case TapeCode::Sin: factor = std::cos(a); break;
      case TapeCode::Cos: factor = -std::sin(a); break;
      case TapeCode::Tan: {
        const double cos_a = std::cos(a);
        factor = 1.0 / (cos_a * cos_a);
        break;
      }
      case TapeCode::Asin: factor = 1.0 / std::sqrt(1 - a * a); break;
      case TapeCode::Acos: factor = -1.0 / std::sqrt(1 - a * a); break;
      case TapeCode::Sinh: factor = std::cosh(a); break;
      case TapeCode::Cosh: factor = std::sinh(a); break;
      case TapeCode::Tanh: {
        const double cosh_a = std::cosh(a);
        factor = 1.0 / (cosh_a * cosh_a);
        break;
      }
      case TapeCode::Exp: factor = v; break;
      case TapeCode::Log: factor = 1.0 / a; break;
      case TapeCode::PowC: factor = c * field_tape_detail::folded_pow(a, c - 1); break;
    }
    for (int i = 0; i < W; ++i) d[i] = da[i] * factor;
  }
}

}  // namespace vibro
