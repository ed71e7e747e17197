// The reproducible x^(-1/5) (engine/core/reproducible_root.hpp) against long double powl, over the
// range a DOPRI5 error norm takes (1e-30 .. 1e30, subnormals and exact powers of two included).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "engine/core/reproducible_root.hpp"

using vibro::reproducible::inverse_fifth_root;

namespace {

double ulp_error(double value, long double exact) {
  const double nearest = static_cast<double>(exact);
  const double ulp = std::nextafter(nearest, std::numeric_limits<double>::infinity()) - nearest;
  return static_cast<double>(std::fabs(static_cast<long double>(value) - exact) / ulp);
}

}  // namespace

TEST_CASE("reproducible inverse fifth root: within 3 ulp of powl", "[engine][reproducible]") {
  std::mt19937_64 rng(20261128);
  std::uniform_real_distribution<double> exponent(-30.0, 30.0);
  double worst = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const double x = std::pow(10.0, exponent(rng));
    worst = std::max(worst, ulp_error(inverse_fifth_root(x), std::pow(static_cast<long double>(x), -0.2L)));
  }
  for (int e = -1074; e <= 1023; ++e) {  // every power of two, subnormals included
    const double x = std::ldexp(1.0, e);
    worst = std::max(worst, ulp_error(inverse_fifth_root(x), std::pow(static_cast<long double>(x), -0.2L)));
  }
  INFO("worst error " << worst << " ulp");
  CHECK(worst < 3.0);
  CHECK(inverse_fifth_root(32.0) == 0.5);
  CHECK(inverse_fifth_root(1.0) == 1.0);
  CHECK(inverse_fifth_root(0.0) == std::numeric_limits<double>::infinity());
  CHECK(inverse_fifth_root(std::numeric_limits<double>::infinity()) == 0.0);
  CHECK(std::isnan(inverse_fifth_root(-1.0)));
  CHECK(std::isnan(inverse_fifth_root(std::numeric_limits<double>::quiet_NaN())));
}
