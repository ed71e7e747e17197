#include "jobs/sweep/ini_text.hpp"

#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

constexpr const char* kAccepted = "expected UTF-8 (or ASCII) text of lines 'key = value', '[section]', "
                                  "'# comment' or '; comment'";

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t") - first + 1);
}

std::string with_lf_line_ends(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') out += text[i];
    else if (i + 1 == text.size() || text[i + 1] != '\n') out += '\n';  // a lone CR ends a line too
  }
  return out;
}

// The first byte no sweep file holds: NUL and every control byte but tab, LF and CR (the parser
// would take a form feed for part of a key).
void require_text(const std::string& text, const std::string& source_name) {
  const bool utf16 = text.size() >= 2 && ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff'));
  if (utf16) throw InputError(source_name + ": not a text INI file: it is UTF-16 (byte order mark " +
                              printable(text.substr(0, 2)) + "); save it as UTF-8; " + kAccepted);
  long line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') ++line;
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
      throw InputError(source_name + ":" + std::to_string(line) + ": not a text INI file: byte " + printable(text.substr(i, 1)) +
                       " at offset " + std::to_string(i) + (c == 0 ? " (binary, or UTF-16 without a byte order mark?)" : "") +
                       "; " + kAccepted);
  }
}

}  // namespace

std::string checked_ini_text(const std::string& raw, const std::string& source_name) {
  const bool bom = raw.rfind("\xef\xbb\xbf", 0) == 0;
  const std::string text = with_lf_line_ends(bom ? raw.substr(3) : raw);
  require_text(text, source_name);
  std::string out;
  out.reserve(text.size());
  long number = 0;
  for (std::size_t start = 0; start < text.size();) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    const std::string where = source_name + ":" + std::to_string(number) + ": ";
    std::string content = trimmed(line);
    if (!content.empty() && content[0] == ';') {
      out += '\n';  // an INI comment the parser does not know
      continue;
    }
    content = trimmed(content.substr(0, content.find('#')));  // the parser's comments: '#' to the end
    if (!content.empty() && content.front() == '[') {
      if (content.back() != ']' || trimmed(content.substr(1, content.size() - 2)).empty())
        throw InputError(where + "invalid section header '" + echoed(content) + "'; expected [name]");
    } else if (!content.empty()) {
      const auto eq = content.find('=');
      if (eq == std::string::npos)
        throw InputError(where + "invalid line '" + echoed(content) + "'; " + kAccepted);
      if (trimmed(content.substr(0, eq)).empty())
        throw InputError(where + "no key before '=' in '" + echoed(content) + "'; " + kAccepted);
    }
    out += line + '\n';
  }
  return out;
}

}  // namespace vibro
