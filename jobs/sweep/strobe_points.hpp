#pragma once
// Which stroboscopic points a case's result keeps (output.strobe_points).

namespace vibro {

// None; the averaging window's, first to last; or, of a case with a period k, the window's last k
// (one orbit, the newest), and the whole window of the others.
enum class StrobePoints { None, Window, Orbit };

}  // namespace vibro
