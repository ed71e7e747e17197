#pragma once
// The contact between the two bodies of Models A and B, in the state (x1, v1, x2, v2, cos wt, sin wt):
// the gap x2 - x1 - offset as an affine guard (Falling when free, Rising when in contact), the
// contact force N of stuck bodies as the affine guard of their release, and what an event of
// either does to the mode and the state. A closing gap counts an impact or a grazing, then either
// enters compliant contact or, under restitution, puts the bodies exactly at contact, applies
// Newton's law (two_body_restitution) and makes them stick (momentum-weighted common velocity)
// once the chatter has run out: rebound speed below v_eps and N > 0.
#include <cstddef>

#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/two_body_steps.hpp"

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
  explicit TwoBodyContact(const ContactSetup& setup) : s_(setup) {}

  int guards(ContactMode mode, AffineGuard<6>* out) const;
  double stuck_force(const TwoBodyState& x) const { return s_.stuck_row.dot(x) + s_.stuck_constant; }
  // Whether bodies that approached at `approach` and rebounded to x_after stick (chatter run out).
  bool sticks(double approach, const TwoBodyState& x_after) const;
  // Jacobian of what on_event does to the state (identity where nothing jumps): Eq. 6 at a rigid
  // impact, composed with the momentum average when the bodies stick. For saltation matrices.
  Eigen::Matrix<double, 6, 6> reset_jacobian(const EventHit& hit, ContactMode mode, const TwoBodyState& x) const;
  // Applies one event of the contact's guards to the mode and the state; counts it in counters.
  ContactEvent on_event(const EventHit& hit, ContactMode& mode, TwoBodyState& x, StrobeSample& sample) const;

 private:
  void count(int counter, StrobeSample& sample) const { ++sample.counters[static_cast<std::size_t>(counter)]; }
  ContactSetup s_;
};

}  // namespace vibro::two_body
