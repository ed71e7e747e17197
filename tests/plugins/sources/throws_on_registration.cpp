// A model plugin whose model's constructor throws while the plugin is loaded (as a model whose
// declaration is wrong does): vibro must refuse the file with the model's message, not abort.
#include <stdexcept>
#include <string>

#include "engine/core/model_registry.hpp"

namespace {

class ThrowsWhenBuilt final : public vibro::Model {
 public:
  ThrowsWhenBuilt() { throw std::invalid_argument("model throws_when_built: 3 state components declared for 2"); }
  std::string name() const override { return "throws_when_built"; }
  std::string summary() const override { return ""; }
  const std::vector<vibro::ParameterSpec>& parameters() const override { return specs_; }
  std::vector<vibro::ObservableSpec> observables() const override { return {}; }
  std::unique_ptr<vibro::Simulation> start(const vibro::ParameterSet&) const override { return nullptr; }
  vibro::CaseSummary summarize(const vibro::SteadyState&, const vibro::StrobeLayout&, const vibro::ParameterSet&) const override {
    return {};
  }

 private:
  std::vector<vibro::ParameterSpec> specs_;
};

const vibro::RegisterModel<ThrowsWhenBuilt> registration;

}  // namespace
