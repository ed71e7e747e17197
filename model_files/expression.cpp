#include "model_files/expression.hpp"

#include <algorithm>

namespace vibro::model_file {

const std::vector<FunctionInfo>& functions() {
  static const std::vector<FunctionInfo> list{{"sin", 1}, {"cos", 1}, {"exp", 1}, {"log", 1}, {"sqrt", 1},
                                              {"abs", 1}, {"sign", 1}, {"min", 2}, {"max", 2}};
  return list;
}

const FunctionInfo* find_function(const std::string& name) {
  for (const auto& f : functions())
    if (name == f.name) return &f;
  return nullptr;
}

namespace {

// Grammar (lowest binding first):
//   sum     = product { ("+" | "-") product }
//   product = unary { ("*" | "/") unary }
//   unary   = "-" unary | "+" unary | power
//   power   = atom [ "^" unary ]            (right-associative: 2^-x and a^b^c = a^(b^c))
//   atom    = NUMBER | NAME | NAME "(" sum { "," sum } ")" | "(" sum ")"
Expr sum(SourceCursor& in);

Expr unary(SourceCursor& in);

Expr atom(SourceCursor& in) {
  Expr e;
  e.pos = in.pos();
  const char c = in.peek();
  if (in.take('(')) {
    Expr inner = sum(in);
    in.expect(')', "to close the '(' at column " + std::to_string(e.pos.column));
    return inner;
  }
  if (in.at_identifier()) {
    e.name = in.identifier("a name");
    if (!in.take('(')) {
      e.kind = ExprKind::Name;
      return e;
    }
    e.kind = ExprKind::Call;
    if (in.peek() != ')') {
      e.args.push_back(sum(in));
      while (in.take(',')) e.args.push_back(sum(in));
    }
    in.expect(')', "to close the call of " + e.name);
    return e;
  }
  if ((c >= '0' && c <= '9') || c == '.') {
    e.kind = ExprKind::Number;
    e.number = in.number("a number");
    return e;
  }
  in.fail(c == '\0' ? "the expression ends too early: expected a number, a name or '('"
                    : std::string("expected a number, a name or '(', not '") + c + "'");
}

Expr power(SourceCursor& in) {
  Expr base = atom(in);
  const SourcePos pos = in.pos();
  if (!in.take('^')) return base;
  return binary('^', std::move(base), unary(in), pos);
}

Expr unary(SourceCursor& in) {
  const SourcePos pos = in.pos();
  if (in.take('-')) {
    Expr e;
    e.kind = ExprKind::Negate;
    e.pos = pos;
    e.args.push_back(unary(in));
    return e;
  }
  if (in.take('+')) return unary(in);
  return power(in);
}

Expr product(SourceCursor& in) {
  Expr e = unary(in);
  for (;;) {
    const SourcePos pos = in.pos();
    const char c = in.peek();
    if (c != '*' && c != '/') return e;
    in.take(c);
    e = binary(c, std::move(e), unary(in), pos);
  }
}

Expr sum(SourceCursor& in) {
  Expr e = product(in);
  for (;;) {
    const SourcePos pos = in.pos();
    const char c = in.peek();
    // "->" ends an expression (a switch's target follows).
    if (c != '+' && (c != '-' || in.looking_at("->"))) return e;
    if (c == '+') in.take('+');
    else in.take('-');
    e = binary(c, std::move(e), product(in), pos);
  }
}

bool depends(const Expr& e, bool on_state, bool on_time) {
  if (e.kind == ExprKind::Name)
    return (on_state && e.refers == NameKind::State) || (on_time && e.refers == NameKind::Time);
  return std::any_of(e.args.begin(), e.args.end(), [&](const Expr& a) { return depends(a, on_state, on_time); });
}

}  // namespace

Expr binary(char op, Expr a, Expr b, SourcePos pos) {
  Expr e;
  e.kind = ExprKind::Binary;
  e.op = op;
  e.pos = pos;
  e.args.push_back(std::move(a));
  e.args.push_back(std::move(b));
  return e;
}

Expr parse_expression(SourceCursor& in) { return sum(in); }

bool depends_on_state(const Expr& e) { return depends(e, true, false); }
bool depends_on_time(const Expr& e) { return depends(e, false, true); }
bool fixed_by_parameters(const Expr& e) { return !depends(e, true, true); }

}  // namespace vibro::model_file
