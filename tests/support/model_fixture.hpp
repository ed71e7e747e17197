#pragma once
// What every model's tests need: a parameter set from name/value pairs written as a user would write
// them, and an observer that records a run's stroboscopic samples.
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro::test_support {

struct Setting {
  std::string name;
  std::string value;  // parsed as the user would write it
};

// The model's defaults with `settings` applied (each parsed and range-checked by its spec).
inline ParameterSet parameter_values(const std::vector<ParameterSpec>& specs, std::initializer_list<Setting> settings) {
  ParameterSet values(&specs);
  for (const auto& s : settings) {
    const int i = values.index_of(s.name);
    values.set_at(i, values.specs()[static_cast<std::size_t>(i)].parse(s.value));
  }
  return values;
}

// Records samples until it has `periods` of them.
class Recorder : public StrobeObserver {
 public:
  explicit Recorder(int periods) : periods_(periods) {}
  bool on_sample(const StrobeSample& sample) override {
    samples.push_back(sample);
    return static_cast<int>(samples.size()) < periods_;
  }
  std::vector<StrobeSample> samples;

 private:
  int periods_;
};

}  // namespace vibro::test_support
