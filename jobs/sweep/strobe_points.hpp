#pragma once
// Which stroboscopic points a case's result keeps (output.strobe_points).
#include <cstddef>
#include <string>
#include <vector>

namespace vibro {

// None; the averaging window's, first to last; or, of a case with a period k, the window's last k
// (one orbit, the newest), and the whole window of the others.
enum class StrobePoints { None, Window, Orbit };

// The key's values, in the order of StrobePoints (as sweep files and /cases/strobe's `points` spell them).
inline const std::vector<std::string>& strobe_points_names() {
  static const std::vector<std::string> names{"none", "window", "orbit"};
  return names;
}
inline const std::string& strobe_points_name(StrobePoints points) {
  return strobe_points_names()[static_cast<std::size_t>(points)];
}

}  // namespace vibro
