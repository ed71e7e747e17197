#include "models/two_body/two_body_contact.hpp"

namespace vibro::two_body {

Eigen::Matrix<double, 6, 6> TwoBodyContact::reset_jacobian(const EventHit& hit, ContactMode mode,
                                                           const TwoBodyState& x) const {
  using Matrix = Eigen::Matrix<double, 6, 6>;
  Matrix R = Matrix::Identity();
  if (hit.id != kGapGuard || mode != kFree || s_.law != ImpactLaw::Restitution) return R;  // no jump
  const double chi = s_.m2 / s_.m1, e = s_.e;
  R(1, 1) = (1 - e * chi) / (1 + chi);  // Eq. 6
  R(1, 3) = chi * (1 + e) / (1 + chi);
  R(3, 1) = (1 + e) / (1 + chi);
  R(3, 3) = (chi - e) / (1 + chi);
  TwoBodyState after = x;
  after[1] = R(1, 1) * x[1] + R(1, 3) * x[3];
  after[3] = R(3, 1) * x[1] + R(3, 3) * x[3];
  if (sticks(x[1] - x[3], after)) {  // then the momentum-weighted common velocity
    Matrix average = Matrix::Identity();
    const double M = s_.m1 + s_.m2;
    average.row(1).setZero();
    average(1, 1) = s_.m1 / M;
    average(1, 3) = s_.m2 / M;
    average.row(3) = average.row(1);
    R = average * R;
  }
  return R;
}

}  // namespace vibro::two_body
