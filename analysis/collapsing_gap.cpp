#include "analysis/collapsing_gap.hpp"

namespace vibro {

// The vector forms of the tests in the header.
bool growing_gap(const std::vector<double>& gap, int h) {
  return growing_gap(gap.data(), static_cast<int>(gap.size()), h);
}

bool shrinking_gap(const std::vector<double>& gap, int h) {
  return shrinking_gap(gap.data(), static_cast<int>(gap.size()), h);
}

CollapsingGap collapsing_gap(const std::vector<double>& gap, int h) {
  return collapsing_gap(gap.data(), static_cast<int>(gap.size()), h);
}

}  // namespace vibro
