#pragma once
// How a described system's samples are read (StrobeLayout): the section's names, units and scales,
// the drift coordinate, the adapter's counters and the counted stops', the declared and resting modes.
// One function for the CPU simulation and the batched kernel, so that both write the same file.
#include <cstddef>
#include <string>
#include <utility>

#include "engine/core/strobe_sample.hpp"
#include "engine/hybrid_model/hybrid_description.hpp"
#include "engine/hybrid_model/hybrid_frame.hpp"

namespace vibro {

template <int N>
StrobeLayout described_layout(const HybridDescription<N>& description, const HybridFrame& frame) {
  StrobeLayout layout;
  layout.period = description.period;
  layout.counter_names = hybrid_counter_names();
  layout.counter_meanings = hybrid_counter_meanings();
  for (auto& name : description.stop_counter_names()) {
    layout.counter_meanings.push_back("impacts on the stop or gap " + name.substr(std::string("impacts_").size()) +
                                      " (declared counted)");
    layout.counter_names.push_back(std::move(name));
  }
  const auto unit = [&](int c) { return static_cast<std::size_t>(c) < frame.units.size() ? frame.units[static_cast<std::size_t>(c)] : "-"; };
  for (const int c : frame.strobe_components()) {
    layout.state_names.push_back(frame.names[static_cast<std::size_t>(c)]);
    layout.state_units.push_back(unit(c));
    layout.state_scales.push_back(description.scales[static_cast<std::size_t>(c)]);
  }
  if (frame.drift_component >= 0) {
    layout.drift_scale = description.scales[static_cast<std::size_t>(frame.drift_component)] / description.period;
    layout.drift_unit = unit(frame.drift_component);
    layout.drift_meaning = "state component " + frame.names[static_cast<std::size_t>(frame.drift_component)];
  }
  for (const auto& m : description.modes()) {
    layout.mode_names.push_back(m.name);
    layout.mode_meanings.push_back("the model's declared mode '" + m.name + "' (its own vector field)");
  }
  // Every guard has a resting mode so that mode numbers follow the guards' order; one that can never
  // hold the state at rest says so rather than promise a mode no case enters.
  for (const auto& g : description.guards()) {
    layout.mode_names.push_back("resting on " + g.name);
    const bool can_rest = g.is_stop ? g.gap.sticks : g.change.rest_velocity >= 0;
    layout.mode_meanings.push_back(can_rest ? (g.is_stop ? "at rest against the stop '" + g.name + "' (chatter ended, sticking)"
                                                         : "at rest on the switching surface '" + g.name + "' (sliding along it, sticking)")
                                            : "never entered: '" + g.name + "' holds no state at rest (" +
                                                  (g.is_stop ? "a stop without sticking" : g.change.impact ? "an impact without sticking" : "a switch without a rest") +
                                                  "); numbered only to keep the modes in the guards' order");
  }
  return layout;
}

}  // namespace vibro
