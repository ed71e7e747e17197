#include "model_files/case_expression.hpp"

#include <cmath>
#include <sstream>

#include "model_files/source_cursor.hpp"

namespace vibro::model_file {

namespace {

double fold_binary(char op, double a, double b) {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    default: return std::pow(a, b);
  }
}

double fold_call(const std::string& name, const std::vector<double>& v) {
  if (name == "sin") return std::sin(v[0]);
  if (name == "cos") return std::cos(v[0]);
  if (name == "exp") return std::exp(v[0]);
  if (name == "log") return std::log(v[0]);
  if (name == "sqrt") return std::sqrt(v[0]);
  if (name == "abs") return std::fabs(v[0]);
  if (name == "sign") return static_cast<double>((v[0] > 0) - (v[0] < 0));
  if (name == "min") return v[0] < v[1] ? v[0] : v[1];
  return v[0] >= v[1] ? v[0] : v[1];  // max
}

bool is_forcing_term(const Expr& e) {
  return e.kind == ExprKind::Call && (e.name == "cos" || e.name == "sin") && depends_on_time(e.args[0]);
}

// An argument k t + phi (the parser checked that it has this form).
struct LinearInTime {
  double k = 0, phi = 0;
};

LinearInTime linear_in_time(const Expr& e, const CaseValues& c) {
  if (!depends_on_time(e)) return {0, case_value(e, c)};
  switch (e.kind) {
    case ExprKind::Name: return {1, 0};  // t
    case ExprKind::Negate: {
      const auto a = linear_in_time(e.args[0], c);
      return {-a.k, -a.phi};
    }
    case ExprKind::Binary: {
      const auto a = linear_in_time(e.args[0], c), b = linear_in_time(e.args[1], c);
      if (e.op == '+') return {a.k + b.k, a.phi + b.phi};
      if (e.op == '-') return {a.k - b.k, a.phi - b.phi};
      if (e.op == '*') return depends_on_time(e.args[0]) ? LinearInTime{a.k * b.phi, a.phi * b.phi} : LinearInTime{a.phi * b.k, a.phi * b.phi};
      return {a.k / b.phi, a.phi / b.phi};  // '/' by a fixed value
    }
    default: return {};
  }
}

// cos or sin of (k t + phi) as on_cos cos(wt) + on_sin sin(wt) + constant.
struct ForcingTerm {
  double on_cos = 0, on_sin = 0, constant = 0;
};

ForcingTerm forcing_term(const Expr& call, const CaseValues& c, const std::string& file) {
  const LinearInTime arg = linear_in_time(call.args[0], c);
  const bool is_cos = call.name == "cos";
  if (arg.k == 0) return {0, 0, is_cos ? std::cos(arg.phi) : std::sin(arg.phi)};
  const double s = arg.k > 0 ? 1.0 : -1.0;
  if (!(std::fabs(std::fabs(arg.k) - c.omega) <= 1e-12 * c.omega)) {
    std::ostringstream out;
    out.precision(17);
    out << where(file, call.pos) << ": " << call.name << "'s argument has angular frequency " << arg.k
        << " in this case, the forcing's is 2 pi / period = " << c.omega
        << ": a field sees time only through cos(w t) and sin(w t) (write a harmonic as a product of them)";
    throw ModelFileError(out.str());
  }
  // cos(s wt + phi) = cos(phi) cos(wt) - s sin(phi) sin(wt); sin(s wt + phi) = sin(phi) cos(wt) + s cos(phi) sin(wt).
  if (arg.phi == 0) return is_cos ? ForcingTerm{1, 0, 0} : ForcingTerm{0, s, 0};
  if (is_cos) return {std::cos(arg.phi), -s * std::sin(arg.phi), 0};
  return {std::sin(arg.phi), s * std::cos(arg.phi), 0};
}

class Compiler {
 public:
  Compiler(const CaseValues& c, const std::string& file) : c_(c), file_(file) {}

