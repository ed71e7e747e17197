// The reproducible sin and cos (engine/core/reproducible_trig.hpp) against long double sinl / cosl
// (64-bit significand on x86-64: 11 bits more than a double, enough to measure errors below 1 ulp).
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "engine/core/reproducible_trig.hpp"

namespace trig = vibro::reproducible;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// |value - exact| in units of the last place of the double nearest exact.
double ulp_error(double value, long double exact) {
  const double nearest = std::fabs(static_cast<double>(exact));
  const double ulp = nearest == 0 ? std::numeric_limits<double>::denorm_min()
                                  : std::nextafter(nearest, std::numeric_limits<double>::infinity()) - nearest;
  return static_cast<double>(std::fabs(static_cast<long double>(value) - exact) / ulp);
}

// 10^6 arguments over the range the conveyor kernel uses and where reductions are hardest.
std::vector<double> arguments() {
  std::vector<double> xs;
  xs.reserve(1'000'000);
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> wide(-1e4, 1e4), phase(0.0, 2 * M_PI), exponent(-30.0, std::log2(1e4));
  for (int i = 0; i < 600'000; ++i) xs.push_back(wide(rng));
  for (int i = 0; i < 150'000; ++i) xs.push_back(phase(rng));  // phases in [0, 2 pi): most kernel calls
  for (int i = 0; i < 100'000; ++i) {                            // every scale down to 2^-30, both signs
    const double x = std::exp2(exponent(rng));
    xs.push_back(i % 2 ? x : -x);
  }
  // The doubles nearest k pi/2 and their neighbours: the reduction cancels almost every bit there.
  const long double half_pi = 1.570796326794896619231321691639751442L;
  for (int k = -6366; k <= 6366 && xs.size() < 1'000'000; ++k) {
    const double centre = static_cast<double>(k * half_pi);
    double up = centre, down = centre;
    xs.push_back(centre);
    for (int j = 0; j < 5; ++j) {
      up = std::nextafter(up, INFINITY);
      down = std::nextafter(down, -INFINITY);
      xs.push_back(up);
      xs.push_back(down);
    }
  }
  while (xs.size() < 1'000'000) xs.push_back(wide(rng));
  return xs;
}

}  // namespace

TEST_CASE("reproducible sin and cos are within 1 ulp for |x| <= 1e4 and sincos is (sin, cos)",
          "[engine][trig]") {
  const std::vector<double> xs = arguments();
  REQUIRE(xs.size() == 1'000'000);
  double worst_sin = 0, worst_cos = 0;
  std::size_t sincos_mismatches = 0, symmetry_breaks = 0;
  for (const double x : xs) {
    const double s = trig::sin(x), c = trig::cos(x);
    worst_sin = std::max(worst_sin, ulp_error(s, sinl(static_cast<long double>(x))));
    worst_cos = std::max(worst_cos, ulp_error(c, cosl(static_cast<long double>(x))));
    const trig::SinCos sc = trig::sincos(x);
    if (bits(sc.sin) != bits(s) || bits(sc.cos) != bits(c)) ++sincos_mismatches;
    if (bits(trig::sin(-x)) != bits(-s) || bits(trig::cos(-x)) != bits(c)) ++symmetry_breaks;
  }
  INFO("max error: sin " << worst_sin << " ulp, cos " << worst_cos << " ulp");
  CHECK(worst_sin < 0.8);  // measured 0.763 ulp (sin), 0.752 ulp (cos)
  CHECK(worst_cos < 0.8);
  CHECK(sincos_mismatches == 0);
  CHECK(symmetry_breaks == 0);
}

TEST_CASE("reproducible sin and cos: zeros, tiny arguments, NaN and infinities", "[engine][trig]") {
  CHECK(bits(trig::sin(0.0)) == bits(0.0));
  CHECK(bits(trig::sin(-0.0)) == bits(-0.0));
  CHECK(trig::cos(-0.0) == 1.0);
  CHECK(trig::sin(1e-300) == 1e-300);
  CHECK(trig::sin(DBL_TRUE_MIN) == DBL_TRUE_MIN);
  CHECK(trig::cos(1e-9) == 1.0);
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()}) {
    CHECK(std::isnan(trig::sin(bad)));
    CHECK(std::isnan(trig::cos(bad)));
    CHECK(std::isnan(trig::sincos(bad).sin));
    CHECK(std::isnan(trig::sincos(bad).cos));
  }
}

TEST_CASE("reproducible sin and cos beyond the exact reduction: error about |x| * 3.9e-17", "[engine][trig]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(std::log2(2e6), 60.0);
  double worst_ratio = 0;
  for (int i = 0; i < 20'000; ++i) {
    const double x = std::exp2(exponent(rng));
    const double err_s = std::fabs(static_cast<double>(trig::sin(x) - sinl(static_cast<long double>(x))));
    const double err_c = std::fabs(static_cast<double>(trig::cos(x) - cosl(static_cast<long double>(x))));
    worst_ratio = std::max(worst_ratio, (std::max(err_s, err_c) - 0x1p-52) / x);
    CHECK(std::fabs(trig::sin(x)) <= 1.0);
  }
  INFO("max (error - 2^-52) / |x| = " << worst_ratio);
  // The double nearest 2 pi is 2.449e-16 short, i.e. 3.898e-17 of a radian per radian of argument.
  CHECK(worst_ratio < 3.9e-17);
  CHECK(std::fabs(trig::sin(1e300)) <= 1.0);
  CHECK(std::fabs(trig::cos(-1e300)) <= 1.0);
}
