#pragma once
// Closed-form estimates of the dimer's drift (Liu, Zhao and Brogliato 2008): the "unilateral
// single pendulum" approximation of the mean drift speed (massless rod, theta ~ 0), and the mode
// energy estimates of Eqs. 122-124.

namespace vibro::dimer {

// Scaled drift kappa = <x> f^2 / g * 100 per cycle, for aspect ratio A_r, Gamma, contact slip
// coefficient mu and impact phase alpha (rad) before the plate's highest point.
// Forward drift (A_r < 5), re-derived with the factor 1/2 of Eqs. 133 and 136 (the report's printed Eqs. 138 and 140 drop it).
double kappa_forward(double aspect_ratio, double Gamma, double mu, double alpha);
// The same as printed in the report (Eqs. 138/140, without the 1/2), only to compare with its Fig. 30.
double kappa_forward_printed(double aspect_ratio, double Gamma, double mu, double alpha);
// Backward drift (A_r > 5), Eq. 141.
double kappa_backward(double aspect_ratio, double Gamma, double mu, double alpha);

// kappa (dimensionless) <-> mean speed (m/s) at frequency f: kappa = u f / g * 100.
double kappa_from_speed(double speed, double f, double g);

enum class EnergyMode { Drift, Jump, Flutter };
// Mode energies (J): drift m g^2 T^2 / 8, jump m g^2 T^2 / 4, flutter m g^2 T^2 (ratio 1 : 2 : 8).
double mode_energy(EnergyMode mode, double m, double g, double period);

}  // namespace vibro::dimer
