#include "models/two_body/two_body_contact.hpp"

#include <algorithm>

#include "engine/contact/two_body_restitution.hpp"

namespace vibro::two_body {

int TwoBodyContact::guards(ContactMode mode, AffineGuard<6>* out) const {
  if (mode == kStuck) {
    out[0].a = s_.stuck_row;
    out[0].b = s_.stuck_constant;
    out[0].crossing = Crossing::Falling;  // N from compressive to tensile: release
    out[0].id = kReleaseGuard;
    return 1;
  }
  out[0].a << -1, 0, 1, 0, 0, 0;  // gap x2 - x1 - offset
  out[0].b = 0.0 - s_.offset;     // +0 (not -0) for a zero offset
  out[0].crossing = mode == kFree ? Crossing::Falling : Crossing::Rising;
  out[0].id = kGapGuard;
  return 1;
}

bool TwoBodyContact::sticks(double approach, const TwoBodyState& x_after) const {
  return s_.e * std::max(approach, 0.0) < s_.v_eps && stuck_force(x_after) > 0;
}

ContactEvent TwoBodyContact::on_event(const EventHit& hit, ContactMode& mode, TwoBodyState& x,
                                      StrobeSample& sample) const {
  if (hit.id == kReleaseGuard) {
    mode = kFree;
    count(s_.counters.releases, sample);
    return ContactEvent::Release;
  }
  if (mode == kContact) {  // penetration back to zero: contact ends
    mode = kFree;
    return ContactEvent::Separation;
  }
  // Free and the gap closes.
  count(hit.grazing ? s_.counters.grazings : s_.counters.impacts, sample);
  if (s_.law != ImpactLaw::Restitution) {
    mode = kContact;
    return ContactEvent::Closing;
  }
  x[2] = x[0] + s_.offset;  // exactly at contact, so the deflation of the handled root applies
  const double approach = x[1] - x[3];
  const TwoBodyVelocities after = two_body_restitution(x[1], x[3], s_.m2 / s_.m1, s_.e);
  x[1] = after.v1;
  x[3] = after.v2;
  if (sticks(approach, x)) {
    // Chatter has run out: the bodies stay together (momentum kept) until N turns tensile.
    const double v = (s_.m1 * x[1] + s_.m2 * x[3]) / (s_.m1 + s_.m2);
    x[1] = x[3] = v;
    mode = kStuck;
    count(s_.counters.stickings, sample);
  }
  return ContactEvent::Closing;
}

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
