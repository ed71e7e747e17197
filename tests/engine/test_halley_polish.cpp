// The event polish (engine/roots/halley_polish.hpp): on functions proved decreasing on their
// bracket it returns the far side of the root, within the accuracy asked for, in few evaluations;
// its safeguards hold where Halley or Newton steps alone would fail (a flat or wrong-signed derivative, a root at an
// evaluated point, a root shallower than rounding).
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "engine/roots/halley_polish.hpp"
#include "engine/roots/toms748.hpp"

using namespace vibro;

namespace {

// g(y) = c (r - y) + q (r - y)^2 + k (r - y)^3: decreasing on [r - w, r + w] for the coefficients drawn below,
// with its root at r exactly in real arithmetic.
struct Cubic {
  double r, c, q, k;
  Derivs operator()(double y) const {
    const double e = r - y;
    return {e * (c + e * (q + e * k)), -(c + e * (2 * q + 3 * e * k)), 2 * q + 6 * e * k};
  }
};

struct Polished {
  double far_side;
  int evaluations;
};

template <class Fn>
Polished polish(const Fn& fn, double a, double b, double rtol) {
  int evaluations = 0;
  auto counted = fn;
  const double far_side = halley_root_far_side(counted, a, b, fn(a), fn(b), rtol, evaluations);
  return {far_side, evaluations};
}

}  // namespace

TEST_CASE("the Halley polish returns the far side of the root within rtol, in no more evaluations than TOMS 748",
          "[engine][roots]") {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double rtol = 1e-13;
  long long halley_evaluations = 0, toms_evaluations = 0;
  int worst = 0;
  const int cases = 2000;
  for (int i = 0; i < cases; ++i) {
    // Slopes from 1e-9 (a microthrow's) to 1: scaled like the conveyor's gaps (metres over radians).
    const double slope = std::pow(10.0, -9 * unit(random));
    const Cubic g{0.01 + 6 * unit(random), slope, slope * (unit(random) - 0.5), slope * 0.1 * (unit(random) - 0.5)};
    const double width = 0.5 * unit(random) + 1e-6;
    const double a = g.r - width * unit(random), b = g.r + width * unit(random) + 1e-12;
    REQUIRE(g(a).g > 0);
    REQUIRE(g(b).g <= 0);
    const Polished p = polish(g, a, b, rtol);
    INFO("case " << i << ": r " << g.r << " slope " << slope << " bracket [" << a << ", " << b << "]");
    CHECK(g(p.far_side).g <= 0);                                   // on the far side of zero
    CHECK(p.far_side >= g.r - 4e-16 * g.r);                        // ... up to the rounding of g itself
    CHECK(p.far_side - g.r <= rtol * p.far_side + 4e-16 * g.r);  // and within the accuracy asked for
    halley_evaluations += p.evaluations;
    worst = std::max(worst, p.evaluations);
    auto value = [&](double y) { return g(y).g; };
    auto close_enough = [&](double lo, double hi) { return std::fabs(hi - lo) <= rtol * std::fabs(hi) + 1e-300; };
    unsigned long long used = 100;
    toms748_solve(value, a, b, g(a).g, g(b).g, close_enough, used);
    toms_evaluations += static_cast<long long>(used);
  }
  const double halley_mean = static_cast<double>(halley_evaluations) / cases;
  const double toms_mean = static_cast<double>(toms_evaluations) / cases;
  INFO("evaluations a root: Halley " << halley_mean << " (worst " << worst << "), TOMS 748 " << toms_mean);
  // On these smooth cubics TOMS 748 needs few evaluations too (3.9 a root); on the conveyor's gaps,
  // with their trigonometric terms and wider brackets, 10.37 evaluations an impact against 6.17.
  CHECK(halley_mean <= toms_mean);
  CHECK(worst <= 8);
}

TEST_CASE("the Halley polish's safeguards: a root at an evaluated point, a useless derivative, an exact end",
          "[engine][roots]") {
  SECTION("a straight line: the first step lands on the root, which is returned as it is") {
    auto line = [](double y) { return Derivs{0.5 - y, -1.0, 0.0}; };
    const Polished p = polish(line, 0.0, 1.0, 1e-13);
    CHECK(p.far_side == 0.5);
    CHECK(p.evaluations == 1);
  }
  SECTION("a derivative of the wrong sign (rounding on a flat stretch): bisection takes over") {
    auto flat = [](double y) { return Derivs{0.3 - y, 0.0, 0.0}; };  // reports g' = 0 everywhere
    const Polished p = polish(flat, 0.0, 1.0, 1e-10);
    CHECK(0.3 - p.far_side <= 0);
    CHECK(p.far_side - 0.3 <= 1e-10 * p.far_side);
    CHECK(p.evaluations <= 40);  // log2(1 / 3e-11) halvings
  }
  SECTION("a bracket already narrower than rtol: its far end, with no evaluation") {
    auto line = [](double y) { return Derivs{1.0 - y, -1.0, 0.0}; };
    const Polished p = polish(line, 1.0 - 1e-15, 1.0 + 1e-15, 1e-13);
    CHECK(p.far_side == 1.0 + 1e-15);
    CHECK(p.evaluations == 0);
  }
  SECTION("a root blurred by noise in g: the loop still ends on the far side of a sign change, near the root") {
    // g = 1e-8 (r - y) plus a wiggle of 1e-22: signs flip back and forth within 1e-14 of r, where the
    // steps are noise (as a gap computed in double precision is near its zero).
    const double r = 1.2345;
    auto noisy = [r](double y) { return Derivs{1e-8 * (r - y) + 1e-22 * std::sin(1e9 * y), -1e-8, 0.0}; };
    const Polished p = polish(noisy, 1.0, 2.0, 1e-13);
    CHECK(noisy(p.far_side).g <= 0);
    CHECK(std::fabs(p.far_side - r) <= 1e-13 * r + 1e-14);
    CHECK(p.evaluations <= 60);
  }
}
