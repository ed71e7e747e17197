// A mode entered with one of its switch guards on its crossing (within the settle tolerance) is left
// through that guard when the mode's field moves the guard across: by its first time derivative, else
// its second. A chain of such switches that comes back to a mode ends there instead of switching
// without end (two fields that push the state onto one surface).
#include <catch2/catch.hpp>
#include <memory>

#include "engine/hybrid_model/described_system.hpp"

using namespace vibro;

namespace {

// Two modes on the surface x = 0: "falling" (x' = v, v' = a_falling) with guard x falling through 0
// into "other", and "other" (x' = v, v' = a_other) with, if `back`, guard x rising through 0 into
// "falling".
std::shared_ptr<HybridDescription<2>> surface(double a_falling, double a_other, bool back) {
  auto d = std::make_shared<HybridDescription<2>>();
  d->period = 1;
  const int falling = d->mode("falling", [a_falling](const auto& x, const auto&, auto& dx) {
    dx[0] = x[1];
    dx[1] = 0 * x[0] + a_falling;
  });
  const int other = d->mode("other", [a_other](const auto& x, const auto&, auto& dx) {
    dx[0] = x[1];
    dx[1] = 0 * x[0] + a_other;
  });
  SwitchGuard<2> down;
  down.a << 1, 0;
  down.crossing = Crossing::Falling;
  down.target = other;
  d->switch_guard(falling, "down", down);
  if (back) {
    SwitchGuard<2> up = down;
    up.crossing = Crossing::Rising;
    up.target = falling;
    d->switch_guard(other, "up", up);
  }
  d->initial_mode = falling;
  return d;
}

// The mode `falling` settles in, entered at (x, v).
int settled_mode(const std::shared_ptr<HybridDescription<2>>& d, double x, double v) {
  HybridFrame frame;
  frame.names = {"x", "v"};
  DescribedSystem<2> system(d, frame);
  DescribedSystem<2>::State y;
  y << x, v, 1, 0;
  REQUIRE(system.enter(0, y));
  return system.mode;
}

}  // namespace

TEST_CASE("settle: a guard on its crossing is judged by its first, else its second time derivative",
          "[hybrid_api][switch]") {
  CHECK(settled_mode(surface(0, 0, false), 0, -1) == 1);   // x' < 0: across
  CHECK(settled_mode(surface(0, 0, false), 0, 1) == 0);    // x' > 0: back
  CHECK(settled_mode(surface(-1, 0, false), 0, 0) == 1);   // x' = 0, x'' < 0: across
  CHECK(settled_mode(surface(1, 0, false), 0, 0) == 0);    // x' = 0, x'' > 0: back
  CHECK(settled_mode(surface(-1, 0, false), 1e-12, 0) == 1);  // on it within the tolerance
  CHECK(settled_mode(surface(-1, 0, false), 1e-6, 0) == 0);   // off it: the event locator's
}

TEST_CASE("settle: two fields that push the state onto one surface end the chain in the mode it came back to",
          "[hybrid_api][switch][zeno]") {
  // falling pushes x down into other, other pushes it up into falling: without the rule the chain
  // would switch to its limit and fail the case ("mode switches do not settle").
  CHECK(settled_mode(surface(-1, 1, true), 0, 0) == 0);
  // other pulls x on down: it stays there.
  CHECK(settled_mode(surface(-1, -1, true), 0, 0) == 1);
}
