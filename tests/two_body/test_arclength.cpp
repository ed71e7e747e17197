// Pseudo-arclength continuation (analysis/arclength_continuation, docs/analysis/continuation.md).
// 1. Model A's (1,1) orbit in the forcing frequency omega (restitution e = 1, lambda = 1). Sweeps with
//    continuation show hysteresis at the top of the impacting range: going up, the (1,1) orbit persists
//    to omega ~ 7.44, going down the impact-free (linear) orbit persists to ~ 7.3. The (1,1) branch folds
//    at its upper end (a real multiplier through +1, away from grazing: the impact velocity there is
//    finite), turns back as an unstable impacting orbit, and ends where that orbit grazes, at the
//    frequency where the linear orbit's relative amplitude is the gap D (closed form of the
//    impact-free linear response); beyond it the branch is the linear orbit.
// 2. Model A in lambda: past a Neimark-Sacker point and the fold at 0.56438, up the unstable orbits to the
//    impact-free orbit's grazing at lambda* = 0.5670028, where the branch turns back.
// 3. Model B (Hertz) in R: the period doubling, against natural continuation and the independent check's multipliers.
// 4. Model A (e = 0.8, lambda = 2) in omega: a Neimark-Sacker point on the unstable branch past a fold.
// 5. Model A (e = 1, lambda = 2) in omega: the unstable branch past the Neimark-Sacker point runs into
//    the grazing with its largest multiplier growing without bound (the map's square-root singularity),
//    turns back there onto the impact-free orbits and follows them to the end of the range.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <iomanip>
#include <string>
#include <vector>

#include "analysis/arclength_continuation.hpp"
#include "analysis/orbit_continuation.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/linear_response.hpp"
#include "models/two_body/two_body_steps.hpp"
#include "support/two_body_amplitude.hpp"

using namespace vibro;

namespace {

const std::string kModelA = "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 1\n";

SweepSpec sweep_in_omega(const std::string& omegas, const std::string& direction) {
  return parse_sweep(kModelA + "[axes]\nomega = " + omegas + "\n[run]\ncontinuation = omega\ndirection = " + direction +
                         "\nmax_periods = 2000\nwindow_periods = 32\n",
                     "a.ini", {});
}

double semi_amplitude(const Model& model, const ParameterSet& values, double omega, const StrobeSample& state) {
  return test_support::semi_amplitude(model, values, "omega", omega, state);
}

// The orbit at exactly `omega` on the part of the branch with `impacts` per period and the given
// stability: shot from the state interpolated between the two branch points around omega.
PeriodicOrbit orbit_on_branch(const Model& model, ParameterSet values, const Branch& branch, double omega,
                              long long impacts, bool stable) {
  for (std::size_t i = 1; i < branch.points.size(); ++i) {
    const auto &a = branch.points[i - 1], &b = branch.points[i];
    if ((omega - a.parameter) * (omega - b.parameter) > 0) continue;
    if (a.orbit.events != impacts || b.orbit.events != impacts || a.orbit.stable() != stable ||
        b.orbit.stable() != stable)
      continue;
    const double w = (omega - a.parameter) / (b.parameter - a.parameter);
    StrobeSample guess = a.orbit.state;
    for (std::size_t k = 0; k < 4; ++k) guess.state[k] += w * (b.orbit.state.state[k] - a.orbit.state.state[k]);
    values.set("omega", omega);
    auto simulation = model.start(values);
    return shoot_periodic_orbit(*simulation, guess, 1);
  }
  FAIL("omega " << omega << " is not on the branch with " << impacts << " impacts and stable = " << stable);
  return {};
}

// The frequency in [lo, hi] at which the impact-free orbit's relative amplitude is the gap D (at the
// forcing amplitude lambda of `values`).
double linear_grazing_omega(ParameterSet values, double lo = 7.0, double hi = 7.6) {
  const double lambda = values.get("lambda");
  auto grazing_lambda = [&](double omega) {
    values.set("omega", omega);
    return two_body::linear_response(two_body::GapOscillatorConstants::from(values)).grazing_lambda;
  };
  REQUIRE(grazing_lambda(lo) < lambda);
  REQUIRE(grazing_lambda(hi) > lambda);
  while (hi - lo > 1e-12) (grazing_lambda(0.5 * (lo + hi)) < lambda ? lo : hi) = 0.5 * (lo + hi);
  return 0.5 * (lo + hi);
}

}  // namespace

