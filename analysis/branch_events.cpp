#include "analysis/branch_events.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <iomanip>
#include <sstream>

#include "analysis/branch_character.hpp"

namespace vibro {

namespace {

// How far ahead (in doublings of the step) a grazing where the branch turns back is looked for.
constexpr int kCornerDoublings = 6;

// Thrown by the locators when the segment turns out not to be one branch; check_segment reports it.
struct Mismatch {
  std::string why;
};

std::string at(double p) {
  std::ostringstream text;
  text << std::setprecision(10) << p;
  return text.str();
}

// The state linearly interpolated between two points of the branch at parameter value p.
StrobeSample interpolate(const BranchPoint& a, const BranchPoint& b, double p) {
  const double w = (p - a.parameter) / (b.parameter - a.parameter);
  StrobeSample out = a.orbit.state;
  for (std::size_t i = 0; i < out.state.size(); ++i) out.state[i] = (1 - w) * a.orbit.state.state[i] + w * b.orbit.state.state[i];
  return out;
}

enum class Crossing { PeriodDoubling, Fold, NeimarkSacker };

// How far the located event's multiplier may lie from -1, +1 or the unit circle (the parameter is
// located to locate_tol, where the multiplier is within far less of it).
constexpr double kLocatedMultiplierTolerance = 1e-3;

double test_function(Crossing crossing, const std::vector<std::complex<double>>& mu) {
  std::complex<double> product = 1;
  if (crossing == Crossing::NeimarkSacker) {
    for (std::size_t i = 0; i < mu.size(); ++i)
      for (std::size_t j = i + 1; j < mu.size(); ++j) product *= mu[i] * mu[j] - 1.0;
  } else {
    const double sign = crossing == Crossing::PeriodDoubling ? 1 : -1;
    for (const auto& m : mu) product *= 1.0 + sign * m;
  }
  return product.real();
}

const char* kind_of(Crossing crossing) {
  switch (crossing) {
    case Crossing::PeriodDoubling: return "period_doubling";
    case Crossing::Fold: return "fold";
    default: return "neimark_sacker";
  }
}

// The multiplier that crosses: nearest -1, +1, or the unit circle off the real axis.
std::complex<double> crossing_multiplier(Crossing crossing, const std::vector<std::complex<double>>& mu) {
  if (crossing == Crossing::NeimarkSacker) {
    std::complex<double> best{std::nan(""), std::nan("")};
    for (const auto& m : mu)
      if (m.imag() > 0 && !(std::fabs(std::abs(m) - 1) >= std::fabs(std::abs(best) - 1))) best = m;
    return best;
  }
  const double target = crossing == Crossing::PeriodDoubling ? -1 : 1;
  return *std::min_element(mu.begin(), mu.end(), [&](auto p, auto q) { return std::abs(p - target) < std::abs(q - target); });
}

// The parameter value where one test function changes sign between a and b, solved by TOMS 748.
BranchEvent locate_stability_change(const FixedParameterShooter& shoot, const BranchPoint& a, const BranchPoint& b,
                                    const ContinuationSettings& settings) {
  const int change = std::abs(branch_character(b.orbit).unstable - branch_character(a.orbit).unstable);
  std::vector<Crossing> flipped;
  for (const Crossing c : {Crossing::PeriodDoubling, Crossing::Fold, Crossing::NeimarkSacker}) {
    if (change == 1 && c == Crossing::NeimarkSacker) continue;  // a pair crosses together
    if (change == 2 && c != Crossing::NeimarkSacker) continue;
    if ((test_function(c, a.orbit.multipliers) > 0) != (test_function(c, b.orbit.multipliers) > 0)) flipped.push_back(c);
  }
  if (flipped.size() != 1)
    throw Mismatch{"the multipliers outside the unit circle go from " + std::to_string(branch_character(a.orbit).unstable) +
                   " to " + std::to_string(branch_character(b.orbit).unstable) +
                   " with no single period doubling, fold or Neimark-Sacker test function changing sign"};
  const Crossing crossing = flipped.front();
  const bool increasing = b.parameter > a.parameter;
  BranchPoint lo = increasing ? a : b, hi = increasing ? b : a;  // bracket ends, their orbits the next guesses
  const double f_lo = test_function(crossing, lo.orbit.multipliers), f_hi = test_function(crossing, hi.orbit.multipliers);
  const auto f = [&](double p) {
    const PeriodicOrbit orbit = shoot(p, {interpolate(lo, hi, p), lo.orbit.state, hi.orbit.state});
    if (!orbit.converged || !same_motion(orbit, a.orbit))
      throw Mismatch{"no orbit with " + std::to_string(a.orbit.events) + " impacts at " + at(p) +
                     " between the two points, where the " + kind_of(crossing) + " test function changes sign"};
    const double value = test_function(crossing, orbit.multipliers);
    ((value > 0) == (f_lo > 0) ? lo : hi) = BranchPoint(p, orbit);
    return value;
  };
  std::uintmax_t iterations = 200;
  const auto close_enough = [&](double x, double y) { return std::fabs(x - y) <= settings.locate_tol; };
  const auto root = boost::math::tools::toms748_solve(f, lo.parameter, hi.parameter, f_lo, f_hi, close_enough, iterations);
  BranchEvent event;
  event.kind = kind_of(crossing);
  event.parameter = 0.5 * (root.first + root.second);
  event.orbit = shoot(event.parameter, {interpolate(lo, hi, event.parameter), lo.orbit.state, hi.orbit.state});
  const PeriodicOrbit& there = event.orbit.converged ? event.orbit : hi.orbit;
  event.multiplier = crossing_multiplier(crossing, there.multipliers);
  event.detail = describe_multiplier(event.multiplier);
  if (crossing == Crossing::Fold && breaks_symmetry(there)) {  // the symmetric orbit goes on: no fold
    event.kind = "symmetry_breaking";
    event.detail = symmetry_breaking_detail(there, event.multiplier);
  }
  // A test function that changes sign only because shooting lands on two orbits of one type either side
  // of the root (the step went onto another family) has no multiplier on the unit circle there.
  const double off = crossing == Crossing::NeimarkSacker ? std::fabs(std::abs(event.multiplier) - 1)
                                                         : std::abs(event.multiplier - (crossing == Crossing::Fold ? 1.0 : -1.0));
  if (!event.orbit.converged || !(off < kLocatedMultiplierTolerance))
    throw Mismatch{"the " + std::string(kind_of(crossing)) + " test function changes sign at " + at(event.parameter) +
                   " with no multiplier on the unit circle there (nearest " + event.detail + "): another orbit"};
  return event;
}

// At a grazing the family with fewer impacts and the one with more meet in one orbit: the orbit with
// more impacts just beyond the grazing must lie next to the grazing orbit, or the step has landed on
// another family of orbits. Tried ever farther from the grazing, as Newton's basin on the impacting
// side shrinks towards it (the map's square-root singularity).
void require_meeting(const FixedParameterShooter& shoot, const BranchPoint& touching, double grazing,
                     const BranchPoint& many, const std::vector<double>& scales, const ContinuationSettings& settings) {
  const double direction = many.parameter > grazing ? 1 : -1, reach = std::fabs(many.parameter - grazing);
  const BranchCharacter wanted = branch_character(many.orbit);
  for (const double d : {1e-8, 1e-6, 1e-4, 1e-3}) {
    if (d >= reach) break;
    const PeriodicOrbit orbit = shoot(grazing + direction * d, {touching.orbit.state, many.orbit.state});
    if (!orbit.converged) continue;
    // A third motion next to the event: another event lies between it and the new point (a phase
    // born at the event that ends before the new point, as the creep of a stick-slip orbit).
    if (!same_motion(orbit, many.orbit) && !same_motion(orbit, touching.orbit))
      throw Mismatch{"at " + at(grazing + direction * d) + ", next to the event at " + at(grazing) + ", the orbit is " +
                     describe_orbit_type(orbit) + ", neither side's motion: more than one event in the step"};
    if (branch_character(orbit) != wanted) continue;
    const double apart = scaled_distance(orbit.state, touching.orbit.state, scales);
    if (apart <= settings.max_predictor_error) return;
    std::ostringstream why;
    why << "at " << at(grazing + direction * d) << ", next to the grazing at " << at(grazing) << ", the orbit with "
        << many.orbit.events << " impacts lies " << apart << " state scales from the grazing orbit: another family";
    throw Mismatch{why.str()};
  }
  throw Mismatch{"no orbit with " + std::to_string(many.orbit.events) + " impacts found next to the grazing at " +
                 at(grazing)};
}

// The grazing between a and b, bracketed by bisection on the orbit with fewer impacts, which exists up to
// where it touches the surface and no further. Where that orbit exists over the whole step, the grazing
// lies beyond its point: both families lie on one side of it, and the branch turns back there (a
// nonsmooth fold); it is then bracketed beyond, in steps that double.
BranchEvent locate_grazing(const FixedParameterShooter& shoot, const BranchPoint& a, const BranchPoint& b,
                           double heading, const std::vector<double>& scales, const ContinuationSettings& settings,
                           bool& turns_back) {
  const bool a_grazes = simpler_motion(a.orbit, b.orbit);
  BranchPoint touching = a_grazes ? a : b;  // the orbit with the simpler motion (fewer impacts) nearest the event
  const BranchPoint& many = a_grazes ? b : a;
  double far = many.parameter;  // beyond the grazing from `touching`
  const BranchCharacter kept = branch_character(touching.orbit);
  const auto still_there = [&](double p) {
    const PeriodicOrbit m = shoot(p, {touching.orbit.state});
    if (!m.converged || branch_character(m) != kept) return false;
    touching = BranchPoint(p, m);
    return true;
  };
  turns_back = still_there(far);
  if (turns_back) {
    // At a corner the old family runs into the grazing: it lies ahead in the old family's heading,
    // within a few steps' reach. An orbit with fewer impacts that goes on much farther coexists with
    // the old family (hysteresis): the step jumped onto it.
    const double width = std::fabs(b.parameter - a.parameter);
    const double ahead = heading > 0 ? std::max(a.parameter, b.parameter) : std::min(a.parameter, b.parameter);
    if (!still_there(ahead))
      throw Mismatch{"the orbit with " + std::to_string(touching.orbit.events) + " impacts ceases between the two points"};
    bool ceased = false;
    for (int k = 0; k <= kCornerDoublings && !ceased; ++k) ceased = !still_there(far = ahead + heading * width * std::ldexp(1.0, k));
    if (!ceased)
      throw Mismatch{"the orbit with " + std::to_string(touching.orbit.events) + " impacts goes on without grazing to " +
                     at(far) + ": another family, not the branch's"};
  }
  while (std::fabs(far - touching.parameter) > settings.locate_tol) {
    const double mid = 0.5 * (touching.parameter + far);
    if (!still_there(mid)) far = mid;
  }
  BranchEvent event;
  event.kind = motion_change_kind(a.orbit, b.orbit, event.detail);
  event.parameter = 0.5 * (touching.parameter + far);
  event.orbit = touching.orbit;
  if (turns_back) event.detail += "; the branch turns back there";
  if (!turns_back) require_meeting(shoot, touching, event.parameter, many, scales, settings);
  return event;
}

// The orbit shot at p from `from` must have the type of `from`: the family keeps its type on that side
// of the event.
// Where both families lie on one side of a grazing (`either`), Newton from one may land on the other.
void require_same_type(const FixedParameterShooter& shoot, double p, const BranchPoint& from, const char* side,
                       const PeriodicOrbit* either = nullptr) {
  const PeriodicOrbit orbit = shoot(p, {from.orbit.state});
  if (!orbit.converged)
    throw Mismatch{std::string("no orbit at ") + at(p) + ", halfway between the " + side + " point and the event (" +
                   orbit.reason + ")"};
  if (either && branch_character(orbit) == branch_character(*either)) return;
  if (branch_character(orbit) != branch_character(from.orbit))
    throw Mismatch{std::string("at ") + at(p) + ", between the " + side + " point and the event, the orbit is " +
                   describe_orbit_type(orbit) + ": more than one event in the step"};
}

}  // namespace

std::optional<BranchEvent> locate_end_grazing(const FixedParameterShooter& shoot, const BranchPoint& last, double beyond,
                                              const ContinuationSettings& settings) {
  BranchPoint touching = last;
  const auto still_there = [&](double p) {  // the orbit with the branch's impacts, stable or not
    const PeriodicOrbit m = shoot(p, {touching.orbit.state});
    if (!m.converged || !same_motion(m, last.orbit)) return false;
    touching = BranchPoint(p, m);
    return true;
  };
  if (still_there(beyond)) return std::nullopt;
  double far = beyond;
  while (std::fabs(far - touching.parameter) > settings.locate_tol) {
    const double mid = 0.5 * (touching.parameter + far);
    if (!still_there(mid)) far = mid;
  }
  // Its stability changed on the way (a period doubling, fold or Neimark-Sacker point before its end):
  // not an end this step may pass over.
  if (branch_character(touching.orbit) != branch_character(last.orbit)) return std::nullopt;
  for (const auto& mu : touching.orbit.multipliers)
    if (std::abs(mu - 1.0) < 1e-3) return std::nullopt;  // a fold: the orbit meets its twin, not the surface
  BranchEvent event;
  event.kind = "grazing";
  event.parameter = 0.5 * (touching.parameter + far);
  event.orbit = touching.orbit;
  return event;
}

SegmentCheck check_segment(const FixedParameterShooter& shoot, const BranchPoint& a, const BranchPoint& b,
                           double heading, const std::vector<double>& scales, const ContinuationSettings& settings) {
  SegmentCheck check;
  const BranchCharacter before = branch_character(a.orbit), after = branch_character(b.orbit);
  if (before == after) {
    if (!a.orbit.multipliers.empty() && !b.orbit.multipliers.empty() && odd_flips(a.orbit) != odd_flips(b.orbit))
      check.mismatch = "a real multiplier outside the unit circle changes sign between " + at(a.parameter) + " and " +
                       at(b.parameter) + " (" + describe_multiplier(a.orbit.multipliers.front()) + " -> " +
                       describe_multiplier(b.orbit.multipliers.front()) + ") with the orbit type kept: another orbit";
    return check;
  }
  try {
    BranchEvent event = before.same_motion(after)
                            ? locate_stability_change(shoot, a, b, settings)
                            : locate_grazing(shoot, a, b, heading, scales, settings, check.turns_back);
    const auto* other_a = check.turns_back ? &b.orbit : nullptr;
    const auto* other_b = check.turns_back ? &a.orbit : nullptr;
    require_same_type(shoot, 0.5 * (a.parameter + event.parameter), a, "old", other_a);
    require_same_type(shoot, 0.5 * (event.parameter + b.parameter), b, "new", other_b);
    check.events.push_back(std::move(event));
  } catch (const Mismatch& mismatch) {
    check.mismatch = mismatch.why;
  }
  return check;
}

}  // namespace vibro
