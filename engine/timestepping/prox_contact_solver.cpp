#include "engine/timestepping/prox_contact_solver.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vibro::timestepping {

ProxSolverKind prox_solver_from_name(const std::string& name) {
  if (name == "gs_prox") return ProxSolverKind::GaussSeidel;
  throw std::invalid_argument("unknown contact solver '" + name + "' (known: gs_prox)");
}

namespace {
// Metric r_i of the proximal map (Krack et al., Arch. Appl. Mech. 2017, Appendix D; the metric is not given there): 1/max(G_nn, G_tt) of the contact when G is row
// diagonally dominant, else 1/(largest absolute row sum of the contact's two rows), which keeps the
// Gauss-Seidel relaxation contractive.
std::vector<double> prox_metric(const Eigen::Ref<const Eigen::MatrixXd>& G) {
  const Eigen::Index n = G.rows();
  bool dominant = true;
  for (Eigen::Index k = 0; k < n; ++k)
    if (G.row(k).cwiseAbs().sum() - std::abs(G(k, k)) > std::abs(G(k, k))) dominant = false;
  std::vector<double> r(static_cast<std::size_t>(n / 2));
  for (Eigen::Index i = 0; i < n / 2; ++i) {
    const double scale = dominant ? std::max(G(2 * i, 2 * i), G(2 * i + 1, 2 * i + 1))
                                  : std::max(G.row(2 * i).cwiseAbs().sum(), G.row(2 * i + 1).cwiseAbs().sum());
    r[static_cast<std::size_t>(i)] = scale > 0 ? 1.0 / scale : 0.0;
  }
  return r;
}
}  // namespace

ProxSolveReport solve_prox_gauss_seidel(const Eigen::Ref<const Eigen::MatrixXd>& G,
                                        const Eigen::Ref<const Eigen::VectorXd>& c, const std::vector<double>& mu,
                                        Eigen::Ref<Eigen::VectorXd> P, const ProxSolverSettings& settings) {
  const Eigen::Index contacts = G.rows() / 2;
  const std::vector<double> r = prox_metric(G);
  ProxSolveReport report;
  report.converged = false;
  for (int k = 1; k <= settings.max_iterations; ++k) {
    double change = 0;
    for (Eigen::Index i = 0; i < contacts; ++i) {
      const Eigen::Index n = 2 * i, t = 2 * i + 1;
      const double ri = r[static_cast<std::size_t>(i)];
      const double old_n = P(n), old_t = P(t);
      P(n) = std::max(0.0, old_n - ri * (G.row(n).dot(P) + c(n)));
      const double limit = mu[static_cast<std::size_t>(i)] * P(n);
      P(t) = std::clamp(old_t - ri * (G.row(t).dot(P) + c(t)), -limit, limit);
      change += std::hypot(P(n) - old_n, P(t) - old_t);
    }
    report.iterations = k;
    if (change <= settings.rtol * P.norm() + settings.atol) {
      report.converged = true;
      break;
    }
  }
  return report;
}

ProxSolveReport solve_prox(const Eigen::Ref<const Eigen::MatrixXd>& G, const Eigen::Ref<const Eigen::VectorXd>& c,
                           const std::vector<double>& mu, Eigen::Ref<Eigen::VectorXd> P,
                           const ProxSolverSettings& settings) {
  switch (settings.kind) {
    case ProxSolverKind::GaussSeidel:
      return solve_prox_gauss_seidel(G, c, mu, P, settings);
  }
  throw std::logic_error("unknown contact solver kind");
}

}  // namespace vibro::timestepping