TEST_CASE(
    "Model A (1,1) branch in omega by arclength: round the fold at the top of the impacting range, "
    "unstable back to grazing, agreeing with both sweeps",
    "[two_body][continuation][arclength]") {
  const SweepSpec up_spec = sweep_in_omega("7.0, 7.1, 7.2, 7.3, 7.4", "up");       // the impacting (1,1) orbit
  const SweepSpec down_spec = sweep_in_omega("7.3, 7.35, 7.4, 7.5, 7.6", "down");  // the impact-free orbit
  const SweepRun up = run_sweep(up_spec), down = run_sweep(down_spec);
  for (const auto& c : up.cases) REQUIRE(c.class_code == "(1,1)");
  for (const auto& c : down.cases) REQUIRE(c.class_code == "L");
  const Model& model = *up_spec.model;
  const ParameterSet values = up_spec.case_parameters(0);

  ContinuationSettings settings;
  settings.step = 0.01;
  settings.max_step = 0.02;
  const Branch branch = continue_by_arclength(model, values, "omega", 7.0, 7.6, up.cases[0].final_state, 1, settings);
  std::string events;
  for (const auto& e : branch.events) events += e.kind + " at " + std::to_string(e.parameter) + " (" + e.detail + "); ";
  INFO(branch.end << ", " << branch.points.size() << " points; events: " << events);
  REQUIRE(branch.end == "reached the end of the range");
  REQUIRE(branch.events.size() == 2);

  // The fold: one real multiplier through +1, at the largest omega of the impacting orbits.
  const BranchEvent& fold = branch.events[0];
  REQUIRE(fold.kind == "fold");
  INFO(std::setprecision(10) << "fold at omega " << fold.parameter << ", multiplier " << fold.multiplier.real() << " + "
                             << fold.multiplier.imag() << "i");
  CHECK(std::abs(fold.multiplier - 1.0) < 1e-3);
  double top = 0;
  for (const auto& q : branch.points)
    if (q.orbit.events == 1) top = std::max(top, q.parameter);
  CHECK(fold.parameter >= top);
  CHECK(fold.parameter - top < 1e-2);
  // Simulation brackets it: just below the fold a sweep from the (1,1) state keeps it, just above it leaves it.
  const SweepRun across = run_sweep(sweep_in_omega(
      "7.0, 7.2, 7.4, 7.43, " + std::to_string(fold.parameter - 2e-3) + ", " + std::to_string(fold.parameter + 2e-3),
      "up"));
  CHECK(across.cases[4].class_code == "(1,1)");
  CHECK(across.cases[5].class_code == "L");

  // The grazing that ends the unstable impacting orbits is the linear orbit's: |X1 - X2| = D.
  const BranchEvent& grazing = branch.events[1];
  CHECK(grazing.kind == "grazing");
  const double closed_form = linear_grazing_omega(values);
  INFO(std::setprecision(10) << "grazing at omega " << grazing.parameter << ", closed form " << closed_form);
  CHECK(std::fabs(grazing.parameter - closed_form) < 1e-5);

  // Between fold and grazing the impacting orbits are unstable with one real multiplier beyond +1; the
  // rest of the branch is stable.
  int unstable = 0;
  for (const auto& q : branch.points) {
    const bool between = q.orbit.events == 1 && !q.orbit.stable();
    if (!between) continue;
    ++unstable;
    CHECK(q.orbit.multipliers[0].real() > 1);
    CHECK(std::fabs(q.orbit.multipliers[0].imag()) < 1e-9);
    CHECK(std::abs(q.orbit.multipliers[1]) < 1);
  }
  CHECK(unstable >= 5);

  // Upper stable branch against the upward sweep, lower one against the downward sweep (A1, 1e-4).
  auto compare = [&](const SweepSpec& spec, const SweepRun& sweep, int impacts, const char* which) {
    for (std::size_t i = 0; i < sweep.cases.size(); ++i) {
      const double omega = spec.case_parameters(static_cast<long long>(i)).get("omega");
      const PeriodicOrbit orbit = orbit_on_branch(model, values, branch, omega, impacts, true);
      REQUIRE(orbit.converged);
      const double a1 = semi_amplitude(model, values, omega, orbit.state), simulated = sweep.cases[i].observables[0];
      INFO("omega " << omega << " " << which << ": continuation A1 " << a1 << ", sweep " << simulated);
      CHECK(std::fabs(a1 - simulated) <= 1e-4 * simulated);
    }
  };
  compare(up_spec, up, 1, "impacting");
  compare(down_spec, down, 0, "impact-free");

  // Natural continuation cannot pass the fold: it ends there naming it, the fold located as arclength
  // locates it, and takes no step beyond.
  const Branch natural =
      continue_periodic_orbit(model, values, "omega", 7.0, 7.6, up.cases[0].final_state, 1, settings);
  bool natural_unstable = false;
  for (const auto& q : natural.points) natural_unstable = natural_unstable || !q.orbit.stable();
  INFO(std::setprecision(10) << "natural: " << natural.end << ", last point at omega "
                             << natural.points.back().parameter);
  CHECK_THAT(natural.end, Catch::StartsWith("the branch turns back at a fold at omega = 7.4441764") &&
                              Catch::Contains("natural continuation cannot pass"));
  REQUIRE(!natural.events.empty());
  CHECK(natural.events.back().kind == "fold");
  CHECK(std::fabs(natural.events.back().parameter - fold.parameter) < 1e-8);
  CHECK(natural.points.back().parameter <= fold.parameter + 1e-6);
  CHECK(natural.points.back().parameter > fold.parameter - 1e-3);
  CHECK_FALSE(natural_unstable);
}

