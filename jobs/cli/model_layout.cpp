#include "jobs/cli/model_layout.hpp"

#include <memory>

namespace vibro::cli {

DefaultLayout default_layout(const Model& model) {
  const std::vector<ParameterSpec>& specs = model.parameters();
  std::unique_ptr<Simulation> simulation;
  try {
    simulation = model.start(ParameterSet(&specs));
  } catch (const InfeasibleCase& e) {
    return {std::nullopt, std::string("the default case does not start (") + e.what() + ")"};
  }
  if (!simulation) return {std::nullopt, "the model starts no simulation"};  // e.g. a plugin that only registers
  return {simulation->layout(), ""};
}

}  // namespace vibro::cli
