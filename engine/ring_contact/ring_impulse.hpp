#pragma once
// Impacts between neighbouring point masses on a ring (balls in a race, beads on a hoop) in any
// generalised coordinates with a symmetric positive definite mass matrix M: a contact c between
// coordinates a and b (b the CCW neighbour) has the gap rate g' = v_b - v_a = G v with G = e_b - e_a.
// A Newton impact with restitution e is the generalised impulse (equivalent to the ball balancer thesis's collision law, Dedow 2016, Eqs. 71-89)
//   Lambda = -(1 + e) G v / (G M^-1 G^T),   v+ = v- + M^-1 G^T Lambda,
// which keeps the total momentum of all coupled coordinates and gives g'+ = -e g'-. Impacts that
// involve trains of touching masses are a deterministic sequence of such pair impacts (3.5): the
// initiating contact, then outward through the receiving train, then back through the incoming
// train, repeated until no touching contact approaches (Newton's cradle for equal masses).
#include <Eigen/Core>
#include <utility>
#include <vector>

namespace vibro {

struct RingPair {
  int a = 0, b = 0;  // coordinate indices in v; b is the CCW neighbour of a
};

class RingImpulse {
 public:
  // minv: M^-1 at the impact configuration (copied: a dozen coordinates at most in practice).
  explicit RingImpulse(Eigen::MatrixXd minv) : minv_(std::move(minv)) {}

  // One pair impact with restitution e (e = 0: plastic). Returns Lambda (>= 0 when approaching).
  double pair(const RingPair& p, double e, Eigen::VectorXd& v) const;

  // Resolves a (multi-)contact impact. `pairs` are the ring's neighbour contacts in ring order
  // (pair k and k + 1 share a mass); `touching[k]` marks the closed ones; `first` is the contact
  // that initiated the impact. Every touching contact that approaches faster than v_tol gets a pair
  // impact, in the order described above, until none does. Returns the number of pair impacts;
  // throws std::runtime_error after `cap` of them.
  int sweep(const std::vector<RingPair>& pairs, const std::vector<bool>& touching, int first, double e,
            double v_tol, Eigen::VectorXd& v, int cap) const;

  // Plastic closure of the touching contacts whose |g'| <= v_stick: repeated plastic pair impacts
  // until each of them moves at a common rate (|g'| below round-off). Returns the contacts closed.
  std::vector<int> close_plastic(const std::vector<RingPair>& pairs, const std::vector<bool>& touching,
                                 double v_stick, Eigen::VectorXd& v) const;

 private:
  Eigen::MatrixXd minv_;
};

}  // namespace vibro