TEST_CASE(
    "Model A (1,1) branch in lambda by arclength: a Neimark-Sacker point, the fold at lambda = 0.56438, and up the "
    "unstable orbits to the grazing at lambda* = 0.5670028, where the branch turns back onto the impact-free orbits",
    "[two_body][continuation][arclength]") {
  const SweepSpec spec = parse_sweep(kModelA + "lambda = 1\n[run]\nmax_periods = 300\n", "a.ini", {});
  const SweepRun start = run_sweep(spec);
  REQUIRE(start.cases[0].class_code == "(1,1)");
  const Branch branch =
      continue_by_arclength(*spec.model, spec.case_parameters(0), "lambda", 1.0, 0.55, start.cases[0].final_state, 1);
  std::string events;
  for (const auto& e : branch.events) events += e.kind + " at " + std::to_string(e.parameter) + " (" + e.detail + "); ";
  INFO(branch.end << "; events: " << events);
  REQUIRE(branch.end == "reached the end of the range");
  REQUIRE(branch.events.size() == 3);
  CHECK(branch.events[0].kind == "neimark_sacker");
  CHECK(branch.events[0].parameter == Approx(0.5656252).margin(1e-6));
  CHECK(branch.events[1].kind == "fold");
  CHECK(branch.events[1].parameter == Approx(0.5643801).margin(1e-6));
  CHECK(branch.events[2].kind == "grazing");
  CHECK(branch.events[2].detail == "impacts per period 1 -> 0; the branch turns back there");
  CHECK(branch.events[2].parameter == Approx(0.5670028).margin(1e-6));
  CHECK(branch.points.back().parameter == 0.55);
  CHECK(branch.points.back().orbit.events == 0);
  std::size_t turn = 0;  // the impact-free orbits: lambda falls all along from the grazing to the end
  while (branch.points[turn].orbit.events != 0) ++turn;
  for (std::size_t i = turn + 1; i < branch.points.size(); ++i) {
    CHECK(branch.points[i].orbit.events == 0);
    CHECK(branch.points[i].parameter < branch.points[i - 1].parameter);
  }
}

