// A fixed-length run's held row, classified without a detector (jobs/sweep/held_window), gives the
// window, periods seen and class that a detector fed the same row gives, bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "jobs/sweep/held_window.hpp"

using namespace vibro;

namespace {

// A batch whose rows are made up: case i's sample k approaches a period-`period` orbit (or wanders, for
// period 0). Like some kernels' to_strobe, it leaves a field it does not fill as the last sample had it
// (aux[1] is written on even samples only).
class RowBatch : public CaseBatch {
 public:
  explicit RowBatch(std::vector<int> periods) : periods_(std::move(periods)) {
    layout_.state_names = {"x", "v"};
    layout_.state_units = {"m", "m/s"};
    layout_.state_scales = {1.0, 1.0};
    layout_.counter_names = {"impacts"};
  }
  std::vector<int> add(const std::vector<ParameterSet>&, std::vector<std::exception_ptr>&) override {
    throw std::logic_error("RowBatch: rows are made up");
  }
  const StrobeLayout& layout(int) const override { return layout_; }
  void launch(int, int) override {}
  void clear() override {}
  int taken(int) const override { return 0; }
  void sample(int i, int k, StrobeSample& out) const override {
    const int period = periods_[static_cast<std::size_t>(i)];
    const double decay = std::pow(0.5, k + 40);  // settled by the window of every shape below
    const double phase = period > 0 ? (k % period) : std::sin(1e3 * k);
    out.period = k + 1;
    out.time = 0.01 * (k + 1);
    out.mode = k % 2;
    out.drift_position = 1e-3 * (k + 1) + 1e-4 * phase;
    out.state[0] = phase + decay;
    out.state[1] = -phase + 0.5 * decay;
    out.counters[0] = 3 * (k + 1);
    out.aux[0] = 0.1 * k;
    if (k % 2 == 0) out.aux[1] = 1.0 + k;
  }
  [[noreturn]] void rethrow(int) const override { throw std::logic_error("RowBatch: no failures"); }
  bool restart(int, const StrobeSample&) override { return false; }
  void retire(int) override {}
  int live() const override { return 0; }

 private:
  std::vector<int> periods_;
  StrobeLayout layout_;
};

bool same_bits(const StrobeSample& a, const StrobeSample& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("a held row classified without a detector gives the detector's window and class", "[jobs][held_window]") {
  const RowBatch batch({1, 2, 3, 0});
  SteadyStateSettings settings;
  settings.mode = SteadyMode::Fixed;
  // (max_periods, window_periods, samples in the row): a row a few samples longer than the budget needs
  // (a last launch that steps past it), one just long enough, and a window of the whole budget.
  const int shapes[][3] = {{100, 50, 56}, {100, 50, 51}, {30, 29, 32}, {60, 10, 20}};
  SteadyState steady;  // reused from case to case, as the runner's is
  for (const auto& shape : shapes) {
    settings.max_periods = shape[0];
    settings.window_periods = shape[1];
    const int row = shape[2];
    const int skipped = unread_leading_periods(settings);
    REQUIRE(row_reaches_budget(skipped, row, settings));
    REQUIRE_FALSE(row_reaches_budget(skipped, settings.max_periods - skipped - 1, settings));
    for (int i = 0; i < 4; ++i) {
      SteadyStateDetector detector(batch.layout(i), settings);
      detector.skip(skipped);
      StrobeSample sample;
      for (int k = 0; k < row; ++k) {
        batch.sample(i, k, sample);
        if (!detector.on_sample(sample)) break;
      }
      const SteadyState fed = detector.finish();
      const int seen = classify_held_row(batch, i, skipped, row, batch.layout(i), settings, steady);
      CHECK(seen == detector.samples_seen());
      CHECK(steady.periodicity == fed.periodicity);
      CHECK(steady.period == fed.period);
      CHECK(steady.stopped_early == fed.stopped_early);
      REQUIRE(steady.window.size() == fed.window.size());
      for (std::size_t k = 0; k < fed.window.size(); ++k) CHECK(same_bits(steady.window[k], fed.window[k]));
    }
  }
  // The orbits are told apart (the comparison is not between empty windows of one class).
  settings.max_periods = 100;
  settings.window_periods = 50;
  classify_held_row(batch, 1, unread_leading_periods(settings), 56, batch.layout(1), settings, steady);
  CHECK(steady.periodicity == Periodicity::Periodic);
  CHECK(steady.period == 2);
  classify_held_row(batch, 3, unread_leading_periods(settings), 56, batch.layout(3), settings, steady);
  CHECK(steady.periodicity == Periodicity::NotConverged);
}
