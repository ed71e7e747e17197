#pragma once
// Newton's impact law between two free bodies on a line (two-body spec, Eq. 6): positions are
// continuous, momentum m1 v1 + m2 v2 is conserved and the relative velocity reverses and scales,
// v1+ - v2+ = -e (v1- - v2-). chi = m2 / m1. Host-and-device code.
#include "engine/core/host_device.hpp"

namespace vibro {

struct TwoBodyVelocities {
  double v1, v2;
};

VIBRO_HD inline TwoBodyVelocities two_body_restitution(double v1, double v2, double chi, double e) {
  return {((1 - e * chi) * v1 + chi * (1 + e) * v2) / (1 + chi), ((1 + e) * v1 + (chi - e) * v2) / (1 + chi)};
}

}  // namespace vibro