TEST_CASE(
    "Model B (Hertz) (1,1) branch in R by arclength: the period doubling where natural continuation puts it "
    "(R = 174.498), and the independent check's multipliers at R = 500",
    "[two_body][continuation][arclength]") {
  const SweepSpec spec =
      parse_sweep("model = vibro_platform\n[parameters]\nR = 3.3\n[run]\nmax_periods = 1500\n", "b.ini", {});
  const SweepRun start = run_sweep(spec);
  REQUIRE(start.cases[0].class_code == "(1,1)");
  ContinuationSettings settings;
  settings.step = 1;
  settings.max_step = 20;
  const auto follow = [&](auto method) {
    return method(*spec.model, spec.case_parameters(0), "R", 3.3, 500, start.cases[0].final_state, 1, settings);
  };
  const Branch arclength = follow(continue_by_arclength), natural = follow(continue_periodic_orbit);
  INFO(arclength.end << " / " << natural.end);
  REQUIRE(arclength.end == "reached the end of the range");
  REQUIRE(natural.end == "reached the end of the range");
  REQUIRE(arclength.events.size() == 1);
  REQUIRE(natural.events.size() == 1);
  const BranchEvent &flip = arclength.events[0], &reference = natural.events[0];
  INFO(std::setprecision(10) << "period doubling at R = " << flip.parameter << " (natural: " << reference.parameter
                             << "), multiplier " << flip.multiplier.real());
  CHECK(flip.kind == "period_doubling");
  CHECK(std::fabs(flip.parameter - reference.parameter) < 1e-5);
  CHECK(std::abs(flip.multiplier + 1.0) < 1e-3);
  // An independent shooting check, R = 500: 0.8554 +- 0.2459i, -0.6684, -1.2416 (flip-unstable).
  const PeriodicOrbit& end = arclength.points.back().orbit;
  REQUIRE(arclength.points.back().parameter == 500);
  REQUIRE(end.multipliers.size() == 4);
  CHECK(end.multipliers[0].real() == Approx(-1.2416).margin(1e-3));
  CHECK(std::fabs(end.multipliers[1].real() - 0.8554) < 1e-3);
  CHECK(std::fabs(std::fabs(end.multipliers[1].imag()) - 0.2459) < 1e-3);
  CHECK(end.multipliers[3].real() == Approx(-0.6684).margin(1e-3));
}

namespace {

// Model A (restitution e, lambda = 2) from its stable (1,1) orbit at omega0, continued in omega by
// arclength towards `to` (steps 0.01, at most 0.05); `events` lists the branch's events for messages.
struct OmegaBranch {
  SweepSpec spec;
  ParameterSet values;
  StrobeSample start;  // the (1,1) orbit's state at omega0, as the sweep left it
  Branch branch;
  std::string events;
};

OmegaBranch model_a_in_omega(const std::string& e, double omega0, double to, const std::string& run_keys) {
  const SweepSpec spec = parse_sweep("model = gap_oscillator\n[parameters]\nlaw = restitution\ne = " + e +
                                         "\nlambda = 2\nomega = " + std::to_string(omega0) +
                                         "\n[run]\nmax_periods = 2000\n" + run_keys,
                                     "a.ini", {});
  const SweepRun start = run_sweep(spec);
  REQUIRE(start.cases[0].class_code == "(1,1)");
  const ParameterSet values = spec.case_parameters(0);
  ContinuationSettings settings;
  settings.step = 0.01;
  settings.max_step = 0.05;
  const Branch branch =
      continue_by_arclength(*spec.model, values, "omega", omega0, to, start.cases[0].final_state, 1, settings);
  std::string events;
  for (const auto& event : branch.events)
    events += event.kind + " at " + std::to_string(event.parameter) + " (" + event.detail + "); ";
  return {spec, values, start.cases[0].final_state, branch, events};
}

// The pair of complex multipliers of `orbit` (the one with positive imaginary part of largest modulus).
std::complex<double> complex_pair(const PeriodicOrbit& orbit) {
  std::complex<double> pair{0, 0};
  for (const auto& mu : orbit.multipliers)
    if (mu.imag() > 1e-6 && std::abs(mu) > std::abs(pair)) pair = mu;
  return pair;
}

}  // namespace

