// The bouncing dimer of seed 003 (spec bouncing_dimer.md), registered as "dimer".
#include <memory>

#include "analysis/steady_state.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "models/dimer/dimer_classes.hpp"
#include "models/dimer/dimer_parameters.hpp"
#include "models/dimer/dimer_simulation.hpp"

namespace vibro::dimer {

class DimerModel : public Model {
 public:
  std::string name() const override { return "dimer"; }
  std::string summary() const override {
    return "dimer (two spheres on a rod) on a vertically vibrating plate: two unilateral frictional contacts, "
           "impacts in the impulse domain (Darboux-Keller, Stronge restitution, incremental Coulomb with the "
           "mu_st vs mu_s test, LZB double impacts), Moreau-Jean contact phases (seed 003)";
  }
  const std::vector<ParameterSpec>& parameters() const override { return dimer_parameter_specs(); }
  std::vector<ObservableSpec> observables() const override { return dimer_observables(); }
  void validate(const ParameterSet& p) const override {
    const double mu_s = p.get("mu_s");
    if (p.get("mu_c") > mu_s) throw InputError("mu_c must not exceed mu_s (accepted range: [0, mu_s])");
    if (p.get("mu_i") > mu_s) throw InputError("mu_i must not exceed mu_s (accepted range: [0, mu_s])");
    if (p.get("d_rod") > 2 * p.get("r")) throw InputError("d_rod must not exceed the sphere diameter 2 r");
  }
  std::unique_ptr<Simulation> start(const ParameterSet& p) const override {
    return std::make_unique<DimerSimulation>(DimerConstants::from(p));
  }
  ModelCapabilities capabilities() const override { return {true, false, true}; }  // no variational equations
  CaseSummary summarize(const SteadyState& steady, const StrobeLayout&, const ParameterSet& p) const override {
    const DimerConstants c = DimerConstants::from(p);
    const DimerReading reading = read_dimer(steady, c);
    return {dimer_class_code(reading, steady), dimer_observable_values(reading, c)};
  }
};

static RegisterModel<DimerModel> registration;

}  // namespace vibro::dimer
