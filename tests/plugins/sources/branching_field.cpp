// A user's model whose vector field branches on the state (a piecewise-linear spring written with
// `if`): it runs on the cpu back end, and the batched back ends, which run a field's traced tape,
// refuse it before any work, naming the mode.
#include "analysis/hybrid_model.hpp"
#include "engine/core/model_registry.hpp"

namespace {

using vibro::ParameterSpec;
using G = vibro::ParameterGroup;

class Bilinear final : public vibro::HybridModel<2> {
 public:
  Bilinear()
      : HybridModel<2>({"branching_field",
                        "forced oscillator with a stiffer spring for x > 0, written with a branch",
                        {{"x", "-"}, {"v", "-"}},
                        {ParameterSpec::real("omega", G::Physics, "-", 0.8, 0, 1e3, "forcing frequency").open_below()},
                        {{vibro::WindowStat::Maximum, "x"}}}) {}

  vibro::HybridDescription<2> describe(const vibro::ParameterSet& p) const override {
    vibro::HybridDescription<2> d;
    d.period = 2 * M_PI / p.get("omega");
    d.mode("springs", [](const auto& x, const auto& drive, auto& dx) {
      dx[0] = x[1];
      if (x[0] > 0)
        dx[1] = drive.cos - 0.1 * x[1] - 4.0 * x[0];
      else
        dx[1] = drive.cos - 0.1 * x[1] - x[0];
    });
    return d;
  }
};

const vibro::RegisterModel<Bilinear> registration;

}  // namespace
