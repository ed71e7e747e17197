#pragma once
// The state of the two-body models: (x1, v1, x2, v2, cos wt, sin wt), the forcing carried as two
// states so that every guard is affine in the state.
#include <Eigen/Core>

namespace vibro::two_body {

using TwoBodyState = Eigen::Matrix<double, 6, 1>;

}  // namespace vibro::two_body
