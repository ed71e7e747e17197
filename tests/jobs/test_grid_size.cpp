// The grid-size check: computed from the axis expressions before any axis is built, so a grid of
// 1e18 cases is refused at once (naming its axes and the limit) instead of exhausting memory.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/grid_size.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using Catch::Matchers::Contains;
using vibro::AxisPlan;
using vibro::plan_axis;

TEST_CASE("grid size: an axis is counted without making its values", "[jobs][grid_size]") {
  const AxisPlan plan = plan_axis("a_hat", "linspace(0, 1, 1e9)", "axes.a_hat");
  CHECK(plan.count == 1000000000);
  CHECK(plan.list.empty());
  CHECK(plan_axis("f", "range(1, 2, 0.25)", "axes.f").count == 5);
  CHECK(plan_axis("f", "1, 2, 3", "axes.f").count == 3);
  const vibro::Axis built = vibro::build_axis(plan_axis("f", "logspace(1, 100, 3)", "axes.f"));
  REQUIRE(built.values.size() == 3);
  CHECK(built.values[1] == Approx(10.0));
}

TEST_CASE("grid size: estimate and refusal name the axes, the cases and the limit", "[jobs][grid_size]") {
  const std::vector<AxisPlan> small{plan_axis("a_hat", "linspace(0, 1, 100)", "axes.a_hat"),
                                    plan_axis("f", "linspace(1, 2, 30)", "axes.f")};
  const vibro::GridEstimate estimate = vibro::estimate_grid(small, false);
  CHECK(estimate.cases == 3000);
  CHECK(estimate.bytes > 3000 * 8.0);
  CHECK(estimate.bytes < 1e6);
  CHECK(vibro::estimate_grid(small, true).bytes > estimate.bytes);  // a continuation keeps final states
  CHECK_NOTHROW(vibro::check_grid_size(small, false, 1e6));
  try {
    vibro::check_grid_size(small, false, 1e4);
    FAIL("a grid needing more than the limit was accepted");
  } catch (const vibro::InputError& e) {
    CHECK_THAT(e.what(), Contains("axes.a_hat (100 values) x axes.f (30 values)") && Contains("3000 cases") &&
                             Contains("1e-05 GB limit"));
  }
  CHECK(vibro::grid_memory_limit() > 1e8);
  CHECK(vibro::grid_memory_limit() <= 16e9);
}

TEST_CASE("grid size: two 1e9-value axes and a 1000^3 grid are refused before any axis is built",
          "[jobs][grid_size]") {
  const auto started = std::chrono::steady_clock::now();
  const std::string two_axes = "model = conveyor\n[axes]\na_hat = linspace(1, 3, 1e9)\nf = linspace(10, 60, 1e9)\n";
  REQUIRE_THROWS_WITH(vibro::parse_sweep(two_axes, "two_axes.ini", {}),
                      Contains("axes.a_hat (1000000000 values) x axes.f (1000000000 values)") && Contains("1e+18 cases"));
  // 1e9 cases at 16 bytes of index each are 16 GB, the ceiling whatever the machine's memory.
  const std::string cube = "model = conveyor\n[axes]\na_hat = linspace(1, 3, 1000)\nf = linspace(10, 60, 1000)\n"
                           "z0 = linspace(0, 0.001, 1000)\n";
  REQUIRE_THROWS_WITH(vibro::parse_sweep(cube, "cube.ini", {}), Contains("1e+09 cases") && Contains("split the sweep"));
  // Building a 1e9-value axis alone takes seconds and 8 GB: the refusal must come well before.
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 1.0);
}