TEST_CASE(
    "Model A (e = 0.8, lambda = 2) branch in omega by arclength: fold at 8.260, then a Neimark-Sacker point "
    "on the unstable branch that natural continuation cannot reach",
    "[two_body][continuation][arclength]") {
  const OmegaBranch found = model_a_in_omega("0.8", 7.5, 8.5, "");
  const Model& model = *found.spec.model;
  const ParameterSet& values = found.values;
  const Branch& branch = found.branch;
  ContinuationSettings settings;
  settings.step = 0.01;
  settings.max_step = 0.05;
  INFO(branch.end << "; events: " << found.events);
  REQUIRE(branch.events.size() == 3);
  CHECK(branch.events[0].kind == "fold");
  CHECK(branch.events[2].kind == "grazing");
  const BranchEvent& ns = branch.events[1];
  REQUIRE(ns.kind == "neimark_sacker");
  INFO(std::setprecision(10) << "Neimark-Sacker at omega " << ns.parameter << ", multiplier " << ns.multiplier.real()
                             << " + " << ns.multiplier.imag() << "i, modulus " << std::abs(ns.multiplier));
  CHECK(std::fabs(std::abs(ns.multiplier) - 1) < 1e-3);
  CHECK(std::fabs(ns.multiplier.imag()) > 0.5);
  CHECK(ns.parameter < branch.events[0].parameter);  // on the way back from the fold
  CHECK(ns.parameter > branch.events[2].parameter);
  // Shot independently on the unstable branch on either side: the complex pair crosses the unit circle.
  for (const double side : {-2e-3, 2e-3}) {
    const double omega = ns.parameter + side;
    PeriodicOrbit orbit;
    for (std::size_t i = 1; i < branch.points.size() && !orbit.converged; ++i) {
      const auto &a = branch.points[i - 1], &b = branch.points[i];
      if ((omega - a.parameter) * (omega - b.parameter) > 0 || a.orbit.stable() || a.orbit.events != 1) continue;
      ParameterSet at = values;
      at.set("omega", omega);
      orbit = shoot_periodic_orbit(*model.start(at), a.orbit.state, 1);
    }
    REQUIRE(orbit.converged);
    INFO("omega " << omega << ": complex pair modulus " << std::abs(complex_pair(orbit)));
    CHECK((std::abs(complex_pair(orbit)) > 1) == (side < 0));
  }
  // Natural continuation ends at the fold, naming it, before the unstable branch.
  const Branch natural =
      continue_periodic_orbit(model, values, "omega", 7.5, 8.5, found.start, 1, settings);
  CHECK_THAT(natural.end, Catch::StartsWith("the branch turns back at a fold"));
  REQUIRE(natural.events.size() == 1);
  CHECK(natural.events[0].kind == "fold");
  CHECK(std::fabs(natural.events[0].parameter - branch.events[0].parameter) < 1e-8);
}

