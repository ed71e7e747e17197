#include "models/beam_slider/beam_slider_parameters.hpp"

#include <limits>
#include <sstream>

#include "engine/core/input_error.hpp"

namespace vibro::beam_slider {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
using G = ParameterGroup;

std::vector<ParameterSpec> make_specs() {
  return {
      ParameterSpec::choice("variant", G::Physics, {"adaptive", "reference", "surrogate"}, "adaptive",
                            "adaptive: slider free (x_C, z_C, phi); reference: x_C held at l/2; surrogate: "
                            "x_C held at x_C0 (the paper's fixed-slider variants)"),
      ParameterSpec::real("f", G::Physics, "Hz", 125, 0, 1e4, "excitation frequency").open_below(),
      ParameterSpec::real("w0_hat", G::Physics, "m", 1e-4, 0, 1e-2, "base displacement amplitude"),
      ParameterSpec::real("am_depth", G::Physics, "-", 0, 0, 10,
                          "amplitude modulation depth alpha: w0_hat (1 + alpha cos(2 pi am_f t)) (the paper's AM runs)"),
      ParameterSpec::real("am_f", G::Physics, "Hz", 0.05, 0, 1e4, "amplitude modulation frequency").open_below(),
      ParameterSpec::real("mu", G::Physics, "-", 0.1, 0, 10, "Coulomb friction coefficient (stick = slip)"),
      ParameterSpec::real("eps_n", G::Physics, "-", 0.5, 0, 1, "normal restitution (Newton)"),
      ParameterSpec::real("eps_t", G::Physics, "-", 0, 0, 1, "tangential restitution"),
      ParameterSpec::real("damping", G::Physics, "-", 0.01, 0, 1, "modal damping ratio D_B,n of every mode"),
      ParameterSpec::real("clearance_ratio", G::Physics, "-", 1.25, 1, 10,
                          "hole height over beam thickness, R / (2 r)").open_below(),
      ParameterSpec::real("r", G::Physics, "m", 2e-4, 0, 1e-2, "beam half-thickness of the contact geometry")
          .open_below(),
      ParameterSpec::real("h_b", G::Physics, "m", 2e-4, 0, 1e-2,
                          "bending thickness: EI = E (m_B / (rho l)) h_b^2 / 12 (0.2 mm matches the "
                          "paper's frequencies)").open_below(),
      ParameterSpec::real("E", G::Physics, "Pa", 1.31e11, 0, 1e13, "Young's modulus of the beam").open_below(),
      ParameterSpec::real("rho", G::Physics, "kg/m^3", 8333, 0, 1e5, "beam density").open_below(),
      ParameterSpec::real("l", G::Physics, "m", 0.06, 0, 10, "beam length").open_below(),
      ParameterSpec::real("m_B", G::Physics, "kg", 3e-4, 0, 1e3, "beam mass").open_below(),
      ParameterSpec::real("m", G::Physics, "kg", 8e-4, 0, 1e3, "slider mass").open_below(),
      ParameterSpec::real("J_rel", G::Physics, "-", 0.006, 0, 1, "slider rotary inertia J_yy / (m l^2)")
          .open_below(),
      ParameterSpec::real("b1_rel", G::Physics, "-", 1.0 / 6.0, 0, 1,
                          "axial distance between the slider's left and right contact corners, b1 / l")
          .open_below(),
      ParameterSpec::real("d_rel", G::Physics, "-", 0.0067, -1, 1, "hole centre above the slider CoM, d / l"),
      ParameterSpec::real("g", G::Physics, "m/s^2", 9.81, 0, 1e3, "gravity"),
      ParameterSpec::real("modes", G::Physics, "-", 5, 1, 8, "number of beam modes N_mod").integer(),
      ParameterSpec::choice("base_load", G::Physics, {"on", "off"}, "on",
                            "modal base-excitation load -gamma_n w0'' of a base-excited beam. on (default): the paper's "
                            "Eq. (1), the physics; off: its Eq. (6) as printed, which its published results follow "
                            "(the examples reproducing its figures set off; docs/models/beam_slider.md)"),
      ParameterSpec::real("x_C0", G::Initial, "-", 0.6, 0, 1,
                          "initial slider location x_C(0) / l (held there by the surrogate)"),
      ParameterSpec::real("steps_per_mode", G::Numerics, "-", 5, 1, 1000,
                          "time steps per period of the highest beam mode (dt = T_ex / ceil(...))"),
      ParameterSpec::choice("kinematics", G::Numerics, {"exact", "simplified"}, "exact",
                            "contact kinematics: exact projection (paper Appendix C), or the simplified cross-check "
                            "(vertical projection, unnormalised surface offset)"),
      ParameterSpec::choice("contact_solver", G::Numerics, {"gs_prox"}, "gs_prox",
                            "local contact solver: proximal-point Gauss-Seidel"),
      ParameterSpec::real("solver_rtol", G::Numerics, "-", 1e-5, 0, 1, "contact solver relative tolerance"),
      ParameterSpec::real("solver_atol", G::Numerics, "N s", 5e-13, 0, 1, "contact solver absolute tolerance")
          .open_below(),
      ParameterSpec::real("solver_max_sweeps", G::Numerics, "-", 5000, 1, 1e7,
                          "contact solver sweep cap (a step reaching it counts as not converged)").integer(),
  };
}
}  // namespace

