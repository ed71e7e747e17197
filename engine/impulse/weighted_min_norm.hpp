#pragma once
// The weighted minimum-norm solution of A x = b (weights w > 0): x = diag(w) A^T y with
// G y = b, G = A diag(w) A^T, solved in the least-squares sense with the rank decided as a column-
// pivoted QR decides it (a pivot counts while it exceeds rank_threshold times the largest one). The
// impulse-domain impact solver needs it once per primary-impulse step, mostly with one or two stuck
// contacts: those sizes are solved in closed form (the same rank decision and the same rank-1
// minimum-norm solution as Eigen's CompleteOrthogonalDecomposition, to round-off) because the
// general decomposition dominated the cost of every double impact.
#include "engine/impulse/local_algebra.hpp"

namespace vibro::impulse {

LocalVector weighted_min_norm_solve(const LocalMatrix& A, const LocalVector& w, const LocalVector& b,
                                    double rank_threshold);

}  // namespace vibro::impulse
