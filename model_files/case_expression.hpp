#pragma once
// A model file's expressions for one case: the parameters' values fold every part of an expression
// they fix into a number, and what is left becomes a Program, a short stack program over the state
// and the forcing's (cos wt, sin wt) that runs on any scalar type the hybrid-model API instantiates a
// field with (double, the jets of engine/hybrid_model, the tape recorder). Its operations are the
// tape's (field_tape.hpp), each in the variant with a constant operand where one side is folded,
// so that a field runs the operations a C++ field written the same way runs, in the same order.
#include <vector>

#include "engine/hybrid_model/field_tape.hpp"
#include "model_files/expression.hpp"

namespace vibro::model_file {

// What a case fixes: the parameters' values and the forcing's angular frequency w = 2 pi / period.
struct CaseValues {
  std::vector<double> parameters;
  double omega = 0;
  int states = 0;
};

struct ProgramOp {
  TapeCode code;
  double constant;  // the constant operand, or Input's index: 0..N-1 the state, N cos(wt), N+1 sin(wt)
};

inline constexpr int kMaxProgramStack = 32;

struct Program {
  std::vector<ProgramOp> ops;
};

// The value of an expression its case fixes (period, initial values, restitution, conditions).
double case_value(const Expr& e, const CaseValues& c);

// The program computing `e` (a field component). Throws InputError naming the place when a forcing
// term's frequency is not the forcing's or the expression needs a deeper stack than kMaxProgramStack.
Program compile(const Expr& e, const CaseValues& c, const std::string& file);

// An affine expression's coefficients (a guard): e = a . x + a_cos cos(wt) + a_sin sin(wt) + b.
struct AffineCoefficients {
  std::vector<double> a;
  double a_cos = 0, a_sin = 0, b = 0;
};
AffineCoefficients affine_coefficients(const Expr& e, const CaseValues& c, const std::string& file);

}  // namespace vibro::model_file
