#pragma once
// Moreau's midpoint time-stepping for a measure differential inclusion with Signorini, Coulomb and
// Newton impact laws (Krack et al. 2017, Appendix D): positions at the step's midpoint decide the closed
// contacts, one local contact problem per step gives the percussions, and velocities jump by
// M^-1 (h dt + W P). Without contacts it is Stoermer-Verlet (leapfrog). Warm starts carry each
// contact's percussion over from the previous step and reset a contact that was open to zero.
#include <Eigen/Dense>
#include <vector>

#include "engine/timestepping/measure_differential_system.hpp"
#include "engine/timestepping/prox_contact_solver.hpp"

namespace vibro::timestepping {

struct StepReport {
  int contacts = 0;       // closed at the midpoint
  int iterations = 0;     // solver sweeps (0 without contacts)
  bool converged = true;
};

class MoreauMidpoint {
 public:
  MoreauMidpoint(MeasureDifferentialSystem& system, const ProxSolverSettings& settings);
  // Advances (q, u) from t to t + dt in place.
  StepReport step(Eigen::VectorXd& q, Eigen::VectorXd& u, double t, double dt);
  // Of the last step: the closed contacts, their percussions (2 per contact, normal first) and the
  // generalized contact impulse W P.
  const ClosedContacts& closed() const { return closed_; }
  Eigen::Ref<const Eigen::VectorXd> percussions() const { return P_.head(2 * closed_.count); }
  const Eigen::VectorXd& contact_impulse() const { return impulse_; }
  // Forgets every warm start (after a restart from another state).
  void reset_warm_start();

 private:
  MeasureDifferentialSystem& system_;
  ProxSolverSettings settings_;
  ClosedContacts closed_;
  Eigen::VectorXd minv_, q_mid_, h_, impulse_, free_velocity_;
  Eigen::MatrixXd minv_W_, G_;
  Eigen::VectorXd c_, P_;
  std::vector<double> mu_;
  Eigen::VectorXd previous_P_;        // 2 per system contact id
  std::vector<char> previous_closed_;  // per system contact id
};

}  // namespace vibro::timestepping
