#pragma once
// Benettin's method for the Lyapunov spectrum of a stroboscopic map: an orthonormal frame follows the
// tangent map one period at a time and is re-orthonormalised by QR; the exponents are the mean logs of
// R's diagonal. A direction the map annihilates (an impact that clamps a velocity) gives -inf.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace vibro {

// `advance(frame, image)`: the frame's image after the next period along the trajectory; false when
// the tangent map is not available there (the result is then empty). Exponents in 1/s, largest first.
inline std::vector<double> benettin_exponents(int dims, int periods, double period,
                                              const std::function<bool(const Eigen::MatrixXd&, Eigen::MatrixXd&)>& advance) {
  Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(dims, dims), image;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(dims);
  for (int p = 0; p < periods; ++p) {
    if (!advance(Q, image)) return {};
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(image);
    const Eigen::MatrixXd R = qr.matrixQR().triangularView<Eigen::Upper>();
    Q = qr.householderQ();
    for (int i = 0; i < dims; ++i) {  // keep R's diagonal positive so that Q follows the flow
      if (R(i, i) < 0) Q.col(i) = -Q.col(i);
      sum[i] += std::log(std::fabs(R(i, i)));
    }
  }
  std::vector<double> exponents(sum.data(), sum.data() + dims);
  for (auto& e : exponents) e /= periods * period;
  std::sort(exponents.rbegin(), exponents.rend());
  return exponents;
}

}  // namespace vibro
