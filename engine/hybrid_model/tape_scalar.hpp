#pragma once
// Records a vector field's operations into a FieldTape (field_tape.hpp): TapeScalar is a scalar type
// (namespace vibro::tape) whose arithmetic appends ops to the tape being recorded instead of computing, with the same
// overloads as Eigen's AutoDiffScalar (a jet with a double, a double with a jet, two jets), so that a
// field's call resolves to the same operations as its jet instantiation does. trace_field(field)
// runs the callable once on TapeScalars and returns its tape.
//
// A comparison of two traced values is a branch on the state, which a tape cannot follow: tracing
// stops with UntraceableField (the field then runs on the cpu back end only). Host only.
#include <Eigen/Core>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/hybrid_model/field_tape.hpp"
#include "engine/hybrid_model/drive.hpp"

namespace vibro {

// Why a field's callable cannot be traced (it branches on the state, reads a value it never set, ...):
// such a field runs on the cpu back end only.
class UntraceableField : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace tape_scalar_detail {

// The tape being recorded on this thread (one trace at a time per thread).
struct Recorder {
  FieldTape tape;
  int push(TapeCode code, int a = -1, int b = -1, double constant = 0) {
    tape.ops.push_back({code, a, b, constant});
    return static_cast<int>(tape.ops.size()) - 1;
  }
};

inline Recorder*& current_recorder() {
  thread_local Recorder* recorder = nullptr;
  return recorder;
}

inline Recorder& recorder() {
  Recorder* r = current_recorder();
  if (!r) throw std::logic_error("TapeScalar used outside trace_field");
  return *r;
}

[[noreturn]] inline void branch(const char* what) {
  throw UntraceableField(std::string("it compares state-dependent values (") + what +
                         "): a branch on the state, which a tape cannot follow");
}

}  // namespace tape_scalar_detail

// TapeScalar and its functions live in their own namespace so that only argument-dependent lookup
// finds them (in namespace vibro, an unqualified sin(double) must still mean the C library's).
namespace tape {

class TapeScalar {
 public:
  TapeScalar() = default;  // unset: a field that leaves a component unset is untraceable
  TapeScalar(double constant)  // NOLINT: implicit, as AutoDiffScalar's (Eigen makes Scalar(0), Scalar(1))
      : slot_(tape_scalar_detail::recorder().push(TapeCode::Constant, -1, -1, constant)) {}
  static TapeScalar at(int slot) {
    TapeScalar s;
    s.slot_ = slot;
    return s;
  }
  int slot() const { return slot_; }

  friend TapeScalar op(TapeCode code, const TapeScalar& a, double constant = 0) {
    return at(tape_scalar_detail::recorder().push(code, a.checked(), -1, constant));
  }
  friend TapeScalar op(TapeCode code, const TapeScalar& a, const TapeScalar& b) {
    return at(tape_scalar_detail::recorder().push(code, a.checked(), b.checked()));
  }

  friend TapeScalar operator+(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Add, a, b); }
  friend TapeScalar operator+(const TapeScalar& a, double c) { return op(TapeCode::AddC, a, c); }
  friend TapeScalar operator+(double c, const TapeScalar& a) { return op(TapeCode::AddC, a, c); }
  friend TapeScalar operator-(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Sub, a, b); }
  friend TapeScalar operator-(const TapeScalar& a, double c) { return op(TapeCode::SubC, a, c); }
  friend TapeScalar operator-(double c, const TapeScalar& a) { return op(TapeCode::CSub, a, c); }
  friend TapeScalar operator-(const TapeScalar& a) { return op(TapeCode::Neg, a); }
  friend TapeScalar operator+(const TapeScalar& a) { return a; }
  friend TapeScalar operator*(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Mul, a, b); }
  friend TapeScalar operator*(const TapeScalar& a, double c) { return op(TapeCode::MulC, a, c); }
  friend TapeScalar operator*(double c, const TapeScalar& a) { return op(TapeCode::MulC, a, c); }
  friend TapeScalar operator/(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Div, a, b); }
  friend TapeScalar operator/(const TapeScalar& a, double c) { return op(TapeCode::DivC, a, c); }
  friend TapeScalar operator/(double c, const TapeScalar& a) { return op(TapeCode::CDiv, a, c); }
  // As AutoDiffScalar's: x += c keeps x's derivatives; x += y is x = x + y.
  TapeScalar& operator+=(const TapeScalar& b) { return *this = *this + b; }
  TapeScalar& operator+=(double c) { return *this = *this + c; }
  TapeScalar& operator-=(const TapeScalar& b) { return *this = *this - b; }
  TapeScalar& operator-=(double c) { return *this = *this - c; }
  TapeScalar& operator*=(const TapeScalar& b) { return *this = *this * b; }
  TapeScalar& operator*=(double c) { return *this = *this * c; }
  TapeScalar& operator/=(const TapeScalar& b) { return *this = *this / b; }
  TapeScalar& operator/=(double c) { return *this = *this / c; }

  // Comparisons decide on a value the tape does not know while recording: a branch on the state.
  friend bool operator<(const TapeScalar&, const TapeScalar&) { tape_scalar_detail::branch("<"); }
  friend bool operator<=(const TapeScalar&, const TapeScalar&) { tape_scalar_detail::branch("<="); }
  friend bool operator>(const TapeScalar&, const TapeScalar&) { tape_scalar_detail::branch(">"); }
  friend bool operator>=(const TapeScalar&, const TapeScalar&) { tape_scalar_detail::branch(">="); }
  friend bool operator==(const TapeScalar&, const TapeScalar&) { tape_scalar_detail::branch("=="); }
  friend bool operator!=(const TapeScalar&, const TapeScalar&) { tape_scalar_detail::branch("!="); }

 private:
  int checked() const {
    if (slot_ < 0) throw UntraceableField("it reads a value it never set");
    return slot_;
  }
  int slot_ = -1;
};

