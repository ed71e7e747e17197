#include "jobs/cli/model_layout.hpp"

#include <memory>
#include <stdexcept>

#include "engine/core/input_error.hpp"

namespace vibro::cli {

DefaultLayout default_layout(const Model& model) {
  const std::vector<ParameterSpec>& specs = model.parameters();
  std::unique_ptr<Simulation> simulation;
  try {
    simulation = model.start(ParameterSet(&specs));
  } catch (const InfeasibleCase& e) {
    return {std::nullopt, std::string("the default case does not start (") + e.what() + ")"};
  } catch (const std::logic_error& e) {  // a description the hybrid-model API refuses (a name declared twice)
    throw InputError("model " + model.name() + ": " + e.what());
  }
  if (!simulation) return {std::nullopt, "the model starts no simulation"};  // e.g. a plugin that only registers
  return {simulation->layout(), ""};
}

}  // namespace vibro::cli
