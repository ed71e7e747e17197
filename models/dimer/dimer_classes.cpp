#include "models/dimer/dimer_classes.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "models/dimer/dimer_drift_formula.hpp"
#include "models/dimer/dimer_simulation.hpp"

namespace vibro::dimer {

namespace {
constexpr double kDeg = 180.0 / 3.14159265358979323846;
// |kappa_rel| below this counts as no drift (pendulum); the report's pendulum run has "<u> ~ 0"; an
// separate prototype measured <= 0.03.
constexpr double kNoDriftKappa = 0.1;

std::int64_t in_period(const SteadyState& s, std::size_t i, int counter) {
  return s.window[i].counters[static_cast<std::size_t>(counter)] - s.window[i - 1].counters[static_cast<std::size_t>(counter)];
}

DimerMode classify(const DimerReading& r, const SteadyState& s, const DimerConstants& c) {
  const double bounce_height = c.g * c.period * c.period / 8;  // g T^2 / 8: the free bounce height of one period
  const double total_impacts = r.impacts_tip1 + r.impacts_tip2;
  if (total_impacts == 0 && std::min(r.contact_tip1, r.contact_tip2) > 0.99) return DimerMode::Rest;
  const bool tip1_stays = r.contact_tip1 >= r.contact_tip2;
  const int bouncing = tip1_stays ? kImpactsTip2 : kImpactsTip1;
  const double stay_contact = std::max(r.contact_tip1, r.contact_tip2);
  const double bounce_contact = std::min(r.contact_tip1, r.contact_tip2);
  bool once_per_period = s.window.size() > 1;
  for (std::size_t i = 1; i < s.window.size(); ++i) once_per_period = once_per_period && in_period(s, i, bouncing) == 1;
  if (stay_contact >= 0.2 && bounce_contact < 0.1 && once_per_period)
    return std::abs(r.kappa_rel) >= kNoDriftKappa ? DimerMode::Drift : DimerMode::Pendulum;
  if (r.impacts_tip1 > 0 && r.impacts_tip2 > 0) {
    if (std::max(r.max_gap_tip1, r.max_gap_tip2) < 0.25 * bounce_height) return DimerMode::SmallHop;
    // Jump: both tips hit once per period with comparable heights.
    bool both_once = s.window.size() > 1;
    for (std::size_t i = 1; i < s.window.size(); ++i)
      both_once = both_once && in_period(s, i, kImpactsTip1) == 1 && in_period(s, i, kImpactsTip2) == 1;
    const double height_ratio = std::min(r.max_gap_tip1, r.max_gap_tip2) / std::max(r.max_gap_tip1, r.max_gap_tip2);
    if (both_once && height_ratio > 0.5) return DimerMode::Jump;
    // Flutter: the tips hit out of phase, each every other period, and theta alternates its sign.
    bool alternating = s.window.size() > 2;
    for (std::size_t i = 2; i < s.window.size(); ++i)
      alternating = alternating && s.window[i].aux[kMeanTheta] * s.window[i - 1].aux[kMeanTheta] < 0;
    if (alternating && r.impacts_tip1 == 0.5 && r.impacts_tip2 == 0.5) return DimerMode::Flutter;
  }
  return DimerMode::Other;
}
}  // namespace

DimerReading read_dimer(const SteadyState& s, const DimerConstants& c) {
  DimerReading r;
  const double periods = s.window_periods();
  if (periods <= 0) return r;
  const double T = c.period;
  const auto& first = s.window.front();
  const auto& last = s.window.back();
  r.drift_speed = s.drift_velocity(T);
  r.mean_theta = (last.aux[kThetaIntegral] - first.aux[kThetaIntegral]) / (periods * T);
  r.drift_speed_rel = r.mean_theta < 0 ? -r.drift_speed : r.drift_speed;
  r.kappa_rel = kappa_from_speed(r.drift_speed_rel, c.f, c.g);
  r.impacts_tip1 = static_cast<double>(s.counter_in_window(kImpactsTip1)) / periods;
  r.impacts_tip2 = static_cast<double>(s.counter_in_window(kImpactsTip2)) / periods;
  r.double_impacts = static_cast<double>(s.counter_in_window(kDoubleImpacts)) / periods;
  const double steps = static_cast<double>(s.counter_in_window(kSteps));
  r.contact_tip1 = static_cast<double>(s.counter_in_window(kContactStepsTip1)) / steps;
  r.contact_tip2 = static_cast<double>(s.counter_in_window(kContactStepsTip2)) / steps;
  r.max_gap_tip1 = r.max_gap_tip2 = -1e300;
  for (std::size_t i = 1; i < s.window.size(); ++i) {  // aux describe the period ending at the sample
    r.max_abs_theta = std::max(r.max_abs_theta, s.window[i].aux[kMaxAbsTheta]);
    r.max_gap_tip1 = std::max(r.max_gap_tip1, s.window[i].aux[kMaxGapTip1]);
    r.max_gap_tip2 = std::max(r.max_gap_tip2, s.window[i].aux[kMaxGapTip2]);
  }
  r.mode = classify(r, s, c);
  return r;
}

std::string dimer_class_code(const DimerReading& r, const SteadyState& s) {
  std::string code;
  switch (r.mode) {
    case DimerMode::Rest: code = "R"; break;
    case DimerMode::Drift: code = r.drift_speed_rel > 0 ? "D+" : "D-"; break;
    case DimerMode::Pendulum: code = "P"; break;
    case DimerMode::Jump: code = "J"; break;
    case DimerMode::Flutter: code = "F"; break;
    case DimerMode::SmallHop: code = "H"; break;
    case DimerMode::Other: code = "O"; break;
  }
  if (s.periodicity == Periodicity::NotConverged) return code + "?";
  if (s.periodicity == Periodicity::QuasiPeriodic) return code + "Q";
  return code + (s.periodicity == Periodicity::SlowlyConverging ? "~" : "") + std::to_string(s.period);
}

std::vector<ObservableSpec> dimer_observables() {
  return {{"drift_speed", "mm/s", "mean horizontal drift speed over the window (+x)"},
          {"drift_speed_rel", "mm/s", "drift speed towards the bouncing end (sign of the mean theta: the report's drift direction is towards the bouncing end)"},
          {"kappa_rel", "-", "scaled drift speed u_rel f / g * 100"},
          {"mode_index", "-", "0 rest, 1 drift, 2 pendulum, 3 jump, 4 flutter, 5 small hop, 6 other"},
          {"impacts_per_cycle", "1/period", "impacts of both tips per plate period"},
          {"impacts_tip1", "1/period", "impacts of tip 1 (left ball) per period"},
          {"impacts_tip2", "1/period", "impacts of tip 2 (right ball) per period"},
          {"double_impacts", "1/period", "impacts where both tips take impulse, per period"},
          {"contact_fraction", "-", "fraction of time the staying end carries a contact force"},
          {"contact_fraction_tip1", "-", "fraction of time tip 1 carries a contact force"},
          {"contact_fraction_tip2", "-", "fraction of time tip 2 carries a contact force"},
          {"mean_theta", "deg", "mean tilt over the window"},
          {"max_theta", "deg", "largest |theta| over the window"},
          {"max_hop_tip1", "mm", "largest height of tip 1 above the plate"},
          {"max_hop_tip2", "mm", "largest height of tip 2 above the plate"}};
}

std::vector<double> dimer_observable_values(const DimerReading& r, const DimerConstants&) {
  return {r.drift_speed * 1e3,
          r.drift_speed_rel * 1e3,
          r.kappa_rel,
          static_cast<double>(static_cast<int>(r.mode)),
          r.impacts_tip1 + r.impacts_tip2,
          r.impacts_tip1,
          r.impacts_tip2,
          r.double_impacts,
          std::max(r.contact_tip1, r.contact_tip2),
          r.contact_tip1,
          r.contact_tip2,
          r.mean_theta * kDeg,
          r.max_abs_theta * kDeg,
          r.max_gap_tip1 * 1e3,
          r.max_gap_tip2 * 1e3};
}

std::vector<ClassCode> dimer_class_legend() {
  const std::pair<const char*, const char*> modes[] = {
      {"R", "rest: both tips stay on the plate, no impacts"},
      {"D+", "drift towards the bouncing end: one tip stays in contact, the other hits once per period"},
      {"D-", "drift away from the bouncing end (same motion as D+, opposite direction)"},
      {"P", "pendulum: the drift pattern (one tip stays, the other hits once per period) without net drift"},
      {"J", "jump: both tips hit once per period with comparable hop heights"},
      {"F", "flutter: the tips hit alternately, each every other period, the tilt changing sign"},
      {"H", "small hop: both tips hit, hops lower than a quarter of the free bounce height g T^2 / 8"},
      {"O", "other motion"}};
  std::vector<ClassCode> legend;
  for (const auto& [letter, meaning] : modes) {
    legend.push_back({std::string(letter) + "[~]<k>", std::string(meaning) + "; a period-k orbit (~: converged slowly)"});
    legend.push_back({std::string(letter) + "Q", std::string(meaning) + "; quasi-periodic"});
    legend.push_back({std::string(letter) + "?", std::string(meaning) + "; not converged within the period budget"});
  }
  return legend;
}

}  // namespace vibro::dimer
