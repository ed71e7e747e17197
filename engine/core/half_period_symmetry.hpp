#pragma once
// A forced system whose equations are unchanged by S: (x, t) -> (R x, t + T/2), R a linear involution
// of the state (R R = I, e.g. a sign per coordinate) with a matching permutation of the modes: the
// forcing changes sign over half a period and the rest of the system is odd (Den Hartog's dry-friction
// oscillator, a symmetric impact pair, a Duffing oscillator). A symmetric periodic orbit,
// x(t + T/2) = R x(t), is a fixed point of the half-period map followed by the mirror, G = S o P_{T/2}:
// shooting solves G(x) = x there (analysis/symmetric_shooting), which stays well posed where the
// full-period map P = G o G has a multiplier near +1 in the direction that breaks the symmetry (G's is
// near -1 there).
//
// An optional part of the model interface: a Simulation offers it by also deriving from HalfPeriodMap,
// which the engine asks for by dynamic_cast; a model of the hybrid-model API declares the symmetry by
// overriding HybridModel::half_period_symmetry and the adapter does the rest.
#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

// What a model declares: R over the section's state components (the layout's, in its order; the model's
// state without its drift coordinate), and the pairs of modes S exchanges, by their names in the
// layout (StrobeLayout::mode_names; a mode named in no pair is its own mirror image).
struct HalfPeriodSymmetry {
  Eigen::MatrixXd reflection;
  std::vector<std::pair<std::string, std::string>> swapped_modes;

  // R = diag(signs).
  static HalfPeriodSymmetry with_signs(const std::vector<double>& signs);
  HalfPeriodSymmetry& swap_modes(std::string a, std::string b);
};

// The symmetry resolved against a layout: what the engine applies.
struct StateMirror {
  Eigen::MatrixXd reflection;   // R
  std::vector<int> mode_image;  // mode i -> mode_image[i]
  // The sample with its state R x and its mode's image; time, counters and the rest kept.
  StrobeSample apply(const StrobeSample& sample) const;
};

// Checks a declaration against the layout of the model's simulation: R square over the layout's state
// components, finite, an involution (R R = I to 1e-12); each swapped mode a mode of the layout, in one
// pair at most. Throws InputError naming the model, what is wrong and what is accepted.
StateMirror resolve_mirror(const HalfPeriodSymmetry& symmetry, const StrobeLayout& layout, const std::string& model);

// What a Simulation offers when its case has the symmetry (derive from it next to Simulation).
class HalfPeriodMap {
 public:
  // The case's mirror, or nullptr where these parameter values break the symmetry (or none is declared).
  virtual const StateMirror* half_period_mirror() const = 0;
  // The flow over `periods` half periods from the state and mode of `from` at its section time
  // t = k T (from.period = k), with the Jacobian of the end state with respect to the start's section
  // components (variational equations and saltation matrices, as Simulation::stroboscopic_map), the
  // impacts and mode changes on the way. The image is not mirrored; its period and time are from's.
  // False where Simulation::stroboscopic_map would be.
  virtual bool half_period_map(const StrobeSample& from, int periods, MapStep& step) = 0;

 protected:
  ~HalfPeriodMap() = default;
};

// The simulation's half-period map and mirror, or nullptr when it offers none or its case is not
// symmetric.
HalfPeriodMap* symmetric_half_period_map(Simulation& simulation);

}  // namespace vibro
