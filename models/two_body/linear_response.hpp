#pragma once
// The impact-free steady response of Model A (Bazhenov et al. 2013): X = Z(omega)^-1 F with
// Z = K - omega^2 M + i omega C. Gives the semi-amplitudes below grazing and the grazing threshold
// lambda* = D / |X1 - X2|.
#include "models/two_body/gap_oscillator_parameters.hpp"

namespace vibro::two_body {

struct LinearResponse {
  double amplitude1;  // |X1| per unit lambda, m
  double amplitude2;  // |X2|
  double relative;    // |X1 - X2|
  double grazing_lambda;
};

LinearResponse linear_response(const GapOscillatorConstants& c);

}  // namespace vibro::two_body
