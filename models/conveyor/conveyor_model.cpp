// The vibratory conveyor as an extended bouncing ball (point mass, Newton restitution, Coulomb impulse,
// microthrows and coupled normal motion), registered as "conveyor".
#include <cmath>
#include <memory>

#include "analysis/steady_state.hpp"
#include "analysis/strobe_sample_window.hpp"
#include "engine/core/model_registry.hpp"
#include "models/conveyor/conveyor_classes.hpp"
#include "models/conveyor/conveyor_parameters.hpp"
#include "models/conveyor/conveyor_simulation.hpp"
#include "models/conveyor/conveyor_window.hpp"

namespace vibro::conveyor {

class ConveyorModel : public Model {
 public:
  std::string name() const override { return "conveyor"; }
  std::string summary() const override {
    return "vibratory conveyor: point mass on a plate moving harmonically on an inclined line; Newton "
           "restitution, Coulomb impulse with stick clamp, microthrows (Zeno) and coupled stick/slip motion "
           "(extended bouncing ball)";
  }
  const std::vector<ParameterSpec>& parameters() const override { return conveyor_parameter_specs(); }
  std::vector<ObservableSpec> observables() const override {
    return {{"mean_velocity", "m/s", "mean feeding velocity over the averaging window"},
            {"mean_velocity_first_half", "m/s", "mean feeding velocity over the window's first half"},
            {"mean_velocity_second_half", "m/s", "mean feeding velocity over the window's second half"},
            {"impacts_per_period", "1/period", "impacts in the window per forcing period"},
            {"last_impact_phase", "rad", "the plate's phase (mod 2 pi) at the last impact before the window's end"}};
  }
  std::unique_ptr<Simulation> start(const ParameterSet& p) const override {
    return std::make_unique<ConveyorSimulation>(ConveyorConstants::from(p), ConveyorStart::from(p));
  }
  ModelCapabilities capabilities() const override { return {true, true, true}; }
  std::vector<ClassCode> class_legend() const override { return conveyor_class_legend(); }
  CaseSummary summarize(const SteadyState& steady, const StrobeLayout& layout, const ParameterSet&) const override {
    CaseSummary summary;
    summary.class_code = classify_conveyor(steady);
    double observables[kConveyorObservables];
    conveyor_observables_of(window_of(steady.window), steady.period, layout.period, observables);
    summary.observables.assign(observables, observables + kConveyorObservables);
    return summary;
  }
};

static RegisterModel<ConveyorModel> registration;

}  // namespace vibro::conveyor
