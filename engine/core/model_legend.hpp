#pragma once
// What the codes and names a model writes into a result file mean: its class codes, and the units
// and meanings of its stroboscopic state components, modes and event counters. The HDF5 writer puts
// them next to the data (/legend, dataset attributes) and `vibro describe` prints them, so a file
// explains itself without the model's source.
#include <string>
#include <vector>

namespace vibro {

// One class code and its meaning. `code` may be a pattern: "<k>" (or any lower-case name in angle
// brackets) stands for a positive integer, "[~]" for an optional "~" (the orbit converged slowly,
// periodicity 1); everything else is literal. E.g. "H<k>[~]" covers "H1", "H3~".
struct ClassCode {
  std::string code;
  std::string meaning;
};

// The codes every steady-state reading shares: "Q" (quasi-periodic) and "X" (no steady state found).
ClassCode quasi_periodic_class();
ClassCode not_converged_class();

}  // namespace vibro
