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
    overrides_[key].push_back(o);  // the first one counts, as for the parser
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
      lines_[section.empty() ? key : section + "." + key].push_back(number);
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
  if (const auto o = overrides_.find(key); o != overrides_.end()) return "command-line override " + echoed(o->second.front());
  if (const auto l = lines_.find(key); l != lines_.end()) return source_name_ + ":" + std::to_string(l->second.front());
  return "";
}

std::string KeyOrigins::repeated_key() const {
  for (const auto& [key, given] : overrides_)
    if (given.size() > 1 && key != "plugin")
      return "command-line overrides " + echoed(given[0]) + " and " + echoed(given[1]) + ": " + key +
             " is given twice; give it once";
  const std::pair<const std::string, std::vector<int>>* first = nullptr;  // the earliest second line
  for (const auto& entry : lines_)
    if (entry.second.size() > 1 && entry.first != "plugin" && (!first || entry.second[1] < first->second[1])) first = &entry;
  if (!first) return "";
  return source_name_ + ":" + std::to_string(first->second[0]) + " and " + source_name_ + ":" +
         std::to_string(first->second[1]) + ": " + first->first + " is given twice; give each key once";
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