  struct Folded {
    bool constant;
    double value;
  };

  Folded emit(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number: return {true, e.number};
      case ExprKind::Name:
        if (e.refers == NameKind::State) {
          push(TapeCode::Input, e.index, e);
          return {false, 0};
        }
        return {true, case_value(e, c_)};
      case ExprKind::Negate: {
        const Folded a = emit(e.args[0]);
        if (a.constant) return {true, -a.value};
        op(TapeCode::Neg, 0, 0);
        return {false, 0};
      }
      case ExprKind::Binary: return binary(e);
      case ExprKind::Call: return call(e);
    }
    return {true, 0};
  }

  Program program(const Expr& e) {
    const Folded f = emit(e);
    if (f.constant) push(TapeCode::Constant, f.value, e);
    return std::move(program_);
  }

 private:
  void push(TapeCode code, double constant, const Expr& e) {
    if (++depth_ > kMaxProgramStack)
      throw ModelFileError(where(file_, e.pos) + ": the expression nests deeper than " + std::to_string(kMaxProgramStack) + " levels");
    program_.ops.push_back({code, constant});
  }
  // An op on the stack's top (pops: how many it takes off before pushing its result).
  void op(TapeCode code, double constant, int pops) {
    depth_ -= pops;
    program_.ops.push_back({code, constant});
  }

  Folded binary(const Expr& e) {
    const Folded a = emit(e.args[0]);
    const Folded b = emit(e.args[1]);
    if (a.constant && b.constant) return {true, fold_binary(e.op, a.value, b.value)};
    if (b.constant) {  // a (op) constant
      const TapeCode code = e.op == '+' ? TapeCode::AddC : e.op == '-' ? TapeCode::SubC : e.op == '*' ? TapeCode::MulC
                            : e.op == '/' ? TapeCode::DivC : TapeCode::PowC;
      op(code, b.value, 0);
    } else if (a.constant) {  // constant (op) b; the parser refused a varying exponent
      const TapeCode code = e.op == '+' ? TapeCode::AddC : e.op == '-' ? TapeCode::CSub : e.op == '*' ? TapeCode::MulC : TapeCode::CDiv;
      op(code, a.value, 0);
    } else {
      const TapeCode code = e.op == '+' ? TapeCode::Add : e.op == '-' ? TapeCode::Sub : e.op == '*' ? TapeCode::Mul : TapeCode::Div;
      op(code, 0, 1);
    }
    return {false, 0};
  }

  Folded call(const Expr& e) {
    if (is_forcing_term(e)) {
      const ForcingTerm f = forcing_term(e, c_, file_);
      bool any = false;
      const auto term = [&](double coefficient, int input) {
        if (coefficient == 0) return;
        push(TapeCode::Input, input, e);
        if (coefficient == -1) op(TapeCode::Neg, 0, 0);
        else if (coefficient != 1) op(TapeCode::MulC, coefficient, 0);
        if (any) op(TapeCode::Add, 0, 1);
        any = true;
      };
      if (f.on_cos == 0 && f.on_sin == 0) return {true, f.constant};
      term(f.on_cos, c_.states);
      term(f.on_sin, c_.states + 1);
      return {false, 0};
    }
    std::vector<Folded> args;
    for (const auto& a : e.args) args.push_back(emit(a));
    bool all_constant = true;
    std::vector<double> values;
    for (const auto& a : args) {
      all_constant = all_constant && a.constant;
      values.push_back(a.value);
    }
    if (all_constant) return {true, fold_call(e.name, values)};
    if (e.args.size() == 1) {
      const TapeCode code = e.name == "sin" ? TapeCode::Sin : e.name == "cos" ? TapeCode::Cos : e.name == "exp" ? TapeCode::Exp
                            : e.name == "log" ? TapeCode::Log : e.name == "sqrt" ? TapeCode::Sqrt : TapeCode::Abs;
      op(code, 0, 0);
      return {false, 0};
    }
    const bool is_min = e.name == "min";
    if (args[1].constant) op(is_min ? TapeCode::MinC : TapeCode::MaxC, args[1].value, 0);
    else if (args[0].constant) op(is_min ? TapeCode::CMin : TapeCode::CMax, args[0].value, 0);
    else op(is_min ? TapeCode::Min : TapeCode::Max, 0, 1);
    return {false, 0};
  }

