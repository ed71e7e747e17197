#pragma once
// Attractor labels of a finished sweep (analysis/attractor_labels) with its parameter points: the
// cases that share every axis value except those of [initial] keys form one parameter point, and the
// label over the initial-condition axes is its basin map. Labelled one parameter point at a time, so
// memory holds one point's orbits, not the sweep's; what is kept of each point (its attractors'
// summaries and its basin entropy) is small; points are labelled in parallel, one a thread.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/basin_entropy.hpp"
#include "analysis/point_attractors.hpp"
#include "jobs/sweep/case_store.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

// Box size (cells per side) of the basin entropy written to /basins.
inline constexpr int kBasinEntropyBox = 5;

struct SweepAttractors {
  std::vector<std::int32_t> label;          // per case; -1: no steady state
  std::vector<std::string> initial_axes;    // the axes that vary within a parameter point
  std::vector<std::size_t> parameter_axes;  // indices into spec.axes of the others, in grid order
  std::vector<PointAttractors> points;      // per parameter point, C order over parameter_axes
  std::vector<BasinEntropy> entropy;        // per parameter point; outcomes: labels, infeasible, failed
};

// What attractor labelling keeps of a case: its window and class (valid only when it ran to a steady
// state with its stroboscopic window recorded).
OrbitSummary orbit_summary(const CaseResult& c);

// Needs the stroboscopic windows (output.strobe_points = window); empty labels otherwise. Reads and
// labels on `threads` threads (the store must be thread-safe); the labels do not depend on them.
SweepAttractors label_sweep_attractors(const SweepSpec& spec, CaseStore& cases, int threads);

// The cases of parameter point `point`, in C order over the initial-condition axes: an initial
// condition has the same place in every point's list.
std::vector<long long> point_cases(const SweepSpec& spec, long long point);

// The parameter point of case `index` (C order over the parameter axes).
long long parameter_point(const SweepSpec& spec, const SweepAttractors& attractors, long long index);

}  // namespace vibro
