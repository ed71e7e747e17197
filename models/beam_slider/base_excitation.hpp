#pragma once
// The base motion w0(t) = w0_hat (1 + alpha cos(2 pi f_a t)) cos(2 pi f t) of Krack et al. 2017:
// harmonic, optionally amplitude-modulated (alpha = 0: constant amplitude), with analytic velocity
// and acceleration including the modulation's derivatives.
#include <cmath>

namespace vibro::beam_slider {

class BaseExcitation {
 public:
  BaseExcitation(double amplitude, double frequency, double modulation_depth, double modulation_frequency)
      : w_(amplitude), omega_(2 * kPi * frequency), alpha_(modulation_depth), Omega_(2 * kPi * modulation_frequency) {}
  double displacement(double t) const { return amplitude(t) * std::cos(omega_ * t); }
  double velocity(double t) const {
    return amplitude_rate(t) * std::cos(omega_ * t) - amplitude(t) * omega_ * std::sin(omega_ * t);
  }
  double acceleration(double t) const {
    const double c = std::cos(omega_ * t), s = std::sin(omega_ * t);
    const double a2 = -w_ * alpha_ * Omega_ * Omega_ * std::cos(Omega_ * t);
    return a2 * c - 2 * amplitude_rate(t) * omega_ * s - amplitude(t) * omega_ * omega_ * c;
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  double amplitude(double t) const { return w_ * (1 + alpha_ * std::cos(Omega_ * t)); }
  double amplitude_rate(double t) const { return -w_ * alpha_ * Omega_ * std::sin(Omega_ * t); }
  double w_, omega_, alpha_, Omega_;
};

}  // namespace vibro::beam_slider
