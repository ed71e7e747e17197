// A fixed run's held windows reduced in the conveyor's batch (CaseBatch::reduce_held, the way a GPU
// reduces them beside its samples) against the runner's own reading of the same rows
// (classify_held_row, then the model's summary): the same result, bit for bit, across the classes of
// the Fig. 6 map; and the null back end hands every case its template's summary.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "conveyor/conveyor_fixture.hpp"
#include "engine/batch/null_batch.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/held_window.hpp"
#include "models/conveyor/conveyor_batch.hpp"
#include "support/same_sample.hpp"

namespace vibro::conveyor {
namespace {

using vibro::testing::same_bits;
using vibro::testing::same_sample;

// a_hat 30..80 m/s^2 x z0 0.1..4 mm: hopping, microthrows, permanent contact, chaos.
std::vector<ParameterSet> fig6_cases() {
  std::vector<ParameterSet> out;
  for (int a = 0; a < 11; ++a)
    for (int z = 0; z < 4; ++z)
      out.push_back(testing::conveyor_values({{"a_hat", std::to_string(30 + 5 * a)},
                                              {"z0", std::to_string(1e-4 + 1.3e-3 * z)},
                                              {"f", "50"}, {"phi", "12"}, {"c_r", "0.6"}, {"mu", "0.15"}}));
  return out;
}

SteadyStateSettings fixed_settings() {
  SteadyStateSettings s;
  s.mode = SteadyMode::Fixed;
  s.max_periods = 100;
  s.window_periods = 50;
  return s;
}

void require_same(const CaseResult& a, const CaseResult& b) {
  REQUIRE(a.status == b.status);
  CHECK(a.class_code == b.class_code);
  CHECK(a.periodicity == b.periodicity);
  CHECK(a.period == b.period);
  CHECK(a.stopped_early == b.stopped_early);
  CHECK(a.periods_run == b.periods_run);
  CHECK(a.window_periods == b.window_periods);
  REQUIRE(a.observables.size() == b.observables.size());
  for (std::size_t k = 0; k < a.observables.size(); ++k) CHECK(same_bits(a.observables[k], b.observables[k]));
  CHECK(a.counters == b.counters);
  CHECK(a.window_counters == b.window_counters);
  CHECK(a.has_final_state == b.has_final_state);
  CHECK(same_sample(a.final_state, b.final_state));
}

// The cases stepped `unkept` periods without samples, then the rest of the budget into held rows.
std::unique_ptr<CaseBatch> stepped(const std::vector<ParameterSet>& values, int unkept, const HeldWindow* reduce) {
  auto batch = conveyor_batch(BatchDevice::Cpu, CaseLimits{});
  if (reduce) batch->reduce_held(*reduce);
  const int row = fixed_settings().max_periods - unkept;
  REQUIRE(batch->hold_samples(row));
  std::vector<std::exception_ptr> errors;
  batch->add(values, errors);
  batch->launch(fixed_settings().max_periods, unkept);
  return batch;
}

}  // namespace

TEST_CASE("conveyor batch: held windows reduced in the batch equal the runner's classification", "[conveyor][batch][held]") {
  const SteadyStateSettings settings = fixed_settings();
  const Model& model = ModelRegistry::instance().get("conveyor");
  const std::vector<ParameterSet> values = fig6_cases();
  // 49 unread periods (the window is the whole row), and 40 (the window starts 9 samples in).
  for (const int unkept : {unread_leading_periods(settings), 40}) {
    const HeldWindow window = held_window(unkept, settings);
    REQUIRE(window.samples == settings.window_periods + 1);
    CHECK(window.first == settings.max_periods - unkept - window.samples);
    const auto classified = stepped(values, unkept, nullptr);
    const auto reduced = stepped(values, unkept, &window);
    REQUIRE(reduced->reduces_held());
    std::set<std::string> classes;
    SteadyState steady;
    for (int i = 0; i < static_cast<int>(values.size()); ++i) {
      CaseResult a, b;
      const StrobeLayout& layout = classified->layout(i);
      const int seen = classify_held_row(*classified, i, unkept, settings.max_periods - unkept, layout, settings, steady);
      record_classified_window(model, values[static_cast<std::size_t>(i)], layout, steady, seen, 0, StrobePoints::None, a);
      HeldSummary summary;
      StrobeSample first, last;
      reduced->held_summary(i, summary, first, last);
      record_held_summary(summary, reduced->layout(i), first, last, window.samples - 1, settings.max_periods, b);
      require_same(a, b);
      classes.insert(a.class_code);
    }
    // The map's variety reached the comparison (hopping, microthrows, contact, chaos).
    CHECK(classes.size() >= 4);
  }
}

TEST_CASE("null batch: every case's reduced window is its template's", "[conveyor][batch][null][held]") {
  const SteadyStateSettings settings = fixed_settings();
  const int unkept = unread_leading_periods(settings);
  const HeldWindow window = held_window(unkept, settings);
  auto device = std::make_shared<NullDevice>(0.0);
  NullBatch batch(conveyor_batch(BatchDevice::Cpu, CaseLimits{}), conveyor_batch(BatchDevice::Cpu, CaseLimits{}), device);
  REQUIRE(batch.reduces_held());
  batch.reduce_held(window);
  REQUIRE(batch.hold_samples(settings.max_periods - unkept));
  std::vector<ParameterSet> values;
  for (int k = 0; k < 3; ++k)
    for (const ParameterSet& v : fig6_cases()) values.push_back(v);
  std::vector<std::exception_ptr> errors;
  batch.add(values, errors);
  batch.launch(settings.max_periods, unkept);
  batch.wait();
  std::set<std::string> classes;
  const int n = static_cast<int>(values.size());
  for (int i = 0; i + NullBatch::kTemplates < n; ++i) {
    HeldSummary a, b;
    StrobeSample first_a, last_a, first_b, last_b;
    batch.held_summary(i, a, first_a, last_a);
    batch.held_summary(i + NullBatch::kTemplates, b, first_b, last_b);
    CHECK(std::string(a.class_code.text) == b.class_code.text);
    CHECK(same_bits(a.observables, b.observables));
    CHECK(same_sample(last_a, last_b));
    classes.insert(a.class_code.text);
  }
  CHECK(classes.size() > 1);
}

}  // namespace vibro::conveyor
