#pragma once
// Closed-form results of the conveyor paper (Eqs. 23-40, 44-57, 64-67), used by tests and by the plotting scripts'
// reference lines. Angles in rad unless the name says deg.
namespace vibro::conveyor::analytic {

// Eq. 28 / 67: feeding velocity of one-periodic hopping with n-period flights, m/s.
double hopping_velocity(double c_r, double phi, double f, double g, int n = 1);
// Eq. 64: lowest acceleration amplitude at which n-period hopping exists, m/s^2 (independent of f).
double critical_amplitude(double c_r, double phi, double g, int n = 1);
// Eq. 40 via Eq. 63: upper stability limit (flip) of n-period hopping, m/s^2.
double stability_limit(double c_r, double phi, double g, int n = 1);
// Eq. 26: impact phase theta* of the stable hopping orbit (NaN below the critical amplitude).
double hopping_phase(double a_hat, double c_r, double phi, double g, int n = 1);
// Eq. 51: duration of a microthrow sequence, s.
double microthrow_duration(double dv1, double c_r, double g, double A, double omega, double theta1);
// Eq. 56: tangential velocity at the accumulation point.
double microthrow_final_velocity(double vT1, double dv1, double c_r, double mu);
// Eq. 57 as printed in the paper, and corrected (an index shift: as printed, Eq. 57 disagrees with Eq. 56 it is derived from).
double microthrow_mean_velocity_printed(double vT1, double dv1, double c_r, double mu);
double microthrow_mean_velocity_corrected(double vT1, double dv1, double c_r, double mu);

}  // namespace vibro::conveyor::analytic
