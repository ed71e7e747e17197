#include "jobs/sweep/key_origin.hpp"

#include <regex>

#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

std::string trimmed(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

}  // namespace

KeyOrigins::KeyOrigins(const std::string& text, const std::string& source_name, const std::vector<std::string>& overrides)
    : source_name_(source_name) {
  for (const auto& o : overrides) {
    const std::string key = o.substr(2, o.find('=') == std::string::npos ? std::string::npos : o.find('=') - 2);
    overrides_.emplace(key, o);  // the first one counts, as for the parser
  }
  // Lines end at LF, CR LF or a lone CR, as checked_ini_text counts them.
  std::string section, line;
  int number = 1;
  auto take = [&] {
    const std::string t = trimmed(line);
    if (t.size() > 1 && t.front() == '[' && t.back() == ']') {
      section = trimmed(t.substr(1, t.size() - 2));
    } else if (const auto eq = t.find('='); eq != std::string::npos && t[0] != '#' && t[0] != ';') {
      const std::string key = trimmed(t.substr(0, eq));
      lines_.emplace(section.empty() ? key : section + "." + key, number);
    }
    line.clear();
    ++number;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' || text[i] == '\n') {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      take();
    } else {
      line += text[i];
    }
  }
  if (!line.empty()) take();
}

std::string KeyOrigins::of(const std::string& key) const {
  if (const auto o = overrides_.find(key); o != overrides_.end()) return "command-line override " + echoed(o->second);
  if (const auto l = lines_.find(key); l != lines_.end()) return source_name_ + ":" + std::to_string(l->second);
  return "";
}

std::string with_key_origin(const std::string& message, const KeyOrigins& origins) {
  static const std::regex leading_key(R"(^((parameters|initial|numerics|axes|run|output)\.[A-Za-z0-9_]+)[ :].*)");
  std::smatch match;
  std::string key;
  if (message.rfind("unknown model ", 0) == 0) key = "model";
  else if (std::regex_match(message, match, leading_key)) key = match[1];
  const std::string origin = key.empty() ? "" : origins.of(key);
  return origin.empty() ? message : origin + ": " + message;
}

}  // namespace vibro
