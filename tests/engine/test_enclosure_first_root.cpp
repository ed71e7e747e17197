// The proved first root of a non-polynomial guard from enclosures of its value and slope, and the
// interval pieces it stands on: sin/cos of an interval, the enclosure of an interval linear system.
#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "engine/interval/interval.hpp"
#include "engine/interval/interval_linear_enclosure.hpp"
#include "engine/roots/enclosure_first_root.hpp"

using namespace vibro;

namespace {
// A guard written once over a scalar S: its natural interval extension (S = DualInterval, the
// parameter with slope 1) encloses value and slope over [a, b].
template <class G>
EnclosedRoot search(G g) {
  auto value = [&](double theta) { return g(DualInterval(theta)).v.lo; };
  auto enclose = [&](double a, double b) {
    const DualInterval r = g(DualInterval(Interval(a, b), Interval(1.0)));
    return GuardEnclosure{r.v, r.d};
  };
  return enclosure_first_root(value, enclose);
}
}  // namespace

TEST_CASE("enclosure first root: a dip 1/50 wide between coarse samples, a start at zero, a falling start", "[engine][ball_balancer]") {
  // (theta - 0.4)^2 - 1e-4: negative only on (0.39, 0.41); positive at every quarter.
  const EnclosedRoot dip = search([](const DualInterval& x) { return (x - 0.4) * (x - 0.4) - 1e-4; });
  REQUIRE(dip.found);
  CHECK(dip.theta == Approx(0.39).margin(2e-12));
  CHECK(dip.theta >= 0.39 - 1e-15);  // at or just past the zero
  // cos(5 theta) - 0.2: its only downward crossing in [0, 1].
  const EnclosedRoot wave = search([](const DualInterval& x) { return cos(5.0 * x) - 0.2; });
  REQUIRE(wave.found);
  CHECK(wave.theta == Approx(std::acos(0.2) / 5).margin(2e-12));
  // A guard left at zero by the event just handled, rising: no event.
  CHECK_FALSE(search([](const DualInterval& x) { return sin(x); }).found);
  // Positive and clear of zero: one enclosure proves the whole step.
  const EnclosedRoot clear = search([](const DualInterval& x) { return 1.0 + x * x; });
  CHECK_FALSE(clear.found);
  CHECK(clear.enclosures == 1);
  // Already falling through zero at the start: an event at once.
  const EnclosedRoot falling = search([](const DualInterval& x) { return -x; });
  REQUIRE(falling.found);
  CHECK(falling.theta == 0);
  // Touching zero without crossing it (a double root): no separation.
  CHECK_FALSE(search([](const DualInterval& x) { return (x - 0.3) * (x - 0.3); }).found);
  // No enclosure available anywhere: the search gives up and says so instead of claiming no root.
  const double huge = 1e300;
  const EnclosedRoot blind = enclosure_first_root([](double) { return 1.0; },
                                                  [&](double, double) { return GuardEnclosure{Interval(-huge, huge), Interval(-huge, huge)}; },
                                                  1e-12, 1000);
  CHECK(blind.exhausted);
  CHECK_FALSE(blind.found);
}

TEST_CASE("interval sin and cos include the extrema inside the argument range", "[engine][ball_balancer]") {
  const Interval s = sin(Interval(1.0, 2.0));
  CHECK(s.hi == 1.0);
  CHECK(s.lo == Approx(std::sin(1.0)));
  const Interval c = cos(Interval(3.0, 3.5));
  CHECK(c.lo == -1.0);
  CHECK(c.hi == Approx(std::cos(3.5)));
  CHECK(sin(Interval(0.0, 7.0)).lo == -1.0);
}

TEST_CASE("interval linear enclosure holds every solution of sampled point systems", "[engine][ball_balancer]") {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int n = 5;
  Eigen::MatrixXd a_mid = Eigen::MatrixXd::Identity(n, n) * 4, a_rad(n, n);
  Eigen::VectorXd b_mid(n), b_rad(n), z_mid, z_rad;
  for (int r = 0; r < n; ++r) {
    b_mid[r] = unit(random);
    b_rad[r] = 0.01 * std::fabs(unit(random));
    for (int k = 0; k < n; ++k) a_mid(r, k) += unit(random), a_rad(r, k) = 0.02 * std::fabs(unit(random));
  }
  REQUIRE(enclose_linear_solution(a_mid, a_rad, b_mid, b_rad, z_mid, z_rad));
  for (int sample = 0; sample < 200; ++sample) {
    Eigen::MatrixXd A = a_mid;
    Eigen::VectorXd b = b_mid;
    for (int r = 0; r < n; ++r) {
      b[r] += b_rad[r] * unit(random);
      for (int k = 0; k < n; ++k) A(r, k) += a_rad(r, k) * unit(random);
    }
    const Eigen::VectorXd z = A.partialPivLu().solve(b);
    for (int r = 0; r < n; ++r) CHECK(std::fabs(z[r] - z_mid[r]) <= z_rad[r]);
  }
  CHECK(z_rad.maxCoeff() < 0.1);  // and tight: of the order of the data's radii
  // A box too wide for the contraction is refused, not bounded wrongly.
  CHECK_FALSE(enclose_linear_solution(a_mid, Eigen::MatrixXd(Eigen::MatrixXd::Constant(n, n, 2.0)), b_mid, b_rad, z_mid, z_rad));
}
