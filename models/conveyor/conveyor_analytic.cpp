#include "models/conveyor/conveyor_analytic.hpp"

#include <cmath>
#include <limits>

namespace vibro::conveyor::analytic {

namespace {
constexpr double kPi = 3.14159265358979323846;
double ratio(double c_r) { return (1 - c_r) / (1 + c_r); }
}  // namespace

double hopping_velocity(double c_r, double phi, double f, double g, int n) {
  const double omega = 2 * kPi * f;
  return kPi * g * n / omega * ratio(c_r) / std::tan(phi);
}

double critical_amplitude(double c_r, double phi, double g, int n) {
  return kPi * g * n / std::sin(phi) * ratio(c_r);
}

double stability_limit(double c_r, double phi, double g, int n) {
  const double c2 = c_r * c_r;
  const double q = n * kPi * (1 - c2) / (1 + c2);
  return g / std::sin(phi) * (1 + c2) / ((1 + c_r) * (1 + c_r)) * std::sqrt(4 + q * q);
}

double hopping_phase(double a_hat, double c_r, double phi, double g, int n) {
  const double cos_theta = critical_amplitude(c_r, phi, g, n) / a_hat;
  if (cos_theta > 1) return std::numeric_limits<double>::quiet_NaN();
  return std::acos(cos_theta);
}

double microthrow_duration(double dv1, double c_r, double g, double A, double omega, double theta1) {
  return 2 * dv1 / ((1 - c_r) * (g - A * omega * omega * std::sin(theta1)));
}

double microthrow_final_velocity(double vT1, double dv1, double c_r, double mu) {
  return vT1 + mu * (1 + c_r) / (1 - c_r) * dv1;
}

double microthrow_mean_velocity_printed(double vT1, double dv1, double c_r, double mu) {
  return vT1 + mu / (1 - c_r) * dv1;
}

double microthrow_mean_velocity_corrected(double vT1, double dv1, double c_r, double mu) {
  return vT1 + mu * c_r / (1 - c_r) * dv1;
}

}  // namespace vibro::conveyor::analytic
