#include "models/beam_slider/beam_slider_summary.hpp"

#include <cmath>

#include "models/beam_slider/beam_slider_simulation.hpp"

namespace vibro::beam_slider {

std::vector<ObservableSpec> beam_slider_observables() {
  return {{"x_C_mean", "-", "mean slider location over the window, x_C / l"},
          {"x_C_final", "-", "slider location at the window's last sample, x_C / l"},
          {"drift_velocity", "m/s", "mean axial slider velocity over the window (drift)"},
          {"energy_mean", "J", "mean mechanical energy (beam modal + slider kinetic: our reading of the paper's undefined term)"},
          {"rot_energy_fraction", "-", "mean rotational over mean mechanical energy of the slider motion"},
          {"axial_energy_fraction", "-", "mean axial kinetic over mean mechanical energy"},
          {"active_P1", "-", "fraction of steps with a positive normal percussion at corner P1"},
          {"active_P2", "-", "same, corner P2"},
          {"active_P3", "-", "same, corner P3"},
          {"active_P4", "-", "same, corner P4"},
          {"F_x_mean", "N", "mean axial contact force on the slider (+: pushes toward +x; the surrogate's F_x)"},
          {"max_sweeps_per_step", "-", "largest contact-solver sweep count of one step since t = 0"},
          {"unconverged_steps", "-", "steps in the window whose contact solve hit the sweep cap"}};
}

CaseSummary summarize_beam_slider(const SteadyState& steady, const StrobeLayout& layout,
                                  const BeamSliderConstants& c) {
  CaseSummary summary;
  const double nan = std::nan("");
  if (steady.window.size() < 2) {
    summary.class_code = "X";
    summary.observables.assign(beam_slider_observables().size(), nan);
    return summary;
  }
  const StrobeSample& a = steady.window.front();
  const StrobeSample& b = steady.window.back();
  const double span = b.time - a.time;
  auto mean = [&](int i) { return (b.aux[static_cast<std::size_t>(i)] - a.aux[static_cast<std::size_t>(i)]) / span; };
  const double steps = static_cast<double>(steady.counter_in_window(kSteps));
  auto fraction = [&](int counter) { return static_cast<double>(steady.counter_in_window(counter)) / steps; };
  const double x_mean = mean(kIntX) / c.length;
  const double energy = mean(kIntEnergy);
  summary.observables = {x_mean,
                         b.drift_position / c.length,
                         steady.drift_velocity(layout.period),
                         energy,
                         mean(kIntRotEnergy) / energy,
                         mean(kIntAxialEnergy) / energy,
                         fraction(kClosedP1),
                         fraction(kClosedP2),
                         fraction(kClosedP3),
                         fraction(kClosedP4),
                         mean(kImpulseX),
                         b.aux[kMaxSweeps],
                         static_cast<double>(steady.counter_in_window(kUnconverged))};
  if (c.variant == Variant::Adaptive)
    summary.class_code = std::abs(x_mean - 0.5) < 0.02 ? "C" : "O";
  else
    summary.class_code = has_period(steady.periodicity) ? "P" + std::to_string(steady.period) : "Q";
  return summary;
}

std::vector<ClassCode> beam_slider_class_legend() {
  return {{"C", "adaptive system: the slider settles at the centre of the beam (|mean x_C - l/2| < 0.02 l)"},
          {"O", "adaptive system: the slider settles off the centre"},
          {"P<k>", "fixed-slider variants: a period-k orbit"},
          {"Q", "fixed-slider variants: no period found (quasi-periodic or not converged; the periodicity column "
                "tells which)"},
          {"X", "too short a steady window to read (fewer than two samples)"}};
}

}  // namespace vibro::beam_slider
