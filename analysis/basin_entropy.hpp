#pragma once
// Basin entropy of Daza, Wagemakers, Georgeot, Guery-Odelin and Sanjuan, "Basin entropy: a new tool to
// analyze uncertainty in dynamical systems", Scientific Reports 6, 31416 (2016): a grid of initial
// conditions, each cell holding the outcome it reached, is split into boxes of box x box cells (box
// cells along a 1-D grid; trailing cells that fill no whole box are left out). Each box has the Gibbs
// entropy S_i = -sum_j p_ij ln p_ij of its outcomes; S_b is the mean over all boxes, S_bb the mean
// over the boxes with more than one outcome (0 when there are none). S_bb > ln 2 is a sufficient
// condition for a fractal basin boundary.
#include <vector>

namespace vibro {

struct BasinEntropy {
  double entropy = 0;           // S_b (NaN when the grid holds no whole box)
  double boundary_entropy = 0;  // S_bb
  long long boxes = 0;
  long long boundary_boxes = 0;
};

// outcome: rows x columns cells in C order (row-major; rows = 1 for a 1-D grid); any integer codes,
// equal codes being the same outcome.
BasinEntropy basin_entropy(const std::vector<int>& outcome, long long rows, long long columns, int box);

// Entropies of several grids (e.g. the slices of a grid with more than two initial-condition axes)
// pooled: every box of every grid counts once.
BasinEntropy pooled_basin_entropy(const std::vector<BasinEntropy>& parts);

// The basin entropy of a grid of any number of axes (C order over dims, the first slowest): the
// first two axes are the map (one axis: a 1-D strip), every combination of the further axes one map
// of its own, their boxes pooled. No axis at all: one cell, no whole box.
BasinEntropy grid_basin_entropy(const std::vector<int>& outcome, const std::vector<long long>& dims, int box);

}  // namespace vibro
