#pragma once
// Natural continuation (steps in the parameter) cannot pass a fold: beyond it the branch has no orbit
// and the steps shrink to the minimum. Where that happens, pseudo-arclength from the last point says
// whether a fold lies just ahead, and locates it (analysis/arclength_continuation), so that the
// natural branch ends naming the fold instead of "step below the minimum".
#include <optional>
#include <string>
#include <vector>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

// The events pseudo-arclength finds from the branch's last point towards `to` up to and including a
// fold within `reach` of it (in the direction of `to`); else the fold estimated from the branch's last
// points (fold_by_extrapolation: its orbit not converged); empty when neither finds one, or while a
// FoldSearchOff lives on this thread.
std::vector<BranchEvent> fold_just_ahead(const Model& model, ParameterSet values, const std::string& parameter,
                                         const std::vector<BranchPoint>& points, double to, double reach,
                                         int periods, const ContinuationSettings& settings);

// Where no map exists up to the fold (arclength cannot round it either: e.g. an impact reaching the
// section t = k T as the fold is approached), the fold estimated from the branch's last three points:
// near a fold the real multiplier nearest +1 approaches it like the square root of the distance, so
// (mu - 1)^2 is linear in the parameter and its zero is the fold. Only when the three points say so
// (one real multiplier within 0.05 of +1 approaching it, (mu - 1)^2 on a line to 10 %, the zero ahead
// within ten last steps); the event's detail says it is estimated, its orbit is not converged.
std::optional<BranchEvent> fold_by_extrapolation(const std::vector<BranchPoint>& points, double direction);

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
