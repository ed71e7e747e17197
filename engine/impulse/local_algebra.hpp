#pragma once
// Small local (contact-space) vectors and matrices of the impulse-domain solvers. Ordering of a
// k-contact problem: (n_0 .. n_{k-1}, t_0 .. t_{k-1}), normal components first. The fixed upper
// bound keeps every solve on the stack.
#include <Eigen/Core>

namespace vibro::impulse {

inline constexpr int kMaxContacts = 4;
using LocalVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2 * kMaxContacts, 1>;
using LocalMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 2 * kMaxContacts, 2 * kMaxContacts>;

// Number of contacts of a local vector / Delassus matrix.
inline int contact_count(const LocalVector& u) { return static_cast<int>(u.size()) / 2; }

}  // namespace vibro::impulse
