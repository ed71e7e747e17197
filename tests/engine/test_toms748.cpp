// The host-and-device TOMS 748 (engine/roots/toms748.hpp) is Boost's, step for step: on the CPU it
// returns Boost's bracket and evaluation count bit for bit, so the CPU results did not change when
// the event location moved to it (and the GPU runs the same algorithm).
#include <boost/math/tools/toms748_solve.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>

#include "engine/roots/toms748.hpp"

using namespace vibro;

namespace {
struct Outcome {
  double a, b;
  std::uintmax_t used;
};

template <class F, class Tol>
void check_same(F f, double lo, double hi, Tol tol, std::uintmax_t budget) {
  std::uintmax_t boost_used = budget;
  const auto expected = boost::math::tools::toms748_solve(f, lo, hi, f(lo), f(hi), tol, boost_used);
  unsigned long long used = budget;
  const Bracket got = toms748_solve(f, lo, hi, f(lo), f(hi), tol, used);
  CHECK(got.a == expected.first);
  CHECK(got.b == expected.second);
  CHECK(used == boost_used);
}
}  // namespace

TEST_CASE("toms748 port returns Boost's bracket bit for bit", "[engine][roots]") {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto tight = [](double lo, double hi) { return std::fabs(hi - lo) <= 4e-16 * std::max(1.0, std::fabs(hi)); };
  auto loose = [](double lo, double hi) { return std::fabs(hi - lo) <= 1e-9 * std::fabs(hi) + 1e-300; };
  int cases = 0;
  for (int i = 0; i < 400; ++i) {
    // Quartics with a simple root r in (0, 1) and a random smooth factor; exp/sin mixes; a cubic
    // flat at its root (slow convergence: the bisection branch); few iterations (budget cut).
    const double r = unit(random), p = 4 * unit(random) - 2, q = unit(random) + 0.1, s = unit(random);
    auto quartic = [=](double x) { return (r - x) * (q + x * x + p * x * x * x) * (1 + s * x); };
    auto mixed = [=](double x) { return std::exp(-q * x) * std::sin(3 * (r - x)) + s * 1e-3 * (r - x); };
    auto flat = [=](double x) { return (r - x) * (r - x) * (r - x) * (1 + q); };
    if (quartic(0) * quartic(1) < 0) {
      check_same(quartic, 0.0, 1.0, tight, 200);
      check_same(quartic, 0.0, 1.0, loose, 100);
      check_same(quartic, 0.0, 1.0, tight, 3);
      ++cases;
    }
    check_same(mixed, 0.0, 1.0, tight, 200);
    check_same(flat, 0.0, 1.0, tight, 200);
    check_same(flat, -1.0, 2.0, loose, 100);
  }
  CHECK(cases > 300);
}