// What the branch of Model A (e = 1, lambda = 2) does after its Neimark-Sacker point: the unstable
// impacting orbits go on down to the grazing of the impact-free orbit (|X1 - X2| = D at omega_g =
// 7.99220), their impact velocity -> 0 and their largest real multiplier growing like its inverse. Both
// families lie above omega_g, so the branch turns back there (a nonsmooth fold) and goes up the
// impact-free orbits to the end of the range. Below omega_g lies only the first leg's stable (1,1)
// family, far from the grazing orbit: a step onto it is a jump, which the branch used to take (it then
// retraced that family back to its start).
TEST_CASE(
    "Model A (e = 1, lambda = 2) branch in omega by arclength: after the Neimark-Sacker point the unstable "
    "impacting orbits are followed into the grazing, where the branch turns back onto the impact-free orbits "
    "and follows them to the end of the range without jumping or retracing",
    "[two_body][continuation][arclength]") {
  const OmegaBranch found = model_a_in_omega("1", 7.9, 13.9, "window_periods = 32\nsteady_state = adaptive\n");
  const ParameterSet& values = found.values;
  const Branch& branch = found.branch;
  INFO(branch.end << ", " << branch.points.size() << " points; events: " << found.events);
  REQUIRE(branch.end == "reached the end of the range");
  REQUIRE(branch.events.size() >= 3);
  CHECK(branch.events[0].kind == "fold");
  CHECK(std::fabs(branch.events[0].parameter - 8.34109) < 1e-4);
  CHECK(branch.events[1].kind == "neimark_sacker");
  CHECK(std::fabs(branch.events[1].parameter - 8.02835) < 1e-4);
  const double omega_g = linear_grazing_omega(values, 7.9, 8.1);
  INFO(std::setprecision(10) << "closed-form grazing at omega " << omega_g << ", found at " << branch.events[2].parameter);
  CHECK(branch.events[2].kind == "grazing");
  CHECK(branch.events[2].detail.rfind("impacts per period 1 -> 0", 0) == 0);
  CHECK(std::fabs(branch.events[2].parameter - omega_g) < 1e-6);
  REQUIRE(branch.points.back().parameter == 13.9);

  // The unstable impacting orbits between the Neimark-Sacker point and the grazing: one real multiplier
  // beyond +1, growing as omega falls towards omega_g.
  std::size_t turn = 0;  // the first impact-free point
  while (turn < branch.points.size() && branch.points[turn].orbit.events != 0) ++turn;
  REQUIRE(turn < branch.points.size());
  const BranchPoint& lowest = branch.points[turn - 1];
  INFO(std::setprecision(10) << "last impacting point at omega " << lowest.parameter << ", multiplier "
                             << lowest.orbit.multipliers[0]);
  CHECK_FALSE(lowest.orbit.stable());
  CHECK(lowest.orbit.multipliers[0].real() > 50);
  // From the turn on: impact-free orbits, omega rising to the end, never back on the first leg's family.
  for (std::size_t i = turn; i < branch.points.size(); ++i) {
    INFO("point " << i << " at omega " << branch.points[i].parameter);
    CHECK(branch.points[i].orbit.events == 0);
    if (i > turn) CHECK(branch.points[i].parameter > branch.points[i - 1].parameter);
  }
  // No orbit found twice (a retraced family).
  std::size_t duplicates = 0;
  for (std::size_t i = 0; i < branch.points.size(); ++i)
    for (std::size_t j = i + 1; j < branch.points.size(); ++j) {
      const auto &p = branch.points[i], &q = branch.points[j];
      if (std::fabs(p.parameter - q.parameter) > 1e-9) continue;
      double apart = 0;
      for (std::size_t k = 0; k < 4; ++k) apart = std::max(apart, std::fabs(p.orbit.state.state[k] - q.orbit.state.state[k]));
      duplicates += apart < 1e-6 ? 1 : 0;
    }
  CHECK(duplicates == 0);
}
