#include "models/dimer/dimer_drift_formula.hpp"

#include <cmath>

namespace vibro::dimer {

namespace {
constexpr double kPi = 3.14159265358979323846;

// Coefficients of Eq. 137 with B_r = l / r = 2 (A_r - 1).
struct Coefficients {
  double a, b, c, d;
};
Coefficients coefficients(double aspect_ratio, double mu) {
  const double B = 2 * (aspect_ratio - 1);
  return {mu * (2.8 + 0.5 * B * B), B, 0.8 + B * B, mu * B};
}

double kappa_forward_with(double aspect_ratio, double Gamma, double mu, double alpha, double half) {
  const auto [a, b, c, d] = coefficients(aspect_ratio, mu);
  const double q = a * c - b * d;
  return 50 / (kPi * kPi * (c * c - d * d)) *
         ((1 + std::cos(alpha)) * q * Gamma + half * (kPi * kPi + alpha * alpha) * q + kPi * alpha * (b * c - a * d));
}
}  // namespace

double kappa_forward(double aspect_ratio, double Gamma, double mu, double alpha) {
  return kappa_forward_with(aspect_ratio, Gamma, mu, alpha, 0.5);
}

double kappa_forward_printed(double aspect_ratio, double Gamma, double mu, double alpha) {
  return kappa_forward_with(aspect_ratio, Gamma, mu, alpha, 1.0);
}

double kappa_backward(double aspect_ratio, double Gamma, double mu, double alpha) {
  const auto [a, b, c, d] = coefficients(aspect_ratio, mu);
  return 25 * (a - b) / (kPi * kPi * (c - d)) * ((1 + std::cos(alpha)) * Gamma + 0.5 * (kPi - alpha) * (kPi - alpha));
}

double kappa_from_speed(double speed, double f, double g) { return speed * f / g * 100; }

double mode_energy(EnergyMode mode, double m, double g, double period) {
  const double drift = m * g * g * period * period / 8;  // one ball raised g (T/2)^2 / 2
  switch (mode) {
    case EnergyMode::Drift: return drift;
    case EnergyMode::Jump: return 2 * drift;     // both balls, same height
    case EnergyMode::Flutter: return 8 * drift;  // both balls raised g T^2 / 2
  }
  return drift;
}

}  // namespace vibro::dimer
