#pragma once
// What a steady-state window was found to be: periodic, slowly converging, quasi-periodic or not
// converged. Its own header (no <vector>) so that device code classifying windows can use it.
#include "engine/core/host_device.hpp"

namespace vibro {

// The values are stored in sweep files (periodicity column): new ones go at the end.
enum class Periodicity { Periodic, SlowlyConverging, NotConverged, QuasiPeriodic };

// A period k was found (periodic or slowly converging to a period-k orbit).
VIBRO_HD inline bool has_period(Periodicity p) {
  return p == Periodicity::Periodic || p == Periodicity::SlowlyConverging;
}

}  // namespace vibro
