#pragma once
// A cursor over one line of a model file, for its statement and expression parsers: characters,
// names, numbers and raw text, each error naming FILE:LINE:COL.
#include <string>

#include "engine/core/input_error.hpp"

namespace vibro::model_file {

struct SourcePos {
  int line = 0;
  int column = 0;
};

// An error in a model file: the message starts with FILE:LINE:COL.
class ModelFileError : public InputError {
 public:
  using InputError::InputError;
};

class SourceCursor {
 public:
  SourceCursor(const std::string& file, const std::string& text, int line) : file_(file), text_(text), line_(line) {}

  void skip_spaces();
  bool at_end();                       // after spaces: nothing but a comment is left
  char peek();                         // after spaces; '\0' at the end
  bool take(char c);                   // after spaces: consumes c if it is next
  bool take_word(const std::string& word);  // a whole word (not a prefix of a longer name)
  bool take_text(const std::string& text);  // exactly `text` (an operator like "<=" or "->")
  bool looking_at(const std::string& text);  // whether `text` is next, consuming nothing
  void expect(char c, const std::string& what);
  bool at_identifier();
  std::string identifier(const std::string& what);  // [A-Za-z_][A-Za-z0-9_]*
  std::string label(const std::string& what);       // a mode or guard name: no spaces, ':' or '#'
  double number(const std::string& what);           // a signed decimal, inf or -inf
  std::string until(char stop);                     // raw text up to (not including) `stop`
  std::string rest();                               // the rest of the line, trimmed, comment removed

  // Where the next token starts (spaces skipped).
  SourcePos pos() const {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\r')) ++at_;
    return {line_, static_cast<int>(at_) + 1};
  }
  [[noreturn]] void fail(const std::string& message) const { fail_at(pos(), message); }
  [[noreturn]] void fail_at(SourcePos where, const std::string& message) const;
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string text_;
  int line_;
  mutable std::size_t at_ = 0;  // pos() skips spaces: they hold no token
};

std::string where(const std::string& file, SourcePos pos);  // FILE:LINE:COL

}  // namespace vibro::model_file
