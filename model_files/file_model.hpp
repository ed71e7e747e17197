#pragma once
// The Model a model file describes: a HybridModel<N> whose describe() evaluates the file's
// expressions for the case (case_expression.hpp) into the same HybridDescription a C++ model builds,
// its fields running the compiled programs on whatever scalar type the engine asks for (doubles,
// jets for Floquet multipliers and shooting, the tape recorder for the batched and CUDA back ends).
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "analysis/hybrid_model.hpp"
#include "model_files/case_expression.hpp"
#include "model_files/mode_program.hpp"
#include "model_files/model_file_spec.hpp"
#include "model_files/run_program.hpp"

namespace vibro::model_file {

// A mode's vector field: component i is programs[i]; on doubles, the same operations as `fused`.
template <int N>
struct ProgramField {
  std::shared_ptr<const std::array<Program, N>> programs;
  std::shared_ptr<const ModeProgram> fused;
  template <class X, class D, class DX>
  void operator()(const X& x, const D& drive, DX& dx) const {
    using T = typename DX::Scalar;
    if constexpr (std::is_same_v<T, double>) {
      if (fused->usable) {
        run_mode(*fused, x, drive.cos, drive.sin, dx);
        return;
      }
    }
    for (int i = 0; i < N; ++i) dx[i] = run_program<T>((*programs)[static_cast<std::size_t>(i)], x, drive);
  }
};

// What does not depend on N: the model's declaration, a case's values, its guards' laws.
HybridModelInfo info_of(const ModelFileSpec& spec);
CaseValues case_values(const ModelFileSpec& spec, const ParameterSet& values);
GapLaw stop_law(const ModelFileSpec& spec, const GuardDecl& guard, const CaseValues& c);
// A switch's `reset STATE = EXPR` as coefficients (no forcing terms: refused naming the place).
AffineCoefficients reset_coefficients(const ModelFileSpec& spec, const GuardDecl& guard, int state, const Expr& value,
                                      const CaseValues& c);
// A stop's restitution in [0, 1] for the case (refused naming the place otherwise).
void check_restitution(const ModelFileSpec& spec, const GuardDecl& g, const CaseValues& c);
// A state's `scale` (its tolerance unit on the section; default 1), refused naming the place unless positive.
double state_scale(const ModelFileSpec& spec, int state, const CaseValues& c);
int initial_mode(const ModelFileSpec& spec, const CaseValues& c);
// The file's `symmetry` lines as the engine takes them (HalfPeriodSymmetry); none without.
std::optional<HalfPeriodSymmetry> half_period_symmetry_of(const ModelFileSpec& spec);
// The first `require` that fails for the case, as FILE:LINE:COL: MESSAGE (required: ...); empty when all hold.
std::string failed_requirement(const ModelFileSpec& spec, const CaseValues& c);
// The file's `require` lines and its stops against the case's initial state (at t = 0, its initial
// mode), as a C++ model's validate() checks them: throws InputError naming the line.
void validate_case(const ModelFileSpec& spec, const ParameterSet& values);

template <int N>
class FileModel final : public HybridModel<N> {
 public:
  explicit FileModel(std::shared_ptr<const ModelFileSpec> spec) : HybridModel<N>(info_of(*spec)), spec_(std::move(spec)) {
    this->explain_classes(spec_->classes);
    describe(ParameterSet(&this->parameters()));  // what the defaults cannot make is refused at load
  }

  // The file's `require` lines and its stops against the case's initial state, as a C++ model's
  // validate() checks them (a sweep is refused only when no case passes).
  void validate(const ParameterSet& values) const override { validate_case(*spec_, values); }

  std::optional<HalfPeriodSymmetry> half_period_symmetry(const ParameterSet&) const override {
    return half_period_symmetry_of(*spec_);
  }

  HybridDescription<N> describe(const ParameterSet& values) const override {
    const ModelFileSpec& s = *spec_;
    const CaseValues c = case_values(s, values);
    // A case whose values fail a `require` admits no motion the file describes.
    if (std::string why = failed_requirement(s, c); !why.empty()) throw InfeasibleCase(why);
    HybridDescription<N> d;
    d.period = 2 * M_PI / c.omega;
    for (int i = 0; i < N; ++i) {
      d.initial[i] = case_value(s.states[static_cast<std::size_t>(i)].initial, c);
      d.scales[static_cast<std::size_t>(i)] = state_scale(s, i, c);
    }
    for (const auto& m : s.modes) {
      auto programs = std::make_shared<std::array<Program, N>>();
      for (int i = 0; i < N; ++i) (*programs)[static_cast<std::size_t>(i)] = compile(*m.fields[static_cast<std::size_t>(i)], c, s.file);
      std::vector<const Program*> components;
      for (const auto& p : *programs) components.push_back(&p);
      auto fused = std::make_shared<const ModeProgram>(fuse_mode(components, N));
      d.mode(m.name, ProgramField<N>{std::move(programs), std::move(fused)});
    }
    for (const auto& g : s.guards) {
      if (g.is_stop && !g.mapped_impact) {
        d.gap(g.mode, g.name, stop_law(s, g, c));
        continue;
      }
      const AffineCoefficients a = affine_coefficients(g.function, c, s.file);
      SwitchGuard<N> guard;
      for (int i = 0; i < N; ++i) guard.a[i] = a.a[static_cast<std::size_t>(i)];
      guard.a_cos = a.a_cos;
      guard.a_sin = a.a_sin;
      guard.b = a.b;
      guard.crossing = g.crossing;
      guard.target = g.target;
      if (g.is_stop) {  // an impact whose law is a reset map: the engine's impact switch into its own mode
        check_restitution(s, g, c);
        guard.crossing = Crossing::Falling;
        guard.target = g.mode;
        guard.impact = true;
        guard.counted = g.counted;
      }
      if (g.map) {
        guard.map = d.reset_map(reset_map(s, g, c));
      } else {
        for (const auto& [state, value] : g.resets) {
          const AffineCoefficients r = reset_coefficients(s, g, state, value, c);
          for (int i = 0; i < N; ++i) guard.jump(state, i) = r.a[static_cast<std::size_t>(i)];
          guard.shift[state] = r.b;
        }
      }
      guard.rest_velocity = g.rests ? g.velocity : -1;
      d.switch_guard(g.mode, g.name, guard);
    }
    d.initial_mode = initial_mode(s, c);
    return d;
  }

 private:
  // A guard's reset lines as one map of the whole state (states not named keep their value), run as a
  // field is: one program per component, fused on doubles; jets give its Jacobian.
  static ProgramField<N> reset_map(const ModelFileSpec& s, const GuardDecl& g, const CaseValues& c) {
    auto programs = std::make_shared<std::array<Program, N>>();
    for (int i = 0; i < N; ++i) (*programs)[static_cast<std::size_t>(i)] = compile(reset_value(s, g, i), c, s.file);
    std::vector<const Program*> components;
    for (const auto& p : *programs) components.push_back(&p);
    auto fused = std::make_shared<const ModeProgram>(fuse_mode(components, N));
    return ProgramField<N>{std::move(programs), std::move(fused)};
  }
  std::shared_ptr<const ModelFileSpec> spec_;
};

// The model of `spec`, a FileModel<number of states>.
std::unique_ptr<Model> make_file_model(std::shared_ptr<const ModelFileSpec> spec);

}  // namespace vibro::model_file