  const CaseValues& c_;
  const std::string& file_;
  Program program_;
  int depth_ = 0;
};

// Coefficients of an affine expression (the parser checked that it is one).
AffineCoefficients affine(const Expr& e, const CaseValues& c, const std::string& file) {
  AffineCoefficients out;
  out.a.assign(static_cast<std::size_t>(c.states), 0.0);
  if (fixed_by_parameters(e)) {
    out.b = case_value(e, c);
    return out;
  }
  const auto scaled = [](AffineCoefficients x, double k) {
    for (auto& v : x.a) v = v * k + 0.0;
    x.a_cos = x.a_cos * k + 0.0;
    x.a_sin = x.a_sin * k + 0.0;
    x.b = x.b * k + 0.0;
    return x;
  };
  switch (e.kind) {
    case ExprKind::Name: out.a[static_cast<std::size_t>(e.index)] = 1; return out;
    case ExprKind::Negate: return scaled(affine(e.args[0], c, file), -1);
    case ExprKind::Call: {
      const ForcingTerm f = forcing_term(e, c, file);
      out.a_cos = f.on_cos;
      out.a_sin = f.on_sin;
      out.b = f.constant;
      return out;
    }
    case ExprKind::Binary: {
      if (e.op == '*') {
        const bool left_fixed = fixed_by_parameters(e.args[0]);
        return left_fixed ? scaled(affine(e.args[1], c, file), case_value(e.args[0], c))
                          : scaled(affine(e.args[0], c, file), case_value(e.args[1], c));
      }
      if (e.op == '/') return scaled(affine(e.args[0], c, file), 1 / case_value(e.args[1], c));
      const AffineCoefficients a = affine(e.args[0], c, file), b = affine(e.args[1], c, file);
      // a - b as a + (-1) b; "+ 0.0" turns the -0 of 0 - 0 into the +0 a C++ guard writes.
      const double s = e.op == '+' ? 1 : -1;
      for (std::size_t i = 0; i < out.a.size(); ++i) out.a[i] = a.a[i] + s * b.a[i] + 0.0;
      out.a_cos = a.a_cos + s * b.a_cos + 0.0;
      out.a_sin = a.a_sin + s * b.a_sin + 0.0;
      out.b = a.b + s * b.b + 0.0;
      return out;
    }
    default: return out;
  }
}

}  // namespace

double case_value(const Expr& e, const CaseValues& c) {
  switch (e.kind) {
    case ExprKind::Number: return e.number;
    case ExprKind::Name:
      if (e.refers == NameKind::Parameter) return c.parameters[static_cast<std::size_t>(e.index)];
      if (e.refers == NameKind::Pi) return M_PI;
      return 0;  // the parser admits no state or time here
    case ExprKind::Negate: return -case_value(e.args[0], c);
    case ExprKind::Binary: return fold_binary(e.op, case_value(e.args[0], c), case_value(e.args[1], c));
    case ExprKind::Call: {
      std::vector<double> v;
      for (const auto& a : e.args) v.push_back(case_value(a, c));
      return fold_call(e.name, v);
    }
  }
  return 0;
}

Program compile(const Expr& e, const CaseValues& c, const std::string& file) { return Compiler(c, file).program(e); }

AffineCoefficients affine_coefficients(const Expr& e, const CaseValues& c, const std::string& file) {
  return affine(e, c, file);
}

}  // namespace vibro::model_file
