#pragma once
// Reading of a dimer steady state (Liu, Zhao and Brogliato 2008): drift speed (raw and
// relative to the bouncing end), kappa, impacts and contact fractions per tip, theta statistics,
// and the mode: rest, drift (+ forward / - backward), pendulum (drift pattern, no drift), jump,
// flutter, small hop, other.
#include <string>
#include <vector>

#include "analysis/steady_state.hpp"
#include "engine/core/model.hpp"
#include "models/dimer/dimer_parameters.hpp"

namespace vibro::dimer {

enum class DimerMode { Rest, Drift, Pendulum, Jump, Flutter, SmallHop, Other };

struct DimerReading {
  DimerMode mode = DimerMode::Other;
  double drift_speed = 0;      // m/s, +x
  double drift_speed_rel = 0;  // m/s, towards the bouncing end (sign of the mean theta)
  double kappa_rel = 0;        // u_rel f / g * 100
  double impacts_tip1 = 0, impacts_tip2 = 0, double_impacts = 0;  // per period
  double contact_tip1 = 0, contact_tip2 = 0;                      // fraction of time with a contact force
  double mean_theta = 0, max_abs_theta = 0;                       // rad
  double max_gap_tip1 = 0, max_gap_tip2 = 0;                      // m, highest tip height above the plate
};

DimerReading read_dimer(const SteadyState& steady, const DimerConstants& c);

// Class code: mode letter(s) ("R", "D+", "D-", "P", "J", "F", "H", "O") and the period k of the
// stroboscopic map ("Q" when quasi-periodic, "?" when it did not converge).
std::string dimer_class_code(const DimerReading& reading, const SteadyState& steady);
std::vector<ClassCode> dimer_class_legend();

std::vector<ObservableSpec> dimer_observables();
std::vector<double> dimer_observable_values(const DimerReading& reading, const DimerConstants& c);

}  // namespace vibro::dimer
