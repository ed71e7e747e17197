// The disk estimate checked before the first case: checkpoint logs and HDF5 file grow with the cases
// and with the stored window; too little free space is refused naming output.file and the numbers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/output/disk_estimate.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using Catch::Matchers::Contains;

namespace {

vibro::SweepSpec conveyor(const std::vector<std::string>& overrides) {
  return vibro::parse_sweep("model = conveyor\n[axes]\na_hat = linspace(20, 80, 100)\n", "disk.ini", overrides);
}

}  // namespace

TEST_CASE("disk estimate: proportional to the cases, dominated by the stored window", "[jobs][disk_estimate]") {
  const auto base = vibro::estimate_disk_use(conveyor({}));
  const auto doubled = vibro::estimate_disk_use(conveyor({"--axes.a_hat=linspace(20, 80, 200)"}));
  const auto no_points = vibro::estimate_disk_use(conveyor({"--output.strobe_points=none"}));
  const auto long_window = vibro::estimate_disk_use(conveyor({"--run.window_periods=90"}));
  CHECK(doubled.checkpoint_bytes == Approx(2 * base.checkpoint_bytes));
  CHECK(doubled.output_bytes == Approx(2 * base.output_bytes));
  // 51 stored points a case, each at least the conveyor's 2 state components, a drift position and a
  // mode (a byte) in a checkpoint record.
  CHECK(base.checkpoint_bytes > 100 * 51 * (2 * 8.0 + 8 + 1));
  CHECK(base.output_bytes > 100 * 51 * (2 * 8.0));
  CHECK(no_points.total() < 0.2 * base.total());
  CHECK(long_window.total() > 1.5 * base.total());
}

TEST_CASE("disk estimate: a log record holds the final state only where the sweep uses it", "[jobs][disk_estimate]") {
  // Without stored points nothing restarts from a case's final state, unless a continuation line does.
  const auto dropped = vibro::estimate_disk_use(conveyor({"--output.strobe_points=none"}));
  const auto line = vibro::estimate_disk_use(conveyor({"--output.strobe_points=none", "--run.continuation=a_hat"}));
  // The conveyor's final state: its time, drift position and 2 state components at least.
  CHECK(line.checkpoint_bytes - dropped.checkpoint_bytes >= 100 * (4 * 8.0));
  CHECK(line.output_bytes == dropped.output_bytes);
}

TEST_CASE("disk estimate: refused when the folder's free space is short of it", "[jobs][disk_estimate]") {
  const vibro::SweepSpec spec = conveyor({"--output.file=out/sweep.h5"});
  const double needed = vibro::estimate_disk_use(spec).total();
  CHECK_NOTHROW(vibro::check_disk_space(spec, 2 * needed));
  CHECK_NOTHROW(vibro::check_disk_space(spec, -1));  // unknown free space: nothing to compare
  REQUIRE_THROWS_WITH(vibro::check_disk_space(spec, 0.5 * needed),
                      Contains("output.file = 'out/sweep.h5'") && Contains("100 cases") && Contains("GB free"));
  // A resumed run's logs already hold part of it.
  CHECK_NOTHROW(vibro::check_disk_space(spec, 0.5 * needed, 0.6 * needed));
  CHECK(vibro::free_bytes_for("sweep.h5") > 0);
}
