#pragma once
// The beam-with-slider's declared inputs (Krack et al. 2017) and the constants derived from them.
#include <string>
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/timestepping/prox_contact_solver.hpp"
#include "models/beam_slider/corner_contact.hpp"

namespace vibro::beam_slider {

const std::vector<ParameterSpec>& beam_slider_parameter_specs();

// The paper's three variants: all slider DOFs free, or x_C held by an axial bearing at the centre / at x_C0.
enum class Variant { Adaptive, Reference, Surrogate };

// Everything the simulation needs, in SI units.
struct BeamSliderConstants {
  // beam
  double length, beam_mass, EI, half_thickness, damping;
  int modes;
  bool base_load;  // the -gamma_n w0'' modal load: on = the paper's Eq. (1), off = its printed Eq. (6)
  // slider (corner geometry in the slider frame)
  double mass, inertia, corner_spacing /* b1 */, hole_height /* R */, hole_offset /* d */, g;
  // contact laws
  double mu, eps_n, eps_t;
  // excitation w0 = w0_hat (1 + am_depth cos(2 pi am_frequency t)) cos(2 pi f t)
  double frequency, w0_hat, am_depth, am_frequency;
  // variant and start
  Variant variant;
  double x_start;  // initial (and, for the fixed variants, held) x_C, m
  // numerics: dt = T / steps_per_period, the largest such step <= 2 pi / (steps_per_mode omega_max)
  double steps_per_mode;
  ContactKinematics kinematics;
  timestepping::ProxSolverSettings solver;

  double period() const { return 1.0 / frequency; }
  static BeamSliderConstants from(const ParameterSet& p);
};

// Cross-parameter checks (the slider's corners on the beam, a hole larger than the beam).
void validate_beam_slider(const ParameterSet& p);

}  // namespace vibro::beam_slider
