#include "models/beam_slider/clamped_modes.hpp"

#include <cmath>

namespace vibro::beam_slider {

namespace {
constexpr double kPi = 3.14159265358979323846;

// Root of cos(x) - 1/cosh(x) near (n + 3/2) pi (n = 0 is the first clamped-clamped mode).
double characteristic_root(int n) {
  double x = (n + 1.5) * kPi;
  for (int k = 0; k < 50; ++k) {
    const double f = std::cos(x) - 1.0 / std::cosh(x);
    const double df = -std::sin(x) + std::tanh(x) / std::cosh(x);
    const double dx = f / df;
    x -= dx;
    if (std::abs(dx) < 1e-15 * x) break;
  }
  return x;
}
}  // namespace

ClampedClampedModes::ClampedClampedModes(int count) {
  for (int n = 0; n < count; ++n) {
    const double L = characteristic_root(n);
    const double sh = std::sinh(L), ch = std::cosh(L), s = std::sin(L), c = std::cos(L);
    const double sigma = (ch - c) / (sh - s);
    // 1 - sigma without cancellation: (sinh - cosh) = -e^-L.
    const double one_minus_sigma = (c - s - std::exp(-L)) / (sh - s);
    // sinh - sigma cosh at L, in the stable form.
    const double sh_minus_sigma_ch = 0.5 * (one_minus_sigma * std::exp(L) - (1 + sigma) * std::exp(-L));
    lambda_.push_back(L);
    sigma_.push_back(sigma);
    one_minus_sigma_.push_back(one_minus_sigma);
    integral_.push_back((sh_minus_sigma_ch - s - sigma * (c - 2.0)) / L);
  }
}

ModeValue ClampedClampedModes::value(int n, double xi) const {
  const std::size_t i = idx(n);
  const double L = lambda_[i], sigma = sigma_[i], oms = one_minus_sigma_[i];
  const double ep = std::exp(L * xi), em = 1.0 / ep;
  const double s = std::sin(L * xi), c = std::cos(L * xi);
  const double ch_part = 0.5 * (oms * ep + (1 + sigma) * em);  // cosh - sigma sinh
  const double sh_part = 0.5 * (oms * ep - (1 + sigma) * em);  // sinh - sigma cosh
  return {ch_part - c + sigma * s, L * (sh_part + s + sigma * c), L * L * (ch_part + c - sigma * s)};
}

}  // namespace vibro::beam_slider
