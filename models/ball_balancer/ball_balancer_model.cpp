// The vertical ball balancer of seed 002 (spec ball_balancer.md), registered as "ball_balancer".
#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/steady_state.hpp"
#include "engine/core/model_registry.hpp"
#include "models/ball_balancer/ball_balancer_observables.hpp"
#include "models/ball_balancer/ball_balancer_parameters.hpp"
#include "models/ball_balancer/ball_balancer_simulation.hpp"

namespace vibro::ball_balancer {

class BallBalancerModel : public Model {
 public:
  std::string name() const override { return "ball_balancer"; }
  std::string summary() const override {
    return "vertical ball-type automatic balancer: rotor x, y on springs and dampers with a prescribed spin and "
           "an unbalance, 0-10 balls in a race with drag and rolling resistance; point-mass or finite-radius "
           "balls with collisions, trains and separations (seed 002)";
  }
  const std::vector<ParameterSpec>& parameters() const override { return ball_balancer_parameter_specs(); }
  std::vector<ObservableSpec> observables() const override { return ball_balancer_observables(); }
  void validate(const ParameterSet& values) const override { constants_from(values); }
  std::unique_ptr<Simulation> start(const ParameterSet& p) const override {
    return std::make_unique<BallBalancerSimulation>(constants_from(p));
  }
  ModelCapabilities capabilities() const override { return {true, false, true}; }  // no variational equations
  CaseSummary summarize(const SteadyState& steady, const StrobeLayout&, const ParameterSet& p) const override {
    return summarize_window(steady, constants_from(p));
  }
};

static RegisterModel<BallBalancerModel> registration;

}  // namespace vibro::ball_balancer
