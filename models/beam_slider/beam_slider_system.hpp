#pragma once
// The beam with the sliding mass as a measure differential inclusion (Krack et al. 2017):
// q = [q_B (modes); x_C; z_C; phi], constant diagonal M, smooth forces h (modal damping and
// stiffness, base load, gravity) and the four hole corners as frictional unilateral contacts.
// The fixed-slider variants hold x_C with a zero entry of M^-1 (the paper's fixed-slider variants).
#include <array>

#include "engine/timestepping/measure_differential_system.hpp"
#include "models/beam_slider/base_excitation.hpp"
#include "models/beam_slider/beam_axis.hpp"
#include "models/beam_slider/beam_slider_parameters.hpp"
#include "models/beam_slider/corner_contact.hpp"

namespace vibro::beam_slider {

inline constexpr int kCorners = 4;

class BeamSliderSystem : public timestepping::MeasureDifferentialSystem {
 public:
  explicit BeamSliderSystem(const BeamSliderConstants& constants);
  int dofs() const override { return axis_.modes() + 3; }
  int max_contacts() const override { return kCorners; }
  const Eigen::VectorXd& inverse_mass() const override { return inverse_mass_; }
  void forces(const Eigen::VectorXd& q, const Eigen::VectorXd& u, double t, Eigen::VectorXd& h) override;
  void closed_contacts(const Eigen::VectorXd& q, double t, timestepping::ClosedContacts& closed) override;

  const BeamAxis& axis() const { return axis_; }
  const BeamSliderConstants& constants() const { return c_; }
  const Corner& corner(int i) const { return corners_[static_cast<std::size_t>(i)]; }
  int x_index() const { return axis_.modes(); }  // x_C; z_C and phi follow
  SliderPose pose(const Eigen::VectorXd& q, double t) const;
  const BaseExcitation& base() const { return base_; }
  // Beam modal energies (relative frame) plus absolute slider kinetic energies (the paper does not define its "mechanical energy of the system"; this is our reading).
  double mechanical_energy(const Eigen::VectorXd& q, const Eigen::VectorXd& u) const;
  double rotational_energy(const Eigen::VectorXd& u) const;
  // The paper's "trivial initial conditions" (beam and slider at rest, undeformed) at x_C(0) = x_start.
  void initial_state(Eigen::VectorXd& q, Eigen::VectorXd& u) const;

 private:
  BeamSliderConstants c_;
  BeamAxis axis_;
  std::array<Corner, kCorners> corners_;
  BaseExcitation base_;
  Eigen::VectorXd inverse_mass_;
};

}  // namespace vibro::beam_slider
