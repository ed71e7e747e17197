// The size of system a user brings: a chain of 6 unit masses on unit springs between walls, each
// mass between two rigid stops (12 stops, 12 state components), forced at the first mass, declared
// through the hybrid-model API with the amplitude of every mass and a counter for every stop.
#include <cmath>
#include <string>
#include <vector>

#include "analysis/hybrid_model.hpp"
#include "engine/core/model_registry.hpp"

namespace {

using namespace vibro;
constexpr int kBodies = 6, kStates = 2 * kBodies;

HybridModelInfo chain_info() {
  using G = ParameterGroup;
  HybridModelInfo info{"six_body_chain", "6 masses on springs between walls, each between two rigid stops", {}, {}, {}};
  for (int i = 1; i <= kBodies; ++i) {
    info.state.push_back({"x" + std::to_string(i), "-"});
    info.state.push_back({"v" + std::to_string(i), "-"});
    info.observables.push_back({WindowStat::HalfPeakToPeak, "x" + std::to_string(i)});
  }
  info.observables.push_back({WindowStat::ImpactsPerPeriod, ""});
  info.parameters = {ParameterSpec::real("F", G::Physics, "-", 3, 0, 1e3, "forcing amplitude on mass 1"),
                     ParameterSpec::real("omega", G::Physics, "-", 1.3, 0, 1e3, "forcing frequency").open_below(),
                     ParameterSpec::real("gap", G::Physics, "-", 0.3, 0, 1e3, "each mass moves in [-gap, gap]").open_below(),
                     ParameterSpec::real("r", G::Physics, "-", 0.7, 0, 1, "coefficient of restitution")};
  return info;
}

class SixBodyChain final : public HybridModel<kStates> {
 public:
  SixBodyChain() : HybridModel<kStates>(chain_info()) {}

  HybridDescription<kStates> describe(const ParameterSet& p) const override {
    const double F = p.get("F"), gap = p.get("gap");
    HybridDescription<kStates> d;
    d.period = 2 * M_PI / p.get("omega");
    // x_i at 2i, v_i at 2i+1; light damping.
    const int free = d.mode("free", [F](const auto& x, const auto& drive, auto& dx) {
      for (int i = 0; i < kBodies; ++i) {
        const auto left = i > 0 ? x[2 * i - 2] : 0 * x[0], right = i + 1 < kBodies ? x[2 * i + 2] : 0 * x[0];
        dx[2 * i] = x[2 * i + 1];
        dx[2 * i + 1] = left + right - 2 * x[2 * i] - 0.05 * x[2 * i + 1] + (i == 0 ? F : 0.0) * drive.cos;
      }
    });
    for (int i = 0; i < kBodies; ++i)
      for (const bool above : {true, false}) {
        StopLaw stop;
        stop.position = 2 * i;
        stop.velocity = 2 * i + 1;
        stop.at = above ? gap : -gap;
        stop.stop_above = above;
        stop.restitution = p.get("r");
        stop.counted = true;
        d.stop(free, std::string(above ? "upper_" : "lower_") + std::to_string(i + 1), stop);
      }
    return d;
  }
};

const RegisterModel<SixBodyChain> registration;

}  // namespace
