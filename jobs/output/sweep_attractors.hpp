#pragma once
// Attractor labels of a finished sweep (analysis/attractor_labels) with its parameter points: the
// cases that share every axis value except those of [initial] keys form one parameter point, and the
// label over the initial-condition axes is its basin map. Labelled one parameter point at a time, so
// memory holds one point's orbits, not the sweep's.
#include <cstdint>
#include <string>
#include <vector>

#include "jobs/sweep/case_store.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

struct SweepAttractors {
  std::vector<std::int32_t> label;        // per case; -1: no steady state
  std::vector<std::string> initial_axes;  // the axes that vary within a parameter point
};

// Needs the stroboscopic windows (output.strobe_points = window); empty labels otherwise.
SweepAttractors label_sweep_attractors(const SweepSpec& spec, CaseStore& cases);

}  // namespace vibro
