#include "jobs/parallel/script_quoting.hpp"

#include <cctype>

#include "engine/core/input_error.hpp"

namespace vibro {

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string sbatch_quoted_path(const std::string& path) {
  std::string out = "\"";
  for (const char c : path) {
    if (c == '"' || c == '\'' || c == '#' || c == '\\') out += '\\';
    out += c;
    if (c == '%') out += '%';
  }
  return out + "\"";
}

std::string sbatch_job_name(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    out += plain && static_cast<unsigned char>(c) < 0x80 ? c : '_';
  }
  return out;
}

void require_one_line(const std::string& what, const std::string& text) {
  if (const auto c = first_control_character(text); !c.empty())
    throw InputError(what + " '" + echoed(text, 200) + "' holds a control character (" + c +
                     "); it would end a line of the batch script. Rename it to printable characters");
}

}  // namespace vibro
