#pragma once
// The orbit a periodic window is on its way to: its last `period` points, each carried on to the
// limit of its own sequence (every period-th sample) when that sequence approaches it linearly
// (analysis/linear_transient: one real multiplier, a complex pair or two modes). A window that
// passes the period test while still creeping along a multiplier near +1 (just past a flip, say)
// or alternating about its orbit along one near -1 is then compared where it is going, not where
// its budget left it. Points whose sequence fits no linear approach, or whose limit lies more than
// 10 newest differences away (a multiplier near +1, where the fit cannot place it well), are kept
// as they are.
#include <vector>

#include "analysis/strobe_geometry.hpp"

namespace vibro {

std::vector<StatePoint> orbit_limit(const std::vector<StatePoint>& window, int period, const std::vector<double>& scales);

// Whether each of the window's `period` phases (its samples `period` apart, ending at its last
// `period` points) fits a linear approach whose multipliers lie inside the unit circle by more than
// the fit's relative residual (the scale of their error): the window contracts onto a period-`period`
// orbit at a rate it measures (a phase whose samples are all equal is already there). Samples
// `period` apart that alternate among the points of an orbit of a multiple of that period do not
// (multipliers of modulus 1), however slowly the window converges.
bool contracts_to_period(const std::vector<StatePoint>& window, int period, const std::vector<double>& scales);

}  // namespace vibro
