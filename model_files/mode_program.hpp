#pragma once
// A mode's whole vector field for doubles as one straight-line program over slots (FieldTape's layout:
// the N + 2 inputs, then one slot per operation), made from its components' stack programs
// (case_expression.hpp) with each repeated subexpression computed once (Model A's coupling force
// appears in both bodies' rates). It runs the stack programs' operations on the same operands, so it
// gives their bits, in fewer dispatches and without a stack: the field a sweep calls most. The jets
// (Floquet multipliers, shooting) and the tape recorder (batched and CUDA back ends) run the stack
// programs themselves.
#include <vector>

#include "engine/hybrid_model/field_tape.hpp"
#include "model_files/case_expression.hpp"

namespace vibro::model_file {

struct ModeProgram {
  static constexpr int kMaxSlots = 256;  // more: `usable` is false and the stack programs run
  FieldTape tape;                        // ops after the inputs; Constant ops for constants
  bool usable = false;
};

// The mode's program from its components' programs (one per state), `states` = N.
ModeProgram fuse_mode(const std::vector<const Program*>& components, int states);

namespace mode_program_detail {
// One operation; + - * / inline (the hot ones), the rest as the tape interpreter computes them.
inline double apply(const TapeOp& o, double a, double b) {
  switch (o.code) {
    case TapeCode::Constant: return o.constant;
    case TapeCode::Add: return a + b;
    case TapeCode::AddC: return a + o.constant;
    case TapeCode::Sub: return a - b;
    case TapeCode::SubC: return a - o.constant;
    case TapeCode::CSub: return o.constant - a;
    case TapeCode::Neg: return -a;
    case TapeCode::Mul: return a * b;
    case TapeCode::MulC: return a * o.constant;
    case TapeCode::Div: return a / b;
    case TapeCode::DivC: return a / o.constant;
    case TapeCode::CDiv: return o.constant / a;
    default: return field_tape_detail::value_of(o, a, b);
  }
}
}  // namespace mode_program_detail

// dx = the mode's field at the state x (N values) and the forcing phase (cos wt, sin wt).
template <class X, class DX>
void run_mode(const ModeProgram& p, const X& x, double cos_wt, double sin_wt, DX& dx) {
  constexpr int n = X::RowsAtCompileTime;
  double s[ModeProgram::kMaxSlots];
  for (int i = 0; i < n; ++i) s[i] = x[i];
  s[n] = cos_wt;
  s[n + 1] = sin_wt;
  double* out = s + n + 2;
  for (const TapeOp& o : p.tape.ops) *out++ = mode_program_detail::apply(o, s[o.a], s[o.b]);
  for (int i = 0; i < n; ++i) dx[i] = s[p.tape.outputs[static_cast<std::size_t>(i)]];
}

}  // namespace vibro::model_file
