#pragma once
// An arithmetic expression of a model file (docs/model_files.md) as a tree, and the recursive-descent
// parser that reads one from a line: numbers, names, + - * / ^, unary -, parentheses and calls.
// Names are resolved against the file's parameters and states when the whole file is read.
#include <memory>
#include <string>
#include <vector>

#include "model_files/source_cursor.hpp"

namespace vibro::model_file {

enum class ExprKind { Number, Name, Negate, Binary, Call };

// What a name refers to, once resolved.
enum class NameKind { Unresolved, Parameter, State, Time, Pi };

struct Expr {
  ExprKind kind = ExprKind::Number;
  SourcePos pos;
  double number = 0;       // Number
  std::string name;        // Name, Call (the function)
  char op = 0;             // Binary: + - * / ^
  NameKind refers = NameKind::Unresolved;
  int index = -1;          // Parameter or State: its index
  std::vector<Expr> args;  // Negate: 1, Binary: 2, Call: its arguments
};

// The functions an expression may call, with their arity.
struct FunctionInfo {
  const char* name;
  int arity;
};
const std::vector<FunctionInfo>& functions();
const FunctionInfo* find_function(const std::string& name);

// Reads one expression at the cursor (stops before the first character that cannot continue it);
// throws ModelFileError naming the place and what was expected.
Expr parse_expression(SourceCursor& in);

// a op b, placed at `pos` (a guard's function from its two sides).
Expr binary(char op, Expr a, Expr b, SourcePos pos);

// Whether `e` reads the state; the time; neither (a case's parameters fix its value).
bool depends_on_state(const Expr& e);
bool depends_on_time(const Expr& e);
bool fixed_by_parameters(const Expr& e);

}  // namespace vibro::model_file
