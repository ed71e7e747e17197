// A model's half-period symmetry S: (x, t) -> (R x, t + T/2) (engine/core/half_period_symmetry.hpp):
// the declaration checked against the layout, and symmetric shooting and continuation on Ueda's
// Duffing oscillator x'' + k x' + x^3 = B cos t (k = 0.1), whose symmetric period-1 orbit loses its
// symmetry in a pitchfork near B = 2.2864 (bench/duffing_symmetry_breaking.py: the root of
// det(I + G') on an independent Runge-Kutta solution).
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <string>

#include "analysis/arclength_continuation.hpp"
#include "analysis/branch_character.hpp"
#include "analysis/hybrid_model.hpp"
#include "analysis/orbit_continuation.hpp"
#include "engine/core/input_error.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

StrobeLayout two_state_layout() {
  StrobeLayout layout;
  layout.state_names = {"x", "v"};
  layout.state_scales = {1, 1};
  layout.mode_names = {"slip+", "slip-", "stick"};
  return layout;
}

std::string refusal(const HalfPeriodSymmetry& symmetry) {
  try {
    resolve_mirror(symmetry, two_state_layout(), "m");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Ueda's oscillator x'' + k x' + x^3 + e x^2 = B cos t; with e = 0 odd in (x, v), and it says so unless
// told to declare the symmetry regardless (`declared`).
class UedaDuffing final : public HybridModel<2> {
 public:
  explicit UedaDuffing(bool declared)
      : HybridModel<2>({"ueda_duffing", "x'' + k x' + x^3 + e x^2 = B cos t", {{"x", "-"}, {"v", "-"}},
                        {ParameterSpec::real("B", ParameterGroup::Physics, "-", 2, 0, 100, "forcing amplitude"),
                         ParameterSpec::real("k", ParameterGroup::Physics, "-", 0.1, 0, 10, "damping"),
                         ParameterSpec::real("e", ParameterGroup::Physics, "-", 0, -10, 10, "quadratic stiffness")},
                        {{WindowStat::Maximum, "x"}}}),
        declared_(declared) {}

  std::optional<HalfPeriodSymmetry> half_period_symmetry(const ParameterSet& p) const override {
    if (!declared_ && p.get("e") != 0) return std::nullopt;
    return HalfPeriodSymmetry::with_signs({-1, -1});
  }

  HybridDescription<2> describe(const ParameterSet& p) const override {
    const double B = p.get("B"), k = p.get("k"), e = p.get("e");
    HybridDescription<2> d;
    d.period = 2 * M_PI;
    d.mode("free", [B, k, e](const auto& x, const auto& drive, auto& dx) {
      dx[0] = x[1];
      dx[1] = B * drive.cos - k * x[1] - x[0] * x[0] * x[0] - e * x[0] * x[0];
    });
    return d;
  }

 private:
  bool declared_;
};

// The symmetric orbit at B = 2 (the reference solution's section state, bench/duffing_symmetry_breaking.py).
StrobeSample ueda_start() {
  StrobeSample guess{};
  guess.state[0] = 1.820412857;
  guess.state[1] = 0.332796938;
  return guess;
}

constexpr double kSymmetryBreaking = 2.2863817;  // bench/duffing_symmetry_breaking.py

}  // namespace

TEST_CASE("Half-period symmetry: a declaration the layout cannot take is refused, naming what is accepted",
          "[half_period_symmetry]") {
  CHECK(refusal(HalfPeriodSymmetry::with_signs({-1, -1}).swap_modes("slip+", "slip-")).empty());
  CHECK(refusal(HalfPeriodSymmetry::with_signs({-1})).find("expected 2 x 2, over the section's components (x, v)") !=
        std::string::npos);
  HalfPeriodSymmetry shear;
  shear.reflection = Eigen::MatrixXd(2, 2);
  shear.reflection << 1, 1, 0, 1;
  CHECK(refusal(shear).find("not an involution") != std::string::npos);
  CHECK(refusal(HalfPeriodSymmetry::with_signs({-1, -1}).swap_modes("slip+", "slipp")).find(
            "unknown mode 'slipp'; did you mean 'slip+'?; its modes: slip+, slip-, stick") != std::string::npos);
  CHECK(refusal(HalfPeriodSymmetry::with_signs({-1, -1}).swap_modes("slip+", "slip-").swap_modes("slip-", "stick"))
            .find("more than one pair") != std::string::npos);
  CHECK(refusal(HalfPeriodSymmetry::with_signs({-1, -1}).swap_modes("stick", "stick")).find("with itself") !=
        std::string::npos);
  const StateMirror mirror =
      resolve_mirror(HalfPeriodSymmetry::with_signs({-1, 1}).swap_modes("slip-", "stick"), two_state_layout(), "m");
  StrobeSample s{};
  s.state[0] = 0.5;
  s.state[1] = 2;
  s.mode = 1;
  s.period = 7;
  const StrobeSample image = mirror.apply(s);
  CHECK(image.state[0] == -0.5);
  CHECK(image.state[1] == 2);
  CHECK(image.mode == 2);
  CHECK(image.period == 7);
  CHECK(mirror.apply(image).mode == 1);
}

TEST_CASE("Half-period symmetry: Ueda's oscillator's symmetric orbit is shot as symmetric, its full-period "
          "multipliers the squares of the half-period map's, and a symmetry the equations lack is refused",
          "[half_period_symmetry][shooting]") {
  const UedaDuffing ueda(false);
  const Model& model = ueda;
  const ParameterSet values = parameter_values(model.parameters(), {{"B", "2"}});
  const auto simulation = model.start(values);
  const PeriodicOrbit orbit = shoot_periodic_orbit(*simulation, ueda_start(), 1);
  INFO(orbit.reason);
  REQUIRE(orbit.converged);
  CHECK(orbit.symmetric);
  CHECK(std::fabs(orbit.state.state[0] - 1.820412857) < 1e-6);
  CHECK(std::fabs(orbit.state.state[1] - 0.332796938) < 1e-6);
  REQUIRE(orbit.half_multipliers.size() == 2);
  REQUIRE(orbit.multipliers.size() == 2);
  for (std::size_t i = 0; i < 2; ++i)  // a complex pair at B = 2: the squares in either order
    CHECK(std::min(std::abs(orbit.half_multipliers[i] * orbit.half_multipliers[i] - orbit.multipliers[0]),
                   std::abs(orbit.half_multipliers[i] * orbit.half_multipliers[i] - orbit.multipliers[1])) < 1e-9);
  // The product of G's multipliers is exp(-k T / 2) (Liouville).
  CHECK(std::abs(orbit.half_multipliers[0] * orbit.half_multipliers[1] - std::exp(-0.1 * M_PI)) < 1e-8);
  // The same orbit from the full-period map alone (its character, not its symmetry, is what an
  // asymmetric branch follows).
  const PeriodicOrbit plain = shoot_periodic_orbit(*simulation, ueda_start(), 1, {}, OrbitSymmetry::Asymmetric);
  REQUIRE(plain.converged);
  CHECK_FALSE(plain.symmetric);
  CHECK(std::fabs(plain.state.state[0] - orbit.state.state[0]) < 1e-9);

  // With x^2 in the force the equations are not odd; declared symmetric anyway, the fixed point of the
  // mirrored half-period map is no orbit, and the shot says so rather than return it.
  const UedaDuffing declared_anyway(true);
  const Model& wrong = declared_anyway;
  const auto lopsided = wrong.start(parameter_values(wrong.parameters(), {{"B", "2"}, {"e", "0.05"}}));
  const PeriodicOrbit refused = shoot_periodic_orbit(*lopsided, ueda_start(), 1, {}, OrbitSymmetry::Symmetric);
  INFO(refused.reason);
  CHECK_FALSE(refused.converged);
  CHECK(refused.reason.find("declared half-period symmetry does not hold") != std::string::npos);
  // Not told what to expect, the shot finds the (asymmetric) orbit of the full-period map.
  const PeriodicOrbit found = shoot_periodic_orbit(*lopsided, ueda_start(), 1);
  CHECK(found.converged);
  CHECK_FALSE(found.symmetric);
}

TEST_CASE("Half-period symmetry: continuation of Ueda's symmetric orbit names the symmetry breaking at B = "
          "2.2863817 (natural and arclength) and follows the symmetric orbit on",
          "[half_period_symmetry][continuation]") {
  const UedaDuffing model(false);
  const ParameterSet values = parameter_values(model.parameters(), {{"B", "2"}});
  for (const auto& [follow, method] : {std::pair{&continue_periodic_orbit, "natural"}, {&continue_by_arclength, "arclength"}}) {
    const Branch branch = follow(model, values, "B", 2, 2.6, ueda_start(), 1, ContinuationSettings{});
    INFO(method << ": " << branch.end);
    CHECK(branch.end == "reached the end of the range");
    REQUIRE(branch.events.size() == 1);
    const BranchEvent& event = branch.events.front();
    INFO(event.kind << " at " << std::setprecision(10) << event.parameter << " (" << event.detail << ")");
    CHECK(event.kind == "symmetry_breaking");
    CHECK(event.detail.rfind("pitchfork of the full-period map: half-period multiplier -", 0) == 0);
    CHECK(std::fabs(event.parameter - kSymmetryBreaking) < 1e-7);
    CHECK(std::abs(event.multiplier - 1.0) < 1e-3);
    for (const auto& q : branch.points) CHECK(q.orbit.symmetric);
    CHECK(branch.points.front().orbit.stable());
    CHECK(branch_character(branch.points.back().orbit).unstable == 1);
  }
}
