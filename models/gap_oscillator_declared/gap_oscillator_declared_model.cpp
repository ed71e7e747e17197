// Model A (the two-body gap oscillator of models/two_body, rigid impacts with Newton restitution
// between the bodies) written against the hybrid-model API: a main body on a grounded spring and
// damper under a harmonic force, an attached body on a spring and damper, a gap D between them that
// closes when x1 reaches x2 = D + u2. It takes the built-in gap_oscillator's parameters (so one sweep
// file runs on both) except the compliant laws; tests/hybrid_model/test_gap_oscillator_declared.cpp
// holds it equal to the built-in model.
#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/hybrid_model.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"

// The registered name. A project that builds this file into a plugin for a vibro that has the model
// built in gives it another (-DVIBRO_MODEL_NAME="..."), as tests/plugins/test_out_of_tree.py does.
#ifndef VIBRO_MODEL_NAME
#define VIBRO_MODEL_NAME "gap_oscillator_declared"
#endif

namespace vibro::gap_oscillator_declared {

namespace {
// The built-in model's physical and initial parameters, without its compliant impact laws (the
// adapter appends its own numerics).
std::vector<ParameterSpec> rigid_gap_parameters() {
  static const std::set<std::string> compliant{"law", "k0", "E1", "E2", "nu1", "nu2", "R1", "R2"};
  std::vector<ParameterSpec> specs;
  for (const auto& s : two_body::gap_oscillator_parameter_specs())
    if (s.group != ParameterGroup::Numerics && !compliant.count(s.name)) specs.push_back(s);
  return specs;
}
}  // namespace

class GapOscillatorDeclaredModel final : public HybridModel<4> {
 public:
  GapOscillatorDeclaredModel()
      : HybridModel<4>({VIBRO_MODEL_NAME,
                        "2-DOF oscillator with a gap between main and attached body, rigid impacts with restitution "
                        "(Model A through the hybrid-model API)",
                        {{"x1", "m"}, {"v1", "m/s"}, {"u2", "m"}, {"v2", "m/s"}},
                        rigid_gap_parameters(),
                        {{WindowStat::HalfPeakToPeak, "x1"},
                         {WindowStat::HalfPeakToPeak, "u2"},
                         {WindowStat::Maximum, "x1"},
                         {WindowStat::Minimum, "x1"},
                         {WindowStat::ImpactsPerPeriod, ""},
                         {WindowStat::ImpactSpeed, ""}}}) {}

  HybridDescription<4> describe(const ParameterSet& p) const override {
    const double m1 = p.get("m1"), m2 = p.get("m2"), w1 = p.get("omega1"), w2 = p.get("omega2");
    const double k1 = m1 * w1 * w1, k2 = m2 * w2 * w2, c1 = 2 * p.get("xi1") * m1 * w1, c2 = 2 * p.get("xi2") * m2 * w2;
    const double D = p.get("D"), omega = p.get("omega");
    // F = lambda F0 cos(omega t + phase) in terms of the adapter's cos(omega t), sin(omega t).
    const double Fc = p.get("lambda") * p.get("F0") * std::cos(p.get("phase"));
    const double Fs = -p.get("lambda") * p.get("F0") * std::sin(p.get("phase"));
    HybridDescription<4> d;
    d.period = 2 * M_PI / omega;
    d.initial << p.get("x1_0"), p.get("v1_0"), p.get("u2_0"), p.get("v2_0");
    const double length = D > 0 ? D : 1.0;
    d.scales = {length, length * omega, length, length * omega};
    const int free = d.mode("free", [=](const auto& x, const auto& drive, auto& dx) {
      const auto coupling = c2 * (x[1] - x[3]) + k2 * (x[0] - x[2]);  // spring k2 (x1 - x2 + D), damper c2
      dx[0] = x[1];
      dx[1] = (Fc * drive.cos + Fs * drive.sin - c1 * x[1] - k1 * x[0] - coupling) / m1;
      dx[2] = x[3];
      dx[3] = coupling / m2;
    });
    GapLaw gap;  // x2 - x1 = u2 + D - x1 >= 0; the impulse divides by the masses
    gap.terms = {{0, 1, -1.0, m1}, {2, 3, 1.0, m2}};
    gap.b = D;
    gap.restitution = p.get("e");
    d.gap(free, "gap", gap);
    return d;
  }

  void validate(const ParameterSet& p) const override {
    if (p.get("x1_0") > p.get("D") + p.get("u2_0"))
      throw InputError("x1_0 lies beyond the attached body (accepted range: x1_0 <= D + u2_0)");
  }
};

static RegisterModel<GapOscillatorDeclaredModel> registration;

}  // namespace vibro::gap_oscillator_declared
