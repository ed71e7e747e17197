#include "models/beam_slider/beam_axis.hpp"

#include <cmath>

namespace vibro::beam_slider {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

BeamAxis::BeamAxis(int modes, double length, double beam_mass, double EI)
    : modes_(modes), length_(length), scale_(1.0 / std::sqrt(beam_mass)) {
  const double rhoA = beam_mass / length;
  for (int n = 0; n < modes; ++n) {
    const double L = modes_.lambda(n);
    omega_[static_cast<std::size_t>(n)] = L * L * std::sqrt(EI / (rhoA * std::pow(length, 4)));
    gamma_[static_cast<std::size_t>(n)] = std::sqrt(beam_mass) * modes_.integral(n);
  }
}

void BeamAxis::shapes_at(double x, ModalArray& s, ModalArray& ds, ModalArray& dds) const {
  const double xi = x / length_;
  for (int n = 0; n < modes(); ++n) {
    const ModeValue v = modes_.value(n, xi);
    const auto i = static_cast<std::size_t>(n);
    s[i] = scale_ * v.phi;
    ds[i] = scale_ * v.dphi / length_;
    dds[i] = scale_ * v.ddphi / (length_ * length_);
  }
}

AxisPoint BeamAxis::at(const double* q_beam, double x) const {
  ModalArray s, ds, dds;
  shapes_at(x, s, ds, dds);
  AxisPoint p{0, 0, 0};
  for (int n = 0; n < modes(); ++n) {
    const auto i = static_cast<std::size_t>(n);
    p.w += s[i] * q_beam[n];
    p.dw += ds[i] * q_beam[n];
    p.ddw += dds[i] * q_beam[n];
  }
  return p;
}

double BeamAxis::bonded_frequency(double x, double m, double J) const {
  ModalArray s, ds, dds;
  shapes_at(x, s, ds, dds);
  const double w1 = omega_[0];
  return std::sqrt(w1 * w1 / (1.0 + m * s[0] * s[0] + J * ds[0] * ds[0])) / (2 * kPi);
}

}  // namespace vibro::beam_slider
