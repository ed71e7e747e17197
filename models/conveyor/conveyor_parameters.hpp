#pragma once
// The conveyor's declared inputs (the conveyor paper) and the constants derived from them.
#include <vector>

#include "engine/core/parameter_spec.hpp"

namespace vibro::conveyor {

const std::vector<ParameterSpec>& conveyor_parameter_specs();

enum class StartMode { Drop, FirstImpact, State };
enum class OnPlateMode { Coupled, Impact };
enum class CoupledFriction { Coulomb, Eq62 };

// Everything the simulation needs, in SI units and phase (rad) time.
struct ConveyorConstants {
  double omega, period;     // rad/s, s
  double A, B;              // normal and tangential displacement amplitudes, m
  double g, G;              // gravity, and g / omega^2 (gravity in phase units), m
  double Gamma;             // A omega^2 / g
  double c_r, mu;
  bool lifts_off;           // Gamma > 1
  // The plate's phase at t = 0, in [0, 2 pi): the plate moves as A sin(omega t + phase). Phases below are
  // the plate's (theta) unless they say "clock" (omega t mod 2 pi, on which samples are taken at 0).
  double phase;
  double theta_L;           // lift-off phase asin(1/Gamma), when lifts_off
  double lift_off_clock;    // the clock's phase there, theta_L - phase in [0, 2 pi)
  double sigma_plus, sigma_minus;  // stick band -sigma_minus <= sin(theta) <= sigma_plus (inf: unbounded)
  // Clock phases where a stick arc breaks away, at the plate's asin(sigma_plus) (sin rising through
  // sigma+) and pi + asin(sigma_minus) (falling through -sigma-); inf where the band holds every phase.
  // Computed here once per case so that the shared kernel needs no asin (the GPU's would differ from the CPU's).
  double stick_exits[2];
  double u_tol, root_rtol;
  CoupledFriction coupled_friction;
  double events_per_period_cap;

  static ConveyorConstants from(const ParameterSet& p);
};

struct ConveyorStart {
  StartMode mode;
  OnPlateMode on_plate;
  double z0, v0, vT0;       // drop
  double v1, psi1;          // first impact: approach speed, phase (rad)
  double theta0, h0, u0;    // general state (phase may exceed 2 pi)

  static ConveyorStart from(const ParameterSet& p);
};

}  // namespace vibro::conveyor
