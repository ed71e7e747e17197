#pragma once
// The local contact problem of one time step, -(G P + c) in N_C(P), with C the product of one
// Signorini-Coulomb set {P_n >= 0, |P_t| <= mu P_n} per contact, solved by proximal-point
// (augmented Lagrangian) Gauss-Seidel relaxation (as Krack et al. 2017 use it). Percussions are ordered
// per contact: P = [P_n,0, P_t,0, P_n,1, P_t,1, ...]. The sweep order is fixed (contact 0 first), so
// the same inputs give bit-identical outputs.
#include <Eigen/Dense>
#include <string>
#include <vector>

namespace vibro::timestepping {

// Solvers selectable by name (the sweep file's contact_solver key).
enum class ProxSolverKind { GaussSeidel };
ProxSolverKind prox_solver_from_name(const std::string& name);  // throws std::invalid_argument

struct ProxSolverSettings {
  ProxSolverKind kind = ProxSolverKind::GaussSeidel;
  double rtol = 1e-5;        // sum_i |P_i^{k+1} - P_i^k| <= rtol |P| + atol ends the iteration
  double atol = 5e-13;       // percussion units (N s)
  int max_iterations = 5000; // sweeps; a step that reaches it is counted as not converged
};

struct ProxSolveReport {
  int iterations = 0;
  bool converged = true;
};

// Solves for P in place; P holds the warm start on entry. G is the 2n x 2n Delassus matrix
// W^T M^-1 W, c the free relative velocity term, mu one friction coefficient per contact.
ProxSolveReport solve_prox_gauss_seidel(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                        const Eigen::Ref<const Eigen::VectorXd>& c, const std::vector<double>& mu,
                                        Eigen::Ref<Eigen::VectorXd> P, const ProxSolverSettings& settings);
// Dispatches to the solver that settings.kind names.
ProxSolveReport solve_prox(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::VectorXd>& c,
                           const std::vector<double>& mu, Eigen::Ref<Eigen::VectorXd> P,
                           const ProxSolverSettings& settings);

}  // namespace vibro::timestepping
