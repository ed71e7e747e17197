// The steps of one branch chosen from its range (analysis/continuation_steps): the same fractions of
// the range in any unit, a user's step or largest step kept as given, and a smallest step never
// coarser than 1e-6.
#include <catch2/catch.hpp>

#include "analysis/continuation_steps.hpp"

using namespace vibro;

TEST_CASE("Continuation steps: unset, the first step is 1/50 and the largest 1/20 of the range, in any unit",
          "[continuation][continuation_steps]") {
  // Den Hartog's sticking window in omega (1.1e-3 wide) and a conveyor's amplitude range in m/s^2.
  const auto narrow = steps_for_range({}, 0.4816, 0.4805, {});
  CHECK(narrow.step == Approx(0.0011 / 50).epsilon(1e-12));
  CHECK(narrow.max_step == Approx(0.0011 / 20).epsilon(1e-12));
  CHECK(narrow.min_step == Approx(0.0011 * 1e-6).epsilon(1e-12));
  const auto wide = steps_for_range({}, 50, 150, {});
  CHECK(wide.step == Approx(2.0).epsilon(1e-15));
  CHECK(wide.max_step == Approx(5.0).epsilon(1e-15));
  CHECK(wide.min_step == 1e-6);  // 1e-6 of the range would be 1e-4: coarser than the ceiling
  // The direction does not matter, and the other settings are kept.
  ContinuationSettings base;
  base.locate_tol = 1e-12;
  base.max_predictor_error = 0.01;
  const auto down = steps_for_range(base, 150, 50, {});
  CHECK(down.step == wide.step);
  CHECK(down.max_step == wide.max_step);
  CHECK(down.locate_tol == 1e-12);
  CHECK(down.max_predictor_error == 0.01);
}

TEST_CASE("Continuation steps: a given step or largest step is kept, the other chosen around it",
          "[continuation][continuation_steps]") {
  const auto both = steps_for_range({}, 2.3, 30, {0.02, 0.1});
  CHECK(both.step == 0.02);
  CHECK(both.max_step == 0.1);
  CHECK(both.min_step == 1e-6);
  // A first step above the range's largest step raises the largest to it.
  const auto first = steps_for_range({}, 0, 1, {0.2, std::nullopt});
  CHECK(first.step == 0.2);
  CHECK(first.max_step == 0.2);
  const auto small_first = steps_for_range({}, 0, 1, {0.001, std::nullopt});
  CHECK(small_first.step == 0.001);
  CHECK(small_first.max_step == Approx(0.05).epsilon(1e-15));
  // A largest step below the range's first step lowers the first to it.
  const auto largest = steps_for_range({}, 0, 1, {std::nullopt, 0.005});
  CHECK(largest.step == 0.005);
  CHECK(largest.max_step == 0.005);
  // A first step below the range's smallest step lowers the smallest to it.
  const auto tiny = steps_for_range({}, 0, 1e3, {1e-5, std::nullopt});
  CHECK(tiny.min_step <= 1e-5);
}

TEST_CASE("Continuation steps: a range at the parameter's rounding counts as 1e-9 of its size",
          "[continuation][continuation_steps]") {
  const auto flat = steps_for_range({}, 100, 100, {});
  CHECK(flat.max_step == Approx(100 * 1e-9 / 20).epsilon(1e-12));
  CHECK(flat.step > 0);
  CHECK(flat.min_step > 0);
  CHECK(flat.min_step <= flat.step);
  CHECK(flat.step <= flat.max_step);
  const auto zero = steps_for_range({}, 0, 0, {});
  CHECK(zero.step > 0);
  CHECK(zero.min_step > 0);
}
