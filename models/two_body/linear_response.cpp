#include "models/two_body/linear_response.hpp"

#include <Eigen/Dense>
#include <complex>

namespace vibro::two_body {

LinearResponse linear_response(const GapOscillatorConstants& c) {
  using Complex = std::complex<double>;
  const double w = c.omega;
  Eigen::Matrix2cd Z;
  Z << Complex(c.k1 + c.k2 - w * w * c.m1, w * (c.c1 + c.c2)), Complex(-c.k2, -w * c.c2),
      Complex(-c.k2, -w * c.c2), Complex(c.k2 - w * w * c.m2, w * c.c2);
  const Eigen::Vector2cd X = Z.partialPivLu().solve(Eigen::Vector2cd(Complex(c.F0, 0), Complex(0, 0)));
  LinearResponse r;
  r.amplitude1 = std::abs(X[0]);
  r.amplitude2 = std::abs(X[1]);
  r.relative = std::abs(X[0] - X[1]);
  r.grazing_lambda = c.D / r.relative;
  return r;
}

}  // namespace vibro::two_body
