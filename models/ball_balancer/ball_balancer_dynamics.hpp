#pragma once
// Equations of motion of the ball balancer (Dedow 2016, Eqs. 54-61) for a given contact
// topology: rotor x, y on springs and dampers, prescribed spin phi = spin t + phi0, n balls at
// absolute angles theta_i with drag, rolling resistance mu_R |N_i| (plus the radial share of train
// contact forces), gravity and the inertial coupling. Trains (neighbours in persistent contact) and
// balls stuck to the race (zero relative rate, sign() friction inside its Filippov set) are linear
// equality constraints on the accelerations: one saddle-point solve gives q'', the contact forces
// and the stick friction; the sign of each N_i is iterated (the only implicitness left, 2.3).
#include <Eigen/Core>
#include <array>
#include <vector>

#include "engine/interval/interval.hpp"
#include "engine/ring_contact/ring_impulse.hpp"
#include "models/ball_balancer/ball_balancer_parameters.hpp"

namespace vibro::ball_balancer {

inline constexpr int kDof = 2 + kMaxBalls;
inline constexpr int kStateSize = 2 * kDof;  // (x, y, theta_1..theta_10, then their rates); unused balls stay 0
using State = Eigen::Matrix<double, kStateSize, 1>;
using Coordinates = Eigen::Matrix<double, kDof, 1>;
inline constexpr int kX = 0, kY = 1, kTheta = 2, kRate = kDof;

// Which constraints are active. Pair k joins ball k and its CCW neighbour (k + 1) mod n.
struct Topology {
  std::array<bool, kMaxBalls> contact{};  // pair k is part of a train
  std::array<bool, kMaxBalls> stuck{};    // ball rolls with the race (set for every member of a group)
  std::array<int, kMaxBalls> slip{};      // s_i = sign(phi' - theta_i') of a slipping ball
  std::array<int, kMaxBalls> nu{};        // sign of N_i used by the last solve (a guess, refreshed)
};

struct Accelerations {
  Coordinates qdd = Coordinates::Zero();
  std::array<double, kMaxBalls> lambda{};  // generalised contact force of pair k, R cos(alpha/2) F_c (>= 0: compression)
  std::array<double, kMaxBalls> normal{};  // race normal force N_i
  std::array<double, kMaxBalls> margin{};  // stuck group (at its leader): friction capacity - |friction needed|
  std::array<double, kMaxBalls> stick{};   // stuck group (at its leader): generalised friction per ball
};

// Bounds over a box of states and times that move along one parameter (the step fraction of a
// dense output): every contact force and stuck-group friction margin the solve gives at any point of
// the box lies inside `v`, its derivative along the parameter inside `d` (valid = false: box too wide).
using StateBox = std::array<DualInterval, kStateSize>;
struct ForceEnclosure {
  bool valid = false;
  std::array<DualInterval, kMaxBalls> lambda{};
  std::array<DualInterval, kMaxBalls> margin{};
};

// Where each unknown of the constraint system sits: q'' (2 + n), then a lambda per active pair,
// then a friction per stuck group (leader: the first ball of each ball's group).
inline constexpr int kMaxUnknowns = kDof + 2 * kMaxBalls;
struct Columns {
  std::array<int, kMaxBalls> pair{}, group{}, lead{};
  int size = 0;
};

class BallBalancerDynamics {
 public:
  explicit BallBalancerDynamics(const BallBalancerConstants& c);
  const BallBalancerConstants& constants() const { return c_; }
  int balls() const { return c_.n; }
  double phi(double t) const { return c_.spin * t + c_.phi0; }

  // First ball of the train (group) that ball i belongs to; throws CaseFailure for a closed ring.
  int leader(const Topology& topology, int i) const;
  // Solves for the accelerations; refreshes topology.nu (the N_i signs) as it iterates.
  Accelerations solve(double t, const State& y, Topology& topology) const;
  void rhs(double t, const State& y, Topology& topology, State& dy) const;
  // The same forces enclosed over a box (the dense output of a step over part of it): the N_i signs
  // of topology.nu, and both signs for a slipping ball whose N_i may change sign in the box.
  ForceEnclosure enclose_forces(const DualInterval& t, const StateBox& y, const Topology& topology) const;

  // Mass matrix M(q) over (x, y, theta_1..theta_n).
  Eigen::MatrixXd mass_matrix(const State& y) const;
  std::vector<RingPair> ring_pairs() const;  // pair k as coordinate indices
  double gap(const State& y, int k) const;   // theta_b - theta_a - alpha (+ 2 pi for the wrap-around pair)
  double energy(double t, const State& y) const;  // T + V (thesis Eqs. 44-50, 53), with the datum at the unstretched springs
  double momentum_x(double t, const State& y) const;
  double momentum_y(double t, const State& y) const;

 private:
  Columns columns(const Topology& topology) const;
  BallBalancerConstants c_;
  double tan_half_;  // tan(alpha / 2)
};

}  // namespace vibro::ball_balancer
