// Basin entropy on constructed grids (values by hand), and on the conveyor basin example against the
// value the plotting script computed before the entropy moved into analysis/.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/basin_entropy.hpp"

using namespace vibro;

TEST_CASE("basin entropy: one basin, a straight boundary, trailing cells left out", "[analysis][basin_entropy]") {
  // 4 x 4 grid, boxes of 2 x 2: the left half is outcome 0, the right half 1, except one cell.
  const std::vector<int> grid{0, 0, 1, 1,  //
                              0, 0, 1, 1,  //
                              0, 0, 1, 1,  //
                              0, 7, 1, 1};
  const BasinEntropy e = basin_entropy(grid, 4, 4, 2);
  CHECK(e.boxes == 4);
  CHECK(e.boundary_boxes == 1);
  const double mixed = -(0.75 * std::log(0.75) + 0.25 * std::log(0.25));
  CHECK(e.entropy == Approx(mixed / 4));
  CHECK(e.boundary_entropy == Approx(mixed));
  // boxes of 3: one whole box (the top-left 3 x 3: six cells of 0, three of 1)
  const BasinEntropy three = basin_entropy(grid, 4, 4, 3);
  const double third = -(2.0 / 3 * std::log(2.0 / 3) + 1.0 / 3 * std::log(1.0 / 3));
  CHECK(three.boxes == 1);
  CHECK(three.entropy == Approx(third));
  CHECK(three.boundary_entropy == Approx(third));
  // a grid of one basin: no boundary box
  const BasinEntropy uniform = basin_entropy(std::vector<int>(16, 3), 4, 4, 2);
  CHECK(uniform.boxes == 4);
  CHECK(uniform.entropy == 0.0);
  CHECK(uniform.boundary_boxes == 0);
  CHECK(uniform.boundary_entropy == 0.0);
  // a 1-D strip: boxes of 2 cells
  const BasinEntropy strip = basin_entropy({0, 1, 0, 0, 2}, 1, 5, 2);
  CHECK(strip.boxes == 2);
  CHECK(strip.boundary_boxes == 1);
  CHECK(strip.entropy == Approx(std::log(2.0) / 2));
  // pooled: every box counts once
  const BasinEntropy pooled = pooled_basin_entropy({e, strip});
  CHECK(pooled.boxes == 6);
  CHECK(pooled.entropy == Approx((mixed + std::log(2.0)) / 6));
  CHECK(pooled.boundary_entropy == Approx((mixed + std::log(2.0)) / 2));
  CHECK(std::isnan(basin_entropy({0}, 1, 1, 2).entropy));
}

TEST_CASE("basin entropy of a grid with three axes: one map per value of the third", "[analysis][basin_entropy]") {
  // 2 x 2 x 2 (C order, the third axis fastest): slice 0 is uniform, slice 1 holds two outcomes.
  const std::vector<int> grid{0, 5, 0, 6, 0, 5, 0, 6};
  const BasinEntropy e = grid_basin_entropy(grid, {2, 2, 2}, 2);
  CHECK(e.boxes == 2);
  CHECK(e.boundary_boxes == 1);
  CHECK(e.entropy == Approx(std::log(2.0) / 2));
  // one axis: a strip
  CHECK(grid_basin_entropy({1, 2}, {2}, 2).entropy == Approx(std::log(2.0)));
}
