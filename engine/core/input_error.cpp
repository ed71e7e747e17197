#include "engine/core/input_error.hpp"

#include <cstdio>

namespace vibro {

namespace {

// A message longer than this is cut: values are echoed through echoed(), so only a path the user
// gave many times over could reach it.
constexpr std::size_t kMaxMessageBytes = 4000;

std::string escape(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\0': return "\\0";
    default: {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      return hex;
    }
  }
}

// Length of the valid UTF-8 sequence of a printable code point starting at text[i]; 0 if none.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t n = 0;
  unsigned long code = 0, least = 0;
  if (lead >= 0xc2 && lead <= 0xdf) n = 2, code = lead & 0x1fu, least = 0x80;
  else if (lead >= 0xe0 && lead <= 0xef) n = 3, code = lead & 0x0fu, least = 0x800;
  else if (lead >= 0xf0 && lead <= 0xf4) n = 4, code = lead & 0x07u, least = 0x10000;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0u) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3fu);
  }
  const bool surrogate = code >= 0xd800 && code <= 0xdfff;
  const bool c1_control = code >= 0x80 && code <= 0x9f;  // CSI (U+009B) and its kind act on terminals
  if (code < least || code > 0x10ffff || surrogate || c1_control) return 0;
  return n;
}

}  // namespace

InputError::InputError(const std::string& message) : std::runtime_error([&] {
  std::string text = printable(message);
  if (text.size() > kMaxMessageBytes) text = echoed(text, kMaxMessageBytes);
  return text;
}()) {}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(text, i) : 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += escape(c);
      ++i;
    }
  }
  return out;
}

std::string echoed(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return printable(text);
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0u) == 0x80) --cut;  // not inside a UTF-8 character
  return printable(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string first_control_character(std::string_view text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return escape(static_cast<unsigned char>(c));
  return "";
}

}  // namespace vibro