// AutoDiffScalar's functions, found by argument-dependent lookup as the jets' are.
#define VIBRO_TAPE_UNARY(name, code) \
  inline TapeScalar name(const TapeScalar& a) { return op(TapeCode::code, a); }
VIBRO_TAPE_UNARY(abs, Abs)
VIBRO_TAPE_UNARY(abs2, Abs2)
VIBRO_TAPE_UNARY(sqrt, Sqrt)
VIBRO_TAPE_UNARY(sin, Sin)
VIBRO_TAPE_UNARY(cos, Cos)
VIBRO_TAPE_UNARY(tan, Tan)
VIBRO_TAPE_UNARY(asin, Asin)
VIBRO_TAPE_UNARY(acos, Acos)
VIBRO_TAPE_UNARY(sinh, Sinh)
VIBRO_TAPE_UNARY(cosh, Cosh)
VIBRO_TAPE_UNARY(tanh, Tanh)
VIBRO_TAPE_UNARY(exp, Exp)
VIBRO_TAPE_UNARY(log, Log)
#undef VIBRO_TAPE_UNARY
inline TapeScalar pow(const TapeScalar& a, double c) { return op(TapeCode::PowC, a, c); }
inline TapeScalar atan2(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Atan2, a, b); }
// min and max select by value as AutoDiffScalar's (min)/(max) do: a data-dependent choice the tape
// records as one op, not a branch.
inline TapeScalar min(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Min, a, b); }
inline TapeScalar max(const TapeScalar& a, const TapeScalar& b) { return op(TapeCode::Max, a, b); }
inline TapeScalar min(const TapeScalar& a, double c) { return op(TapeCode::MinC, a, c); }
inline TapeScalar max(const TapeScalar& a, double c) { return op(TapeCode::MaxC, a, c); }
inline TapeScalar min(double c, const TapeScalar& a) { return op(TapeCode::CMin, a, c); }
inline TapeScalar max(double c, const TapeScalar& a) { return op(TapeCode::CMax, a, c); }
inline const TapeScalar& conj(const TapeScalar& a) { return a; }
inline const TapeScalar& real(const TapeScalar& a) { return a; }
inline TapeScalar imag(const TapeScalar&) { return TapeScalar(0.0); }

}  // namespace tape

using tape::TapeScalar;

// Traces `field(x, drive, dx)` of an N-state description: the tape of what it computes.
// Throws UntraceableField with the reason when the field cannot be recorded.
template <int N, class F>
FieldTape trace_field(const F& field) {
  using Recorder = tape_scalar_detail::Recorder;
  struct Scope {  // restores the thread's previous recorder (nested traces, exceptions)
    explicit Scope(Recorder& r) : previous(tape_scalar_detail::current_recorder()) {
      tape_scalar_detail::current_recorder() = &r;
    }
    ~Scope() { tape_scalar_detail::current_recorder() = previous; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Recorder* previous;
  };
  Recorder recorder;
  const Scope scope(recorder);
  recorder.tape.inputs = N + 2;
  Eigen::Matrix<TapeScalar, N, 1> x, dx;
  for (int i = 0; i < N + 2; ++i) recorder.push(TapeCode::Input, -1, -1, i);
  for (int i = 0; i < N; ++i) x[i] = TapeScalar::at(i);
  const Drive<TapeScalar> drive{TapeScalar::at(N), TapeScalar::at(N + 1)};
  field(x, drive, dx);
  for (int i = 0; i < N; ++i) {
    if (dx[i].slot() < 0)
      throw UntraceableField("it leaves dx[" + std::to_string(i) + "] unset");
    recorder.tape.outputs.push_back(dx[i].slot());
  }
  return std::move(recorder.tape);
}

}  // namespace vibro

namespace Eigen {

// A TapeScalar in Eigen's matrices, as AutoDiffScalar is: real, signed, needing initialisation.
template <>
struct NumTraits<vibro::TapeScalar> : NumTraits<double> {
  using Real = vibro::TapeScalar;
  using NonInteger = vibro::TapeScalar;
  using Nested = vibro::TapeScalar;
  using Literal = double;
  enum { RequireInitialization = 1 };
};

// double and TapeScalar mix in Eigen's expressions (a double matrix times a traced vector).
template <typename BinaryOp>
struct ScalarBinaryOpTraits<vibro::TapeScalar, double, BinaryOp> {
  using ReturnType = vibro::TapeScalar;
};
template <typename BinaryOp>
struct ScalarBinaryOpTraits<double, vibro::TapeScalar, BinaryOp> {
  using ReturnType = vibro::TapeScalar;
};

}  // namespace Eigen
