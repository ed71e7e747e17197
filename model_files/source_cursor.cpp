#include "model_files/source_cursor.hpp"

#include <cctype>
#include <cstdlib>
#include <limits>

namespace vibro::model_file {

namespace {
bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

std::string where(const std::string& file, SourcePos pos) {
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

void SourceCursor::fail_at(SourcePos at, const std::string& message) const {
  throw ModelFileError(where(file_, at) + ": " + message);
}

void SourceCursor::skip_spaces() {
  while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\r')) ++at_;
}

bool SourceCursor::at_end() {
  skip_spaces();
  return at_ >= text_.size() || text_[at_] == '#';
}

char SourceCursor::peek() { return at_end() ? '\0' : text_[at_]; }

bool SourceCursor::take(char c) {
  if (peek() != c || c == '\0') return false;
  ++at_;
  return true;
}

bool SourceCursor::take_text(const std::string& text) {
  skip_spaces();
  if (text_.compare(at_, text.size(), text) != 0) return false;
  at_ += text.size();
  return true;
}

bool SourceCursor::looking_at(const std::string& text) {
  skip_spaces();
  return text_.compare(at_, text.size(), text) == 0;
}

bool SourceCursor::take_word(const std::string& word) {
  skip_spaces();
  if (text_.compare(at_, word.size(), word) != 0) return false;
  const std::size_t end = at_ + word.size();
  if (end < text_.size() && name_char(text_[end])) return false;
  at_ = end;
  return true;
}

void SourceCursor::expect(char c, const std::string& what) {
  if (!take(c)) fail(std::string("expected '") + c + "' " + what);
}

bool SourceCursor::at_identifier() { return !at_end() && name_start(text_[at_]); }

std::string SourceCursor::identifier(const std::string& what) {
  if (!at_identifier()) fail("expected " + what + " (a name: a letter or _, then letters, digits or _)");
  const std::size_t start = at_;
  while (at_ < text_.size() && name_char(text_[at_])) ++at_;
  return text_.substr(start, at_ - start);
}

std::string SourceCursor::label(const std::string& what) {
  if (at_end()) fail("expected " + what);
  const std::size_t start = at_;
  while (at_ < text_.size() && text_[at_] != ' ' && text_[at_] != '\t' && text_[at_] != ':' && text_[at_] != '#') ++at_;
  if (at_ == start) fail("expected " + what);
  return text_.substr(start, at_ - start);
}

double SourceCursor::number(const std::string& what) {
  skip_spaces();
  const std::size_t start = at_;
  bool negative = false;
  if (at_ < text_.size() && (text_[at_] == '-' || text_[at_] == '+')) negative = text_[at_++] == '-';
  if (take_word("inf")) return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  const char* begin = text_.c_str() + at_;
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  // strtod also reads "nan", "infinity" and hex: a model file's numbers are plain decimals.
  if (end == begin || !(std::isdigit(static_cast<unsigned char>(*begin)) || *begin == '.') ||
      std::string(begin, static_cast<std::size_t>(end - begin)).find_first_of("xXpP") != std::string::npos) {
    at_ = start;
    fail("expected " + what + " (a number such as 0.5, -2 or 1e-3)");
  }
  at_ += static_cast<std::size_t>(end - begin);
  return negative ? -v : v;
}

std::string SourceCursor::until(char stop) {
  const std::size_t start = at_;
  while (at_ < text_.size() && text_[at_] != stop) ++at_;
  if (at_ >= text_.size()) {
    at_ = start;
    fail(std::string("expected a closing '") + stop + "'");
  }
  return text_.substr(start, at_ - start);
}

std::string SourceCursor::rest() {
  skip_spaces();
  std::size_t end = text_.find('#', at_);
  if (end == std::string::npos) end = text_.size();
  std::string out = text_.substr(at_, end - at_);
  at_ = end;
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace vibro::model_file
