// engine/ring_contact on its own: the ring impulse map with a diagonal mass matrix (equal beads on a
// hoop), the train-impact sweep (Newton's cradle) and the plastic closure of a chain.
#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/ring_contact/ring_impulse.hpp"

using namespace vibro;

namespace {
std::vector<RingPair> ring(int n) {
  std::vector<RingPair> pairs;
  for (int k = 0; k < n; ++k) pairs.push_back({k, (k + 1) % n});
  return pairs;
}
}  // namespace

TEST_CASE("ring impulse: equal beads exchange velocities (COR 1), a cradle passes one and two beads through",
          "[engine][ball_balancer]") {
  const RingImpulse impulse(Eigen::MatrixXd::Identity(5, 5));
  const auto pairs = ring(5);
  for (const int incoming : {1, 2}) {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(5);
    v.head(incoming).setConstant(3.0);
    // Beads 0..4 touch in a row (the wrap-around pair 4-0 is open); the impact starts at the pair
    // between the incoming train and the resting one.
    const std::vector<bool> touching{true, true, true, true, false};
    const int impacts = impulse.sweep(pairs, touching, incoming - 1, 1.0, 1e-12, v, 100);
    for (int i = 0; i < 5; ++i) CHECK(v[i] == Approx(i >= 5 - incoming ? 3.0 : 0.0).margin(1e-14));
    CHECK(impacts >= 4);  // one pair impact per contact at least
  }
  Eigen::VectorXd v(5);
  v << 1, -2, 0, 0, 0;
  const double lambda = impulse.pair(pairs[0], 0.5, v);
  CHECK(v[1] - v[0] == Approx(-0.5 * -3.0));
  CHECK(v[0] + v[1] == Approx(-1.0));  // momentum of equal beads
  CHECK(lambda == Approx(1.5 * 3.0 / 2.0));
}

TEST_CASE("ring impulse: plastic closure makes a slowly closing chain move as one", "[engine][ball_balancer]") {
  Eigen::MatrixXd minv = Eigen::MatrixXd::Identity(4, 4);
  minv(0, 0) = 0.5;  // bead 0 twice as heavy
  const RingImpulse impulse(minv);
  Eigen::VectorXd v(4);
  v << 1.0, 1.0 - 4e-4, 1.0 - 9e-4, 5.0;
  const double momentum = 2 * v[0] + v[1] + v[2];
  const auto closed = impulse.close_plastic(ring(4), {true, true, false, false}, 1e-3, v);
  CHECK(closed.size() == 2);
  CHECK(v[1] - v[0] == Approx(0).margin(1e-14));
  CHECK(v[2] - v[1] == Approx(0).margin(1e-14));
  CHECK(2 * v[0] + v[1] + v[2] == Approx(momentum).epsilon(1e-14));
  CHECK(v[3] == 5.0);  // not touching: untouched
}
