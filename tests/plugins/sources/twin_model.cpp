// A model plugin's source for the loader's tests: one model named by VIBRO_TEST_MODEL_NAME, which
// does nothing but register (the loader's checks never start it). With VIBRO_TEST_THROWS its
// constructor throws while the plugin loads, as a model whose declaration is wrong does: vibro must
// refuse the file with the model's message, not abort.
#include <memory>
#include <stdexcept>
#include <vector>

#include "engine/core/model_registry.hpp"

namespace {

class NamedOnly final : public vibro::Model {
 public:
#ifdef VIBRO_TEST_THROWS
  NamedOnly() { throw std::invalid_argument(VIBRO_TEST_THROWS); }
#endif
  std::string name() const override { return VIBRO_TEST_MODEL_NAME; }
  std::string summary() const override { return "a model for the plugin loader's tests"; }
  const std::vector<vibro::ParameterSpec>& parameters() const override { return specs_; }
  std::vector<vibro::ObservableSpec> observables() const override { return {}; }
  std::unique_ptr<vibro::Simulation> start(const vibro::ParameterSet&) const override { return nullptr; }
  vibro::CaseSummary summarize(const vibro::SteadyState&, const vibro::StrobeLayout&, const vibro::ParameterSet&) const override {
    return {};
  }

 private:
  std::vector<vibro::ParameterSpec> specs_;
};

const vibro::RegisterModel<NamedOnly> registration;

}  // namespace
