#pragma once
// A hybrid dynamical system as the engine sees it: declared parameters, a simulation that emits
// stroboscopic samples, and a model-specific refinement of the steady state the detector found.
#include <Eigen/Dense>
#include <complex>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/batch/case_batch.hpp"
#include "engine/core/case_budget.hpp"
#include "engine/core/model_legend.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"
#include "engine/core/trace_sink.hpp"

namespace vibro {

struct SteadyState;         // analysis/steady_state.hpp
class DescribedCasesBase;   // engine/hybrid_model/described_cuda_batch.hpp

// A case that cannot start (e.g. a first-impact condition with no impact): recorded, not an error.
class InfeasibleCase : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A case that failed numerically (event cap, NaN, ...): recorded with its reason; the sweep goes on.
class CaseFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ObservableSpec {
  std::string name;
  std::string unit;
  std::string description;
};

// The model's reading of a steady state: its class code (e.g. "H1", "M2", "S1", "X") and observables
// in the order of Model::observables().
struct CaseSummary {
  std::string class_code;
  std::vector<double> observables;
};

// One application of a stroboscopic map with its Jacobian (see Simulation::stroboscopic_map).
struct MapStep {
  StrobeSample image{};     // where the map takes the state (state components as in the layout)
  Eigen::MatrixXd jacobian;  // d image / d state over the layout's state components
  long long events = 0;      // impacts on the way (a change of this count along a branch is a grazing)
  // Mode changes located on the way (a switch, coming to rest, a release); a mode entered already past
  // one of its guards and left at once is not counted (no time is spent in it). A change of this count
  // along a branch with the same impacts is the onset or end of a mode's phase (sticking, sliding).
  long long switches = 0;
  // Events on the way after which the state no longer depends on its start in some direction (the
  // conveyor's coupled phase absorbs the normal state): the ordinary Lyapunov exponents are -inf
  // through them (analysis/map_lyapunov).
  int resets = 0;
};

// Whether an orbit stays physical where the model's contact law could leave it: a compliant contact
// whose viscous part makes it pull (tensile force) before the bodies separate. Rigid contacts need no
// check here: their events are located, so a simulated orbit never penetrates.
struct Admissibility {
  bool measured = false;          // the model checks its contact forces
  bool admissible = true;
  double min_contact_force = std::numeric_limits<double>::quiet_NaN();  // N; NaN: no contact phase
  std::string violation;          // what is not physical, with the number
};

class Simulation {
 public:
  virtual ~Simulation() = default;
  virtual const StrobeLayout& layout() const = 0;
  // Runs forward, calling observer.on_sample at every t = k T, until the observer says stop.
  // A later call continues from the sample it stopped at (or from restart_from's state).
  virtual void run(StrobeObserver& observer) = 0;
  // Makes the next run() start from a stroboscopic state (same period count, drift position and
  // counters). Used to carry a state along a continuation axis and to jump a geometrically
  // converging transient to its extrapolated limit. Returns false if the state is not admissible.
  virtual bool restart_from(const StrobeSample& /*sample*/) { return false; }
  // Floquet multipliers of the period-`periods` orbit through the state where run() stopped (a
  // converged stroboscopic sample), from the variational equations with saltation matrices at
  // every event. Empty when the model does not provide them.
  virtual std::vector<std::complex<double>> floquet_multipliers(int /*periods*/) { return {}; }
  // The stroboscopic map over `periods` periods from the state of `from` (its state components and
  // mode), with its Jacobian from the variational equations and saltation matrices at every event:
  // what Newton shooting needs. Leaves the simulation as it was. False when the model does not
  // provide it or `from` is not an admissible state. Lyapunov exponents come from it too
  // (analysis/map_lyapunov).
  virtual bool stroboscopic_map(const StrobeSample& /*from*/, int /*periods*/, MapStep& /*step*/) { return false; }
  // The contact forces over `periods` periods from `from` (Admissibility). Leaves the simulation as it
  // was. Not measured when the model does not provide it.
  virtual Admissibility admissibility(const StrobeSample& /*from*/, int /*periods*/) { return {}; }
  // The components of the time history a TraceSink receives (engine/core/trace_sink.hpp).
  virtual TraceLayout trace_layout() const { return {}; }
  // From the next run() on, reports the dense state and the events to `sink` (nullptr: none; the
  // orbit is the same either way). Models with ModelCapabilities::trace.
  virtual void attach_trace(TraceSink* /*sink*/) {}
};

// What a model's Simulation provides beyond run(). A sweep or `vibro continue` that needs one the
// model lacks is refused before any case starts (jobs/sweep/model_features.hpp).
struct ModelCapabilities {
  bool restart = false;    // restart_from: continuation along an axis, vibro continue
  bool jacobians = false;  // stroboscopic_map, floquet_multipliers: Floquet, shooting, Lyapunov exponents
  bool trace = false;      // trace_layout, attach_trace: vibro trace
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  virtual const std::vector<ParameterSpec>& parameters() const = 0;
  virtual std::vector<ObservableSpec> observables() const = 0;
  // Cross-parameter checks that a range cannot express; throws InputError.
  virtual void validate(const ParameterSet& /*values*/) const {}
  // Throws InfeasibleCase when the initial condition admits no motion of the declared kind.
  virtual std::unique_ptr<Simulation> start(const ParameterSet& values) const = 0;
  virtual CaseSummary summarize(const SteadyState& steady, const StrobeLayout& layout,
                                const ParameterSet& values) const = 0;
  // None unless the model says so: a feature it was never written for is refused, not run empty.
  virtual ModelCapabilities capabilities() const { return {}; }
  // Every class code summarize() can return (patterns allowed, model_legend.hpp), with its meaning:
  // written into every result file and listed by `vibro describe`.
  virtual std::vector<ClassCode> class_legend() const { return {}; }
  // Many of its cases stepped together on `device` (run.backend = batched | cuda), for a model that
  // makes its own batches (the hybrid-model API's); nullptr when it has none there. A model with a
  // kernel of its own registers it instead (engine/batch/batch_registry.hpp).
  virtual std::unique_ptr<CaseBatch> batch(BatchDevice /*device*/, const CaseLimits& /*limits*/) const { return nullptr; }
  // A model of the hybrid-model API: how its cases are described, from which the host makes its GPU
  // batch (a plugin cannot: the CUDA kernels are the host's). nullptr for any other model.
  virtual const DescribedCasesBase* described_cases() const { return nullptr; }
};

}  // namespace vibro
