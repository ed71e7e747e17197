#pragma once
// Model B as a hybrid system. State (y1, v1, y2, v2, cos wt, sin wt), y up, y2 the form's bottom.
// Modes: free flight of the form, contact (compliant law, or the joint phase on the linear block
// that precedes the first lift-off under restitution), stuck (restitution chatter run out). The
// block damping switches at contact onset and offset, which are therefore events. The contact's
// guards and events are TwoBodyContact's, with the gap offset by the block thickness h.
#include "engine/core/model.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/two_body_contact.hpp"
#include "models/two_body/two_body_steps.hpp"
#include "models/two_body/vibro_platform_parameters.hpp"

namespace vibro::two_body {

enum PlatformCounter { kLandings, kPlatformStickings, kPlatformReleases, kLiftOffs, kPlatformGrazings,
                       kPlatformSteps, kPlatformRejected };
// Model B's names for the contact's modes.
inline constexpr ContactMode kFlight = kFree, kOnBlock = kContact, kTogether = kStuck;

class VibroPlatformSystem {
 public:
  using Constants = VibroPlatformConstants;
  explicit VibroPlatformSystem(const VibroPlatformConstants& c);
  static StrobeFrame strobe_frame(const VibroPlatformConstants& c);
  TwoBodyState start();  // static equilibrium plus the requested offsets
  bool restart(const StrobeSample& from, TwoBodyState& x);

  using Matrix = Eigen::Matrix<double, 6, 6>;
  void rhs(double t, const TwoBodyState& x, TwoBodyState& dx) const;
  void jacobian(double t, const TwoBodyState& x, Matrix& J) const;
  Matrix reset_jacobian(const EventHit& hit, const TwoBodyState& x) const { return contact_.reset_jacobian(hit, mode, x); }
  int guards(AffineGuard<6>* out) const { return contact_.guards(mode, out); }
  bool on_events(double t, TwoBodyState& x, const EventHit* hits, int count);
  void observe(const DenseStep<6>& step, double theta_end);
  double elastic_force(double z) const;
  double block_force(const TwoBodyState& x) const;  // total force of the block on the form, up (contact)

  ContactMode mode = kOnBlock;
  bool joint_phase = false;  // restitution runs start on the linear block until the first lift-off
  StrobeSample* sample = nullptr;

 private:
  double forcing(const TwoBodyState& x) const;
  VibroPlatformConstants c_;
  TwoBodyContact contact_;
};

using VibroPlatformSimulation = TwoBodySimulation<VibroPlatformSystem>;

}  // namespace vibro::two_body
