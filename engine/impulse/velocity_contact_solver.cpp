#include "engine/impulse/velocity_contact_solver.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>

#include "engine/core/model.hpp"

namespace vibro::impulse {

namespace {

constexpr std::array<ContactStatus, 4> kStatuses = {ContactStatus::Open, ContactStatus::Stick,
                                                    ContactStatus::SlipPositive, ContactStatus::SlipNegative};

double slip_sign(ContactStatus s) { return s == ContactStatus::SlipPositive ? 1.0 : -1.0; }
bool is_slip(ContactStatus s) { return s == ContactStatus::SlipPositive || s == ContactStatus::SlipNegative; }

// 0 = the preferred status, larger = less preferred (see the header).
int preference(ContactStatus s, int preferred_slip) {
  switch (s) {
    case ContactStatus::Open: return 0;
    case ContactStatus::Stick: return preferred_slip == 0 ? 0 : 1;
    default:
      if (preferred_slip == 0) return 1;
      return slip_sign(s) == preferred_slip ? 0 : 2;
  }
}

// Solves one status set; returns false if the set is inconsistent.
bool try_statuses(const LocalMatrix& W, const LocalVector& u_free, const std::vector<VelocityContactLaw>& laws,
                  const std::vector<ContactStatus>& status, double tol_u, double tol_p, LocalVector& P,
                  LocalVector& u) {
  const int n = contact_count(u_free);
  // Unknowns: P_n of closed contacts, then P_t of stuck ones; equations: their normal / tangential rows.
  std::array<int, 2 * kMaxContacts> row{};  // local row of each unknown (and of its equation)
  int k = 0;
  for (int j = 0; j < n; ++j)
    if (status[static_cast<std::size_t>(j)] != ContactStatus::Open) row[static_cast<std::size_t>(k++)] = j;
  const int closed = k;
  for (int j = 0; j < n; ++j)
    if (status[static_cast<std::size_t>(j)] == ContactStatus::Stick) row[static_cast<std::size_t>(k++)] = n + j;
  P = LocalVector::Zero(2 * n);
  if (k > 0) {
    // Column of unknown c: the local velocity change per unit unknown (slip friction folded in).
    LocalMatrix columns(2 * n, k);
    for (int c = 0; c < k; ++c) {
      const int r = row[static_cast<std::size_t>(c)];
      columns.col(c) = W.col(r);
      if (c < closed && is_slip(status[static_cast<std::size_t>(r)])) {
        const auto& law = laws[static_cast<std::size_t>(r)];
        columns.col(c) -= law.mu_slip * slip_sign(status[static_cast<std::size_t>(r)]) * W.col(n + r);
      }
    }
    LocalMatrix A(k, k);
    LocalVector b(k);
    for (int e = 0; e < k; ++e) {
      const int r = row[static_cast<std::size_t>(e)];
      A.row(e) = columns.row(r);
      b(e) = (r < n ? laws[static_cast<std::size_t>(r)].normal_target : 0.0) - u_free(r);
    }
    Eigen::PartialPivLU<LocalMatrix> lu(A);
    if (lu.rcond() < 1e-6) {
      // Superstatic stick sets (e.g. both dimer tips stuck at theta ~ 0) are (nearly) singular: a
      // small tangential compliance picks the minimum-norm split instead of huge opposing forces.
      const double reg = 1e-6 * W.diagonal().maxCoeff();
      for (int e = closed; e < k; ++e) A(e, e) += reg;
      lu.compute(A);
    }
    const LocalVector x = lu.solve(b);
    for (int c = 0; c < k; ++c) {
      const int r = row[static_cast<std::size_t>(c)];
      P(r) += x(c);
      if (c < closed && is_slip(status[static_cast<std::size_t>(r)]))
        P(n + r) -= laws[static_cast<std::size_t>(r)].mu_slip * slip_sign(status[static_cast<std::size_t>(r)]) * x(c);
    }
  }
  u = u_free + W * P;
  if (!P.allFinite()) return false;
  for (int j = 0; j < n; ++j) {
    const auto& law = laws[static_cast<std::size_t>(j)];
    const ContactStatus s = status[static_cast<std::size_t>(j)];
    if (s == ContactStatus::Open) {
      if (u(j) < law.normal_target - tol_u) return false;
      continue;
    }
    if (P(j) < -tol_p) return false;
    if (s == ContactStatus::Stick && std::abs(P(n + j)) > law.mu_static * std::max(P(j), 0.0) + tol_p) return false;
    if (is_slip(s) && slip_sign(s) * u(n + j) < -tol_u) return false;
  }
  return true;
}

}  // namespace

VelocityContactSolution solve_velocity_contacts(const LocalMatrix& W, const LocalVector& u_free,
                                                const std::vector<VelocityContactLaw>& laws) {
  const int n = contact_count(u_free);
  int combos = 1;
  for (int j = 0; j < n; ++j) combos *= 4;
  // Status sets in order of preference (stable: enumeration order breaks ties).
  std::array<std::pair<int, int>, 256> order{};
  for (int c = 0; c < combos; ++c) {
    int score = 0;
    for (int j = 0, code = c; j < n; ++j, code /= 4)
      score += preference(kStatuses[static_cast<std::size_t>(code % 4)], laws[static_cast<std::size_t>(j)].preferred_slip);
    order[static_cast<std::size_t>(c)] = {score, c};
  }
  std::stable_sort(order.begin(), order.begin() + combos);
  double scale = 0;
  for (int j = 0; j < n; ++j)
    scale = std::max({scale, std::abs(u_free(j)), std::abs(u_free(n + j)), laws[static_cast<std::size_t>(j)].normal_target});
  const double tol_u = 1e-10 * scale + 1e-300;
  const double tol_p = tol_u / W.diagonal().maxCoeff();
  VelocityContactSolution solution;
  solution.status.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < combos; ++i) {
    for (int j = 0, code = order[static_cast<std::size_t>(i)].second; j < n; ++j, code /= 4)
      solution.status[static_cast<std::size_t>(j)] = kStatuses[static_cast<std::size_t>(code % 4)];
    if (try_statuses(W, u_free, laws, solution.status, tol_u, tol_p, solution.impulse, solution.velocity))
      return solution;
  }
  throw CaseFailure("no consistent contact status (velocity-level Signorini-Coulomb)");
}

}  // namespace vibro::impulse
