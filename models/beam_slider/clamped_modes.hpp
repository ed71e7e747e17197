#pragma once
// Free-vibration modes of a uniform clamped-clamped Euler-Bernoulli beam on xi = x/l in [0, 1]
// (Krack et al. 2017): phi_n = cosh - cos - sigma_n (sinh - sin) of lambda_n xi, with
// cos(lambda) cosh(lambda) = 1 and unit mean square. Evaluated in the cancellation-free form
// cosh - sigma sinh = ((1 - sigma) e^(lambda xi) + (1 + sigma) e^(-lambda xi)) / 2.
#include <vector>

namespace vibro::beam_slider {

struct ModeValue {
  double phi, dphi, ddphi;  // phi_n(xi) and its first two xi-derivatives
};

class ClampedClampedModes {
 public:
  explicit ClampedClampedModes(int count);
  int count() const { return static_cast<int>(lambda_.size()); }
  double lambda(int n) const { return lambda_[idx(n)]; }  // n = 0 .. count-1
  double sigma(int n) const { return sigma_[idx(n)]; }
  double integral(int n) const { return integral_[idx(n)]; }  // integral of phi_n over [0, 1], closed form
  ModeValue value(int n, double xi) const;

 private:
  static std::size_t idx(int n) { return static_cast<std::size_t>(n); }
  std::vector<double> lambda_, sigma_, one_minus_sigma_, integral_;
};

}  // namespace vibro::beam_slider
