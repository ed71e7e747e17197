#include "analysis/map_lyapunov.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "engine/core/case_budget.hpp"

namespace vibro {

MapLyapunov lyapunov_along_map(Simulation& simulation, const StrobeSample& from, int periods, double period) {
  MapLyapunov result;
  StretchExponent& stretch = result.between_resets;
  StrobeSample x = from;
  Eigen::MatrixXd Q;        // Benettin's frame
  Eigen::VectorXd log_sum;  // of R's diagonal
  Eigen::VectorXd v;        // the between-resets vector
  const auto fresh = [](Eigen::Index n) { return Eigen::VectorXd::Ones(n).normalized(); };
  double stretch_sum = 0;
  for (int p = 0; p < periods; ++p) {
    MapStep step;
    begin_budget_periods(1);
    if (!simulation.stroboscopic_map(x, 1, step)) return {};  // the model has no map here
    const Eigen::Index dims = step.jacobian.cols();
    if (p == 0) {
      Q = Eigen::MatrixXd::Identity(dims, dims);
      log_sum = Eigen::VectorXd::Zero(dims);
      v = fresh(dims);
    }
    x = step.image;

    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(step.jacobian * Q);
    const Eigen::MatrixXd R = qr.matrixQR().triangularView<Eigen::Upper>();
    Q = qr.householderQ();
    for (Eigen::Index i = 0; i < dims; ++i) {  // keep R's diagonal positive so that Q follows the flow
      if (R(i, i) < 0) Q.col(i) = -Q.col(i);
      log_sum[i] += std::log(std::fabs(R(i, i)));
    }

    if (step.resets > 0) {
      ++stretch.resets;
      v = fresh(dims);
      continue;
    }
    const Eigen::VectorXd w = step.jacobian * v;
    const double growth = w.norm();
    if (!(growth > 0)) {  // the vector fell into a direction the map annihilates: start afresh
      v = fresh(dims);
      continue;
    }
    stretch_sum += std::log(growth);
    ++stretch.periods_counted;
    v = w / growth;
  }
  if (periods <= 0) return result;
  for (Eigen::Index i = 0; i < log_sum.size(); ++i) result.spectrum.push_back(log_sum[i] / (periods * period));
  std::sort(result.spectrum.rbegin(), result.spectrum.rend());
  if (stretch.periods_counted > 0) stretch.exponent = stretch_sum / (stretch.periods_counted * period);
  return result;
}

}  // namespace vibro
