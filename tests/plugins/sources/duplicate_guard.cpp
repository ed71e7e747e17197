// A user's model whose two modes each declare a switch guard named 'flip' (a copy-paste slip): guard
// names are the result file's and the trace's vocabulary, so vibro refuses the model when a sweep
// picks it, before any case runs, naming the guard.
#include "analysis/hybrid_model.hpp"
#include "engine/core/model_registry.hpp"

namespace {

using vibro::ParameterSpec;
using G = vibro::ParameterGroup;

class TwoFlips final : public vibro::HybridModel<2> {
 public:
  TwoFlips()
      : HybridModel<2>({"duplicate_guard",
                        "forced oscillator with a spring that stiffens for x > 0, both switches named 'flip'",
                        {{"x", "-"}, {"v", "-"}},
                        {ParameterSpec::real("omega", G::Physics, "-", 0.8, 0, 1e3, "forcing frequency").open_below()},
                        {{vibro::WindowStat::Maximum, "x"}}}) {}

  vibro::HybridDescription<2> describe(const vibro::ParameterSet& p) const override {
    vibro::HybridDescription<2> d;
    d.period = 2 * M_PI / p.get("omega");
    const int soft = d.mode("soft", [](const auto& x, const auto& drive, auto& dx) {
      dx[0] = x[1];
      dx[1] = drive.cos - 0.1 * x[1] - x[0];
    });
    const int stiff = d.mode("stiff", [](const auto& x, const auto& drive, auto& dx) {
      dx[0] = x[1];
      dx[1] = drive.cos - 0.1 * x[1] - 4.0 * x[0];
    });
    vibro::SwitchGuard<2> up;
    up.a << 1, 0;
    up.crossing = vibro::Crossing::Rising;
    up.target = stiff;
    d.switch_guard(soft, "flip", up);
    vibro::SwitchGuard<2> down = up;
    down.crossing = vibro::Crossing::Falling;
    down.target = soft;
    d.switch_guard(stiff, "flip", down);
    return d;
  }
};

const vibro::RegisterModel<TwoFlips> registration;

}  // namespace
