// The null back end's replayed groups (engine/batch/null_batch.hpp): a group whose plan is that of the
// group its templates came from replays their stepping instead of stepping them again. What its
// cases read (taken after every launch, the held rows, the reduced windows, a last launch's samples)
// must be what stepping those templates anew with the group's plan gives: a NullBatch that never
// replays, given the templates' group and the same plan, is the reference. Groups whose plan differs
// (another setup, another launch at the start or midway, rows not held) fall back to stepping.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "conveyor/conveyor_fixture.hpp"
#include "engine/batch/null_batch.hpp"
#include "jobs/sweep/held_window.hpp"
#include "models/conveyor/conveyor_batch.hpp"
#include "support/same_sample.hpp"

namespace vibro::conveyor {
namespace {

using vibro::testing::same_bits;
using vibro::testing::same_sample;

// A map's mix of motions: a_hat 30..80 m/s^2 x z0 0.1..4 mm, `n` cases from `offset` on.
std::vector<ParameterSet> map_cases(int n, int offset) {
  std::vector<ParameterSet> out;
  for (int k = offset; k < offset + n; ++k)
    out.push_back(testing::conveyor_values({{"a_hat", std::to_string(30 + (k * 7) % 51)},
                                            {"z0", std::to_string(1e-4 + 1e-4 * ((k * 13) % 39))}}));
  return out;
}

std::unique_ptr<NullBatch> null_batch(bool replay, const CaseLimits& limits = {}) {
  return std::make_unique<NullBatch>(conveyor_batch(BatchDevice::Cpu, limits), conveyor_batch(BatchDevice::Cpu, limits),
                                     std::make_shared<NullDevice>(0.0), replay);
}

// What a group asks of its batch, as the batched runner asks it.
struct GroupPlan {
  HeldWindow window;  // samples 0: no reduce_held
  int row = -1;       // -1: no hold_samples
  std::vector<std::pair<int, int>> launches;  // periods, unkept
};

void set_up(NullBatch& batch, const std::vector<ParameterSet>& values, const GroupPlan& plan) {
  batch.clear();
  if (plan.window.samples > 0) batch.reduce_held(plan.window);
  if (plan.row >= 0) REQUIRE(batch.hold_samples(plan.row));
  std::vector<std::exception_ptr> errors;
  for (const int slot : batch.add(values, errors)) REQUIRE(slot >= 0);
}

// Runs a group of `values` on `batch` with `plan`, and beside it the group its templates came from
// (`source`) on a batch that steps anew: case i must read what the reference's case i mod the
// templates' number does (both read template i mod that number): the periods taken after every
// launch, and the rows and summaries of the templates that took every launch whole (`failed`: how
// many did not). Returns whether `batch` replayed the group to its end.
bool matches_stepping_anew(NullBatch& batch, const std::vector<ParameterSet>& values,
                           const std::vector<ParameterSet>& source, const GroupPlan& plan,
                           const CaseLimits& limits = {}, int* failed = nullptr) {
  auto reference = null_batch(false, limits);
  set_up(*reference, source, plan);
  set_up(batch, values, plan);
  const int n = static_cast<int>(values.size());
  const int templates = std::min(NullBatch::kTemplates, static_cast<int>(source.size()));
  std::vector<char> whole(static_cast<std::size_t>(templates), 1);
  for (const auto& [periods, unkept] : plan.launches) {
    batch.launch(periods, unkept);
    reference->launch(periods, unkept);
    batch.wait();
    reference->wait();
    for (int i = 0; i < n; ++i) REQUIRE(batch.taken(i) == reference->taken(i % templates));
    for (int r = 0; r < templates; ++r)
      if (reference->taken(r) < periods) whole[static_cast<std::size_t>(r)] = 0;
  }
  if (failed) *failed = static_cast<int>(std::count(whole.begin(), whole.end(), 0));
  const auto& [periods, unkept] = plan.launches.back();
  const int row = plan.row >= 0 ? plan.row : periods - unkept;
  std::vector<StrobeSample> a(static_cast<std::size_t>(row)), b(a.size());
  for (int i = 0; i < n; ++i) {
    const int r = i % templates;
    if (!whole[static_cast<std::size_t>(r)]) continue;  // its row ends where it failed
    batch.samples(i, 0, row, a.data());
    reference->samples(r, 0, row, b.data());
    for (std::size_t k = 0; k < a.size(); ++k) REQUIRE(same_sample(a[k], b[k]));
    if (plan.window.samples == 0) continue;
    HeldSummary sa, sb;
    StrobeSample first_a, last_a, first_b, last_b;
    batch.held_summary(i, sa, first_a, last_a);
    reference->held_summary(r, sb, first_b, last_b);
    REQUIRE(std::string(sa.class_code.text) == sb.class_code.text);
    REQUIRE(sa.periodicity == sb.periodicity);
    REQUIRE(sa.period == sb.period);
    REQUIRE(same_bits(sa.observables, sb.observables));
    REQUIRE(same_sample(first_a, first_b));
    REQUIRE(same_sample(last_a, last_b));
  }
  return batch.replaying();
}

// Fixed mode, 30 periods, a window of 10: the groups' plans below.
SteadyStateSettings short_fixed_run() {
  SteadyStateSettings settings;
  settings.mode = SteadyMode::Fixed;
  settings.max_periods = 30;
  settings.window_periods = 10;
  return settings;
}

}  // namespace

TEST_CASE("null batch: a replayed group reads what stepping its templates anew gives", "[conveyor][batch][null][held]") {
  const SteadyStateSettings settings = short_fixed_run();
  const int unkept = unread_leading_periods(settings);
  const int row = settings.max_periods - unkept;
  REQUIRE(row > 8);
  // The runner's kind of plan: the unread periods first, then sampled launches up to the budget.
  GroupPlan reduced{held_window(unkept, settings), row, {{unkept + 3, unkept}, {4, 0}, {row - 7, 0}}};
  GroupPlan held{HeldWindow{}, row, {{unkept + 5, unkept}, {row - 5, 0}}};
  GroupPlan held_midway{HeldWindow{}, row, {{unkept + 5, unkept}, {3, 0}, {row - 8, 0}}};
  GroupPlan unheld{HeldWindow{}, -1, {{6, 2}, {6, 0}}};
  const std::vector<ParameterSet> first = map_cases(40, 0), second = map_cases(37, 100), third = map_cases(23, 200);

  auto batch = null_batch(true);
  CHECK_FALSE(matches_stepping_anew(*batch, first, first, reduced));   // steps the first group's templates
  CHECK(matches_stepping_anew(*batch, second, first, reduced));        // replays them
  CHECK(matches_stepping_anew(*batch, third, first, reduced));         // and again
  CHECK_FALSE(matches_stepping_anew(*batch, second, second, held));    // another setup: its own templates
  CHECK(matches_stepping_anew(*batch, first, second, held));           // replayed
  // Another launch midway: the templates its cases read (the second group's) stepped again.
  CHECK_FALSE(matches_stepping_anew(*batch, third, second, held_midway));
  CHECK(matches_stepping_anew(*batch, first, second, held_midway));   // the new plan replayed
  CHECK_FALSE(matches_stepping_anew(*batch, third, third, unheld));   // rows not held: stepped in every group
  CHECK_FALSE(matches_stepping_anew(*batch, first, first, unheld));
  CHECK_FALSE(matches_stepping_anew(*batch, second, second, reduced));  // held again: its own templates
  CHECK(matches_stepping_anew(*batch, first, second, reduced));
}

TEST_CASE("null batch: a group whose template failed is not replayed", "[conveyor][batch][null][held]") {
  const SteadyStateSettings settings = short_fixed_run();
  const int unkept = unread_leading_periods(settings);
  const int row = settings.max_periods - unkept;
  const GroupPlan held{HeldWindow{}, row, {{unkept + 5, unkept}, {row - 5, 0}}};
  CaseLimits limits;
  limits.events = 100;  // some of the map's cases (not all) run out of events within the 30 periods
  const std::vector<ParameterSet> first = map_cases(40, 0), second = map_cases(37, 100);
  auto batch = null_batch(true, limits);
  int failed = 0;
  CHECK_FALSE(matches_stepping_anew(*batch, first, first, held, limits, &failed));
  REQUIRE(failed > 0);
  REQUIRE(failed < NullBatch::kTemplates);
  // Stepped anew, over the group's own templates: what the first group's recorded launches said of
  // the failed template (and the stepping batch's retired it) would not be this group's.
  CHECK_FALSE(matches_stepping_anew(*batch, second, second, held, limits));
}

}  // namespace vibro::conveyor
