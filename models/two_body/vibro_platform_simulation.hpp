#pragma once
// Model B as a hybrid system. State (y1, v1, y2, v2, cos wt, sin wt), y up, y2 the form's bottom.
// Modes: free flight of the form, contact (compliant law, or the joint phase on the linear block
// that precedes the first lift-off under restitution), stuck (restitution chatter run out). The
// block damping switches at contact onset and offset, which are therefore events.
#include <cstdint>

#include "engine/core/model.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"
#include "models/two_body/two_body_steps.hpp"
#include "models/two_body/vibro_platform_parameters.hpp"

namespace vibro::two_body {

enum PlatformCounter { kLandings, kPlatformStickings, kPlatformReleases, kLiftOffs, kPlatformGrazings,
                       kPlatformSteps, kPlatformRejected };
enum PlatformMode { kFlight = 0, kOnBlock = 1, kTogether = 2 };

StrobeLayout vibro_platform_layout(const VibroPlatformConstants& c);

class VibroPlatformSystem {
 public:
  explicit VibroPlatformSystem(const VibroPlatformConstants& c) : c_(c) {}
  void rhs(double t, const TwoBodyState& x, TwoBodyState& dx) const;
  int guards(AffineGuard<6>* out) const;
  bool on_events(double t, TwoBodyState& x, const EventHit* hits, int count);
  void observe(const DenseStep<6>& step, double theta_end);
  double elastic_force(double z) const;

  PlatformMode mode = kOnBlock;
  bool joint_phase = false;  // restitution runs start on the linear block until the first lift-off
  StrobeSample* sample = nullptr;

 private:
  double forcing(const TwoBodyState& x) const;
  TwoBodyState stuck_force_row(double& constant) const;
  VibroPlatformConstants c_;
};

class VibroPlatformSimulation : public Simulation {
 public:
  explicit VibroPlatformSimulation(const VibroPlatformConstants& constants);
  const StrobeLayout& layout() const override { return layout_; }
  void run(StrobeObserver& observer) override;
  bool restart_from(const StrobeSample& sample) override;

 private:
  VibroPlatformConstants c_;
  StrobeLayout layout_;
  VibroPlatformSystem system_;
  HybridIntegrator<6> integrator_;
  TwoBodyState x_;
  std::int64_t periods_ = 0;
  StrobeSample sample_{};
};

}  // namespace vibro::two_body
