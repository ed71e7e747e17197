#pragma once
// Attractor labels of a finished sweep (analysis/attractor_labels) with its parameter points: the
// cases that share every axis value except those of [initial] keys form one parameter point, and the
// label over the initial-condition axes is its basin map.
#include <string>
#include <vector>

#include "analysis/attractor_labels.hpp"
#include "jobs/sweep/sweep_runner.hpp"

namespace vibro {

struct SweepAttractors {
  AttractorLabels labels;
  std::vector<long long> group;            // parameter point of each case
  std::vector<std::string> initial_axes;   // the axes that vary within a parameter point
};

// Needs the stroboscopic windows (output.strobe_points = window); empty labels otherwise.
SweepAttractors label_sweep_attractors(const SweepSpec& spec, const SweepRun& run);

}  // namespace vibro
