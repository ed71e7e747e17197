#pragma once
// The saltation matrix of an event: how a perturbation of the state just before an event maps to
// one just after it, accounting for the shift of the event time. For a reset x+ = R(x-) at the
// guard h(x) = 0 with vector fields f- before and f+ after,
//   S = R_x + (f+ - R_x f-) grad(h)^T / (grad(h)^T f-)
// (Leine & Nijmeijer, "Dynamics and Bifurcations of Non-Smooth Mechanical Systems", Springer 2004). A mode switch without a jump has R_x = I.
#include <Eigen/Core>
#include <stdexcept>

namespace vibro {

template <int N>
Eigen::Matrix<double, N, N> saltation_matrix(const Eigen::Matrix<double, N, N>& reset_jacobian,
                                             const Eigen::Matrix<double, N, 1>& f_minus,
                                             const Eigen::Matrix<double, N, 1>& f_plus,
                                             const Eigen::Matrix<double, N, 1>& guard_gradient) {
  const double transversality = guard_gradient.dot(f_minus);
  if (transversality == 0)  // grazing: the saltation matrix is unbounded (square-root singularity)
    throw std::domain_error("saltation matrix undefined at a grazing event");
  return reset_jacobian + (f_plus - reset_jacobian * f_minus) * guard_gradient.transpose() / transversality;
}

}  // namespace vibro
