#pragma once
// The steady-state reading of a ball balancer case (Dedow 2016, Chapter IX) from the
// samples of the averaging window: maximum rotor motion, ball angles relative to the unbalance,
// locked or drifting, mean relative ball speed.
#include <vector>

#include "analysis/steady_state.hpp"
#include "engine/core/model.hpp"
#include "models/ball_balancer/ball_balancer_parameters.hpp"

namespace vibro::ball_balancer {

enum BallObservable {
  kXMax, kYMax, kPsiLow, kPsiHigh, kBetaSplit, kBetaRange, kLocked, kMeanRelativeSpeed, kImpactsPerRevolution,
  kSpinRpm, kObservableCount
};

// A ball counts as locked when its angle relative to the unbalance stays within kLockedRange over the
// window and its net drift over the window is below kLockedDrift: near a critical transition
// the balls creep at 0.005-0.01 rad/s, which the range alone does not catch within 40 s.
inline constexpr double kLockedRange = 0.5;
inline constexpr double kLockedDrift = 0.1;

std::vector<ObservableSpec> ball_balancer_observables();
CaseSummary summarize_window(const SteadyState& steady, const BallBalancerConstants& c);
std::vector<ClassCode> ball_balancer_class_legend();

}  // namespace vibro::ball_balancer