const std::vector<ParameterSpec>& beam_slider_parameter_specs() {
  static const std::vector<ParameterSpec> specs = make_specs();
  return specs;
}

BeamSliderConstants BeamSliderConstants::from(const ParameterSet& p) {
  BeamSliderConstants c{};
  c.length = p.get("l");
  c.beam_mass = p.get("m_B");
  const double area = c.beam_mass / (p.get("rho") * c.length);
  const double h_b = p.get("h_b");
  c.EI = p.get("E") * area * h_b * h_b / 12.0;
  c.half_thickness = p.get("r");
  c.damping = p.get("damping");
  c.modes = static_cast<int>(p.get("modes"));
  c.base_load = p.choice("base_load") == "on";
  c.mass = p.get("m");
  c.inertia = p.get("J_rel") * c.mass * c.length * c.length;
  c.corner_spacing = p.get("b1_rel") * c.length;
  c.hole_height = p.get("clearance_ratio") * 2.0 * c.half_thickness;
  c.hole_offset = p.get("d_rel") * c.length;
  c.g = p.get("g");
  c.mu = p.get("mu");
  c.eps_n = p.get("eps_n");
  c.eps_t = p.get("eps_t");
  c.frequency = p.get("f");
  c.w0_hat = p.get("w0_hat");
  c.am_depth = p.get("am_depth");
  c.am_frequency = p.get("am_f");
  const std::string& variant = p.choice("variant");
  c.variant = variant == "reference" ? Variant::Reference : variant == "surrogate" ? Variant::Surrogate
                                                                                   : Variant::Adaptive;
  c.x_start = (c.variant == Variant::Reference ? 0.5 : p.get("x_C0")) * c.length;
  c.steps_per_mode = p.get("steps_per_mode");
  c.kinematics = p.choice("kinematics") == "simplified" ? ContactKinematics::Simplified : ContactKinematics::Exact;
  c.solver.kind = timestepping::prox_solver_from_name(p.choice("contact_solver"));
  c.solver.rtol = p.get("solver_rtol");
  c.solver.atol = p.get("solver_atol");
  c.solver.max_iterations = static_cast<int>(p.get("solver_max_sweeps"));
  return c;
}

void validate_beam_slider(const ParameterSet& p) {
  const double half_b1 = 0.5 * p.get("b1_rel");
  const double x = p.get("x_C0");
  if (p.choice("variant") != "reference" && (x < half_b1 || x > 1.0 - half_b1)) {
    std::ostringstream msg;
    msg << "x_C0 = " << x << " puts a slider corner off the beam: accepted range [" << half_b1 << ", "
        << 1.0 - half_b1 << "] (b1_rel / 2 to 1 - b1_rel / 2)";
    throw InputError(msg.str());
  }
}

}  // namespace vibro::beam_slider
