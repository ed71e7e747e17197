// The harmonically forced oscillator with dry friction x'' + x + mu sgn(x') = F cos(omega t) (Den Hartog,
// "Forced vibrations with combined Coulomb and viscous friction", Trans. ASME 53, 1931), in
// dimensionless time: modes slipping forwards, slipping backwards and sticking, switched by affine
// guards. Written against the hybrid-model API (analysis/hybrid_model.hpp): the whole model is this file.
#include <cmath>

#include "analysis/hybrid_model.hpp"
#include "engine/core/model_registry.hpp"

// The registered name. A project that builds this file into a plugin for a vibro that has the model
// built in gives it another (-DVIBRO_MODEL_NAME="..."), as tests/plugins/test_out_of_tree.py does.
#ifndef VIBRO_MODEL_NAME
#define VIBRO_MODEL_NAME "dry_friction_oscillator"
#endif

namespace vibro::dry_friction_oscillator {

using G = ParameterGroup;

class DryFrictionOscillatorModel final : public HybridModel<2> {
 public:
  DryFrictionOscillatorModel()
      : HybridModel<2>({VIBRO_MODEL_NAME,
                        "1-DOF forced oscillator with Coulomb friction: slip, stick (Den Hartog 1931)",
                        {{"x", "-"}, {"v", "-"}},
                        {ParameterSpec::real("mu", G::Physics, "-", 0.3, 0, 1e3, "friction force / stiffness"),
                         ParameterSpec::real("F", G::Physics, "-", 1, 0, 1e3, "forcing amplitude"),
                         ParameterSpec::real("omega", G::Physics, "-", 0.7, 0, 1e3, "forcing frequency").open_below(),
                         ParameterSpec::real("x0", G::Initial, "-", 0, -1e3, 1e3, "initial displacement"),
                         ParameterSpec::real("v0", G::Initial, "-", 0, -1e3, 1e3, "initial velocity")},
                        {{WindowStat::Maximum, "x"}, {WindowStat::Minimum, "x"}, {WindowStat::HalfPeakToPeak, "x"}}}) {}

  // Odd in (x, v) with the forcing's sign changing over half a period: (x, v, t) -> (-x, -v, t + T/2)
  // maps motions onto motions, slipping forwards onto slipping backwards (and a halt or release of
  // one onto the other's). Den Hartog's orbits are the symmetric ones; shooting solves for them as
  // such, well posed where they are nearly neutral to breaking the symmetry.
  std::optional<HalfPeriodSymmetry> half_period_symmetry(const ParameterSet&) const override {
    return HalfPeriodSymmetry::with_signs({-1, -1})
        .swap_modes("slip+", "slip-")
        .swap_modes("resting on halt+", "resting on halt-")
        .swap_modes("resting on slip+", "resting on slip-");
  }

  HybridDescription<2> describe(const ParameterSet& p) const override {
    const double mu = p.get("mu"), F = p.get("F");
    HybridDescription<2> d;
    d.period = 2 * M_PI / p.get("omega");
    d.initial << p.get("x0"), p.get("v0");
    // Slipping with velocity of sign s: x'' = F cos(wt) - x - s mu.
    auto slipping = [F, mu](double s) {
      return [F, mu, s](const auto& x, const auto& drive, auto& dx) {
        dx[0] = x[1];
        dx[1] = F * drive.cos - x[0] - s * mu;
      };
    };
    const int forwards = d.mode("slip+", slipping(1));
    const int backwards = d.mode("slip-", slipping(-1));
    const int stuck = d.mode("stick", [](const auto&, const auto&, auto& dx) { dx.setZero(); });
    SwitchGuard<2> halt;  // the velocity reaches zero
    halt.a << 0, 1;
    halt.target = stuck;
    d.switch_guard(forwards, "halt+", halt);
    halt.crossing = Crossing::Rising;
    d.switch_guard(backwards, "halt-", halt);
    // Stuck while |F cos(wt) - x| <= mu; leaves forwards or backwards when the force exceeds it.
    SwitchGuard<2> slip;
    slip.a << -1, 0;
    slip.a_cos = F;
    slip.b = -mu;
    slip.crossing = Crossing::Rising;
    slip.target = forwards;
    d.switch_guard(stuck, "slip+", slip);
    slip.b = mu;
    slip.crossing = Crossing::Falling;
    slip.target = backwards;
    d.switch_guard(stuck, "slip-", slip);
    const double v0 = p.get("v0");
    d.initial_mode = v0 > 0 ? forwards : v0 < 0 ? backwards : stuck;
    return d;
  }
};

static RegisterModel<DryFrictionOscillatorModel> registration;

}  // namespace vibro::dry_friction_oscillator
