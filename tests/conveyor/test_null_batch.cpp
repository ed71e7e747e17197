// The null back end (engine/batch/null_batch.hpp, a benchmark tool) over the conveyor's CPU batches:
// its launches take their set time, one after another across the batches that share a device; every
// case is made; its samples are those of the NullBatch::kTemplates templates, stepped for real (the CPU batch's bits).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "conveyor/conveyor_fixture.hpp"
#include "engine/batch/null_batch.hpp"
#include "models/conveyor/conveyor_batch.hpp"

namespace vibro::conveyor {
namespace {

std::vector<ParameterSet> cases(int n) {
  std::vector<ParameterSet> out;
  for (int i = 0; i < n; ++i)
    out.push_back(testing::conveyor_values({{"z0", std::to_string(1e-4 + 1e-5 * i)}, {"a_hat", "45"}}));
  return out;
}

std::unique_ptr<NullBatch> null_batch(const std::shared_ptr<NullDevice>& device) {
  return std::make_unique<NullBatch>(conveyor_batch(BatchDevice::Cpu, CaseLimits{}),
                                     conveyor_batch(BatchDevice::Cpu, CaseLimits{}), device);
}

std::string bytes(const StrobeSample& s) {
  std::string out(reinterpret_cast<const char*>(s.state.data()), sizeof s.state);
  out.append(reinterpret_cast<const char*>(&s.time), sizeof s.time);
  out.append(reinterpret_cast<const char*>(s.counters.data()), sizeof s.counters);
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("null batch: set launch time, launches in series, templates' samples for every case", "[conveyor][batch][null]") {
  const int n = 200, periods = 4;
  const double per_period = 0.02;  // a launch of 4 periods: 0.08 s
  auto device = std::make_shared<NullDevice>(per_period);
  auto a = null_batch(device), b = null_batch(device);
  std::vector<std::exception_ptr> errors;
  const std::vector<int> slots = a->add(cases(n), errors);
  REQUIRE(b->add(cases(n), errors).size() == static_cast<std::size_t>(n));
  REQUIRE(a->live() == n);

  const auto t0 = std::chrono::steady_clock::now();
  a->launch(periods, 0);
  b->launch(periods, 0);  // queued behind a's launch on the one device
  a->wait();
  const double a_done = seconds_since(t0);
  b->wait();
  const double b_done = seconds_since(t0);
  CHECK(a_done >= periods * per_period * 0.99);
  CHECK(b_done >= 2 * periods * per_period * 0.99);
  CHECK(a->device_seconds() == Approx(periods * per_period));

  // Every case completed the launch; its samples are one of at most kTemplates rows, those of the case kTemplates on.
  std::set<std::string> rows;
  StrobeSample s, t;
  for (int i = 0; i < n; ++i) {
    REQUIRE(slots[static_cast<std::size_t>(i)] >= 0);
    CHECK(a->taken(i) == periods);
    std::string row;
    for (int k = 0; k < periods; ++k) {
      a->sample(i, k, s);
      row += bytes(s);
    }
    rows.insert(row);
    if (i + NullBatch::kTemplates < n) {
      a->sample(i + NullBatch::kTemplates, periods - 1, t);
      a->sample(i, periods - 1, s);
      CHECK(bytes(s) == bytes(t));
    }
  }
  CHECK(rows.size() > 1);
  CHECK(rows.size() <= static_cast<std::size_t>(NullBatch::kTemplates));

  // The templates' samples are the CPU batch's own: case 0 is a template (the first of the spread).
  auto cpu = conveyor_batch(BatchDevice::Cpu, CaseLimits{});
  cpu->add(cases(1), errors);
  cpu->launch(periods, 0);
  cpu->sample(0, periods - 1, t);
  a->sample(0, periods - 1, s);
  CHECK(bytes(s) == bytes(t));

  a->retire(3);
  CHECK(a->live() == n - 1);
  CHECK_FALSE(a->restart(5, s));  // a case has no state of its own to restart from
  a->clear();
  CHECK(a->live() == 0);
}

}  // namespace vibro::conveyor

namespace vibro::conveyor {

// CaseBatch::samples reads a row in one call where the runner classifies a held row: the samples must
// be those sample() leaves in one scratch, read one after another, bit for bit (every field).
TEST_CASE("a held row read at once equals its samples read one by one", "[conveyor][batch][null][held_window]") {
  const int n = 80, periods = 6, unkept = 2, row = periods - unkept;
  auto device = std::make_shared<NullDevice>(0.0);
  std::unique_ptr<CaseBatch> cpu = conveyor_batch(BatchDevice::Cpu, CaseLimits{});
  std::unique_ptr<CaseBatch> null = null_batch(device);
  for (CaseBatch* batch : {cpu.get(), null.get()}) {
    std::vector<std::exception_ptr> errors;
    batch->add(cases(n), errors);
    REQUIRE(batch->hold_samples(2 * row));
    batch->launch(periods, unkept);
    batch->launch(row, 0);
    batch->wait();
    for (int i = 0; i < n; i += 7) {
      for (const int first : {0, 3}) {
        const int count = 2 * row - first;
        StrobeSample scratch{};  // its padding zero too, as the vector's value-initialised samples'
        std::vector<StrobeSample> one_by_one;
        for (int k = first; k < 2 * row; ++k) {
          batch->sample(i, k, scratch);
          one_by_one.push_back(scratch);
        }
        std::vector<StrobeSample> at_once(static_cast<std::size_t>(count));
        batch->samples(i, first, count, at_once.data());
        for (int k = 0; k < count; ++k)
          CHECK(std::memcmp(&at_once[static_cast<std::size_t>(k)], &one_by_one[static_cast<std::size_t>(k)],
                            sizeof(StrobeSample)) == 0);
        CHECK(at_once.back().period == 2 * row + unkept);
      }
    }
  }
}

}  // namespace vibro::conveyor
