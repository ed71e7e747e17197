#pragma once
// The beam's elastic axis in modal coordinates (Krack et al. 2017, N = 5 modes): mass-normalised clamped-
// clamped shapes s_n(x) = phi_n(x / l) / sqrt(m_B), their natural frequencies and base-load factors
// gamma_n = int rho A s_n dx, and the bonded-slider Rayleigh estimate of Eq. 7 (the paper's Eq. 7).
#include <array>

#include "models/beam_slider/clamped_modes.hpp"

namespace vibro::beam_slider {

inline constexpr int kMaxModes = 8;
using ModalArray = std::array<double, kMaxModes>;

// Deflection w (relative to the base) and its x-derivatives at one point of the axis.
struct AxisPoint {
  double w, dw, ddw;
};

class BeamAxis {
 public:
  BeamAxis(int modes, double length, double beam_mass, double EI);
  int modes() const { return modes_.count(); }
  double length() const { return length_; }
  const ClampedClampedModes& shapes() const { return modes_; }
  double omega(int n) const { return omega_[static_cast<std::size_t>(n)]; }  // rad/s
  double gamma(int n) const { return gamma_[static_cast<std::size_t>(n)]; }  // kg^(1/2)
  // s_n(x), s_n'(x), s_n''(x) of every mode.
  void shapes_at(double x, ModalArray& s, ModalArray& ds, ModalArray& dds) const;
  // w, w', w'' at x for modal coordinates q_beam[0 .. modes-1].
  AxisPoint at(const double* q_beam, double x) const;
  // Rayleigh estimate of the first natural frequency with a slider (mass m, inertia J) bonded at x, Hz.
  double bonded_frequency(double x, double m, double J) const;

 private:
  ClampedClampedModes modes_;
  double length_, scale_;  // scale_ = 1 / sqrt(m_B)
  ModalArray omega_{}, gamma_{};
};

}  // namespace vibro::beam_slider
