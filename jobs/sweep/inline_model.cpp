#include "jobs/sweep/inline_model.hpp"

#include <sstream>

namespace vibro {

namespace {
// The section a line opens ("" when it is no [section] line).
std::string section_of(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const auto first = line.find_first_not_of(" \t"), last = line.find_last_not_of(" \t");
  if (first == std::string::npos || line[first] != '[' || line[last] != ']') return "";
  std::string name = line.substr(first + 1, last - first - 1);
  name.erase(0, name.find_first_not_of(" \t"));
  name.erase(name.find_last_not_of(" \t") + 1);
  return name.empty() ? " " : name;
}
}  // namespace

InlineModel split_inline_model(const std::string& sweep_text) {
  InlineModel out;
  std::istringstream lines(sweep_text);
  std::string line;
  bool inside = false;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string section = section_of(line);
    if (!section.empty()) inside = section == "model";
    if (inside && section == "model" && !out.present) {
      out.present = true;
      out.header_line = number;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    (inside ? out.model_text : out.sweep_text) += (inside && section == "model" ? "" : line);
    out.sweep_text += "\n";
    out.model_text += "\n";
  }
  return out;
}

}  // namespace vibro
