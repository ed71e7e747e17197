#pragma once
// Natural continuation (steps in the parameter) cannot pass a fold: beyond it the branch has no orbit
// and the steps shrink to the minimum. Where that happens, pseudo-arclength from the last point says
// whether a fold lies just ahead, and locates it (analysis/arclength_continuation), so that the
// natural branch ends naming the fold instead of "step below the minimum".
#include <string>
#include <vector>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

// The events pseudo-arclength finds from `last` towards `to` up to and including a fold within
// `reach` of last.parameter (in the direction of `to`); empty when it finds no fold there, or while a
// FoldSearchOff lives on this thread.
std::vector<BranchEvent> fold_just_ahead(const Model& model, ParameterSet values, const std::string& parameter,
                                         const BranchPoint& last, double to, double reach, int periods,
                                         const ContinuationSettings& settings);

// While it lives, fold_just_ahead finds nothing on this thread: arclength continuation hops over a jump
// of the section state by natural steps, and a fold there is arclength's own to locate (and the search
// itself runs arclength, whose hops must not search again).
class FoldSearchOff {
 public:
  FoldSearchOff();
  ~FoldSearchOff();
  FoldSearchOff(const FoldSearchOff&) = delete;
  FoldSearchOff& operator=(const FoldSearchOff&) = delete;

 private:
  bool was_;
};

}  // namespace vibro
