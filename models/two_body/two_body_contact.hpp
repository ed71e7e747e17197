#pragma once
// The contact between the two bodies of Models A and B, in the state (x1, v1, x2, v2, cos wt, sin wt):
// the gap x2 - x1 - offset as an affine guard (Falling when free, Rising when in contact), the
// contact force N of stuck bodies as the affine guard of their release, and what an event of
// either does to the mode and the state. A closing gap counts an impact or a grazing, then either
// enters compliant contact or, under restitution, puts the bodies exactly at contact, applies
// Newton's law (two_body_restitution) and makes them stick (momentum-weighted common velocity)
// once the chatter has run out: rebound speed below v_eps and N > 0. Host-and-device code (the GPU
// kernels of Models A and B step through it), except the reset Jacobian.
#include <cstddef>

#include "engine/contact/two_body_restitution.hpp"
#include "engine/core/host_device.hpp"

#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/two_body_state.hpp"

namespace vibro::two_body {

// The discrete modes of the pair (StrobeSample::mode): apart, in (compliant) contact, stuck.
enum ContactMode { kFree = 0, kContact = 1, kStuck = 2 };
// The ids of the contact's guards in AffineGuard::id and EventHit::id.
enum ContactGuard { kGapGuard = 0, kReleaseGuard = 1 };
// What an event was, for a model's own bookkeeping beyond the contact's counters.
enum class ContactEvent { Release, Separation, Closing };

// The StrobeSample counters under which a model books the contact's events.
struct ContactCounters {
  int impacts, grazings, stickings, releases;
};

struct ContactSetup {
  double offset;  // gap = x2 - x1 - offset
  double m1, m2;
  ImpactLaw law;
  double e, v_eps;        // restitution; rebound speed below which the bodies stick
  TwoBodyState stuck_row;  // contact force of stuck bodies, N = stuck_row . x + stuck_constant
  double stuck_constant;
  ContactCounters counters;
};

class TwoBodyContact {
 public:
  TwoBodyContact() = default;  // a placeholder, assigned before use (a batch's case array)
  explicit TwoBodyContact(const ContactSetup& setup) : s_(setup) {}

  VIBRO_HD int guards(ContactMode mode, AffineGuard<6>* out) const {
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
  VIBRO_HD double stuck_force(const TwoBodyState& x) const { return s_.stuck_row.dot(x) + s_.stuck_constant; }
  // Whether bodies that approached at `approach` and rebounded to x_after stick (chatter run out).
  VIBRO_HD bool sticks(double approach, const TwoBodyState& x_after) const {
    return s_.e * (approach < 0.0 ? 0.0 : approach) < s_.v_eps  // std::max(approach, 0.0)
           && stuck_force(x_after) > 0;
  }
  // Jacobian of what on_event does to the state (identity where nothing jumps): Eq. 6 at a rigid
  // impact, composed with the momentum average when the bodies stick. For saltation matrices.
  Eigen::Matrix<double, 6, 6> reset_jacobian(const EventHit& hit, ContactMode mode, const TwoBodyState& x) const;
  // Applies one event of the contact's guards to the mode and the state; counts it in counters.
  VIBRO_HD ContactEvent on_event(const EventHit& hit, ContactMode& mode, TwoBodyState& x, StrobeSample& sample) const {
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

 private:
  VIBRO_HD void count(int counter, StrobeSample& sample) const { ++sample.counters[static_cast<std::size_t>(counter)]; }
  ContactSetup s_{};
};

}  // namespace vibro::two_body
