// The single-degree-of-freedom impact oscillator x'' + 2 zeta x' + x = cos(omega t) against a rigid
// stop at x = sigma with Newton restitution r (Shaw and Holmes, "A periodically forced piecewise
// linear oscillator", J. Sound Vib. 90, 1983), in dimensionless time. Written against the hybrid-model
// API (analysis/hybrid_model.hpp): the whole model is this file.
#include <cmath>

#include "analysis/hybrid_model.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"

namespace vibro::impact_oscillator {

using G = ParameterGroup;

class ImpactOscillatorModel final : public HybridModel<2> {
 public:
  ImpactOscillatorModel()
      : HybridModel<2>({"impact_oscillator",
                        "1-DOF forced oscillator against a rigid stop with restitution (Shaw and Holmes 1983)",
                        {{"x", "-"}, {"v", "-"}},
                        {ParameterSpec::real("zeta", G::Physics, "-", 0.1, 0, 10, "damping ratio"),
                         ParameterSpec::real("omega", G::Physics, "-", 0.8, 0, 1e3, "forcing frequency").open_below(),
                         ParameterSpec::real("sigma", G::Physics, "-", 0.5, -1e3, 1e3, "stop position"),
                         ParameterSpec::real("r", G::Physics, "-", 0.8, 0, 1, "coefficient of restitution"),
                         ParameterSpec::real("x0", G::Initial, "-", 0, -1e3, 1e3, "initial displacement"),
                         ParameterSpec::real("v0", G::Initial, "-", 0, -1e3, 1e3, "initial velocity")},
                        {{WindowStat::ImpactsPerPeriod, ""},
                         {WindowStat::ImpactSpeed, ""},
                         {WindowStat::ImpactPhase, ""},
                         {WindowStat::Maximum, "x"},
                         {WindowStat::HalfPeakToPeak, "x"}}}) {
    explain_classes({{"(1,1)[~]", "the fundamental impacting orbit: one impact on the stop per forcing period"},
                     {"(2,2)[~]", "the orbit after the period doubling of (1,1): two impacts per two periods"},
                     {"P1[~]", "the harmonic response, which does not reach the stop (sigma above its amplitude)"}});
  }

  HybridDescription<2> describe(const ParameterSet& p) const override {
    const double zeta = p.get("zeta"), sigma = p.get("sigma");
    HybridDescription<2> d;
    d.period = 2 * M_PI / p.get("omega");
    d.initial << p.get("x0"), p.get("v0");
    const int free = d.mode("free", [zeta](const auto& x, const auto& drive, auto& dx) {
      dx[0] = x[1];
      dx[1] = drive.cos - 2 * zeta * x[1] - x[0];
    });
    StopLaw stop;
    stop.at = sigma;
    stop.restitution = p.get("r");
    d.stop(free, "stop", stop);
    return d;
  }

  void validate(const ParameterSet& p) const override {
    if (p.get("x0") > p.get("sigma")) throw InputError("x0 lies beyond the stop (accepted range: x0 <= sigma)");
  }
};

static RegisterModel<ImpactOscillatorModel> registration;

}  // namespace vibro::impact_oscillator
