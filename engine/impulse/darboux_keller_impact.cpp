#include "engine/impulse/darboux_keller_impact.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "engine/core/model.hpp"
#include "engine/impulse/weighted_min_norm.hpp"

namespace vibro::impulse {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double sign_of(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

// A set of contact indices on the stack: the solver builds several per primary-impulse step.
struct ContactList {
  int at[kMaxContacts] = {};
  int size = 0;
  void push(int j) { at[size++] = j; }
  void erase(int position) {
    std::copy(at + position + 1, at + size, at + position);
    --size;
  }
  bool empty() const { return size == 0; }
  const int* begin() const { return at; }
  const int* end() const { return at + size; }
};

class ImpactIntegrator {
 public:
  ImpactIntegrator(const LocalMatrix& W, const LocalVector& u, const std::vector<ImpactContactLaw>& laws,
                   const ImpactSettings& settings)
      : W_(W), laws_(laws), settings_(settings), n_(contact_count(u)), u_(u),
        P_(LocalVector::Zero(u.size())), E_(static_cast<std::size_t>(n_), 0.0),
        state_(static_cast<std::size_t>(n_), TangentState::Slip), sigma_(static_cast<std::size_t>(n_), 0.0) {
    scale_ = u.head(n_).cwiseAbs().maxCoeff() + u.tail(n_).cwiseAbs().maxCoeff();
    zero_tol_ = 1e-13 * scale_;
    // A stuck set that is nearly superstatic is solved in the least-squares sense: the slip it
    // leaves is corrected at the next increment and does not count as breaking the stick.
    stick_tol_ = 1e-6 * scale_;
  }

  ImpactResult run() {
    ImpactResult result;
    int first = 0;
    u_.head(n_).minCoeff(&first);
    if (scale_ > 0 && u_(first) < -zero_tol_) {
      dP_ = -u_(first) / (W_(first, first) * settings_.steps);
      const long cap = 1000L * settings_.steps + 100;
      while (true) {
        normalise_tangent_states();
        const ContactList active = active_contacts();
        if (active.empty()) break;
        if (++iterations_ > cap) throw CaseFailure("impulse-domain impact did not finish (runaway LZB integration)");
        if (active.size == 1 && exact_phase(active.at[0])) continue;
        lzb_step(active);
      }
    }
    normalise_tangent_states();
    if (!P_.allFinite() || !u_.allFinite()) throw CaseFailure("non-finite impulse in an impulse-domain impact");
    result.impulse = P_;
    result.velocity = u_;
    result.tangent = state_;
    result.steps = steps_;
    result.primary_switches = switches_;
    result.exact_phases = exact_phases_;
    return result;
  }

 private:
  int nrow(int j) const { return j; }
  int trow(int j) const { return n_ + j; }
  std::size_t idx(int j) const { return static_cast<std::size_t>(j); }

  // A contact is active while it stores energy or approaches.
  ContactList active_contacts() const {
    ContactList active;
    for (int j = 0; j < n_; ++j)
      if (E_[idx(j)] > 0 || u_(nrow(j)) < -zero_tol_) active.push(j);
    return active;
  }

  // Slipping contacts carry their direction; a contact at zero slip waits for the stick test
  // (sigma = 0); a stuck contact that was pushed off zero slips on.
  void normalise_tangent_states() {
    for (int j = 0; j < n_; ++j) {
      const double ut = u_(trow(j));
      const double tol = state_[idx(j)] == TangentState::Stick ? stick_tol_ : zero_tol_;
      if (std::abs(ut) > tol) {
        state_[idx(j)] = TangentState::Slip;
        sigma_[idx(j)] = sign_of(ut);
      } else if (state_[idx(j)] == TangentState::Slip && sigma_[idx(j)] != 0 && sigma_[idx(j)] * ut <= 0) {
        sigma_[idx(j)] = 0;  // reached zero slip: decide at the next increment
      }
    }
  }

  // Tangential increments for given normal increments. Slipping contacts: -mu sigma dP_n. Stuck
  // contacts and contacts at zero slip: the increments that keep their slip at zero (weighted
  // minimum norm, so a superstatic set splits in proportion to dP_n); a contact whose requirement
  // exceeds mu_static dP_n leaves the set and slips on the side of that requirement (mu_st > mu_s).
  LocalVector tangential_increments(const LocalVector& dPn) {
    LocalVector dPt = LocalVector::Zero(n_);
    ContactList hold;
    for (int j = 0; j < n_; ++j) {
      if (dPn(j) <= 0) {
        if (state_[idx(j)] == TangentState::Stick) { state_[idx(j)] = TangentState::Slip; sigma_[idx(j)] = 0; }
        continue;
      }
      if (state_[idx(j)] == TangentState::Stick || sigma_[idx(j)] == 0)
        hold.push(j);
      else
        dPt(j) = -laws_[idx(j)].mu_slip * sigma_[idx(j)] * dPn(j);
    }
    while (!hold.empty()) {
      const int k = hold.size;
      LocalMatrix A(k, k);
      LocalVector b(k), w(k);
      for (int a = 0; a < k; ++a) {
        const int row = trow(hold.at[a]);
        double pushed = 0;  // what the normal and slipping increments already do to this slip
        for (int j = 0; j < n_; ++j) pushed += W_(row, nrow(j)) * dPn(j) + W_(row, trow(j)) * dPt(j);
        b(a) = -pushed - u_(row);
        w(a) = dPn(hold.at[a]);
        for (int c = 0; c < k; ++c) A(a, c) = W_(row, trow(hold.at[c]));
      }
      // Near-superstatic sets (both dimer tips at theta ~ 0) are numerically singular: treat the
      // nearly dependent direction as undetermined, or it returns huge opposing increments.
      const LocalVector x = weighted_min_norm_solve(A, w, b, 1e-7);
      int worst = -1;
      double worst_ratio = 1.0;
      for (int a = 0; a < k; ++a) {
        const int j = hold.at[a];
        const double ratio = std::abs(x(a)) / (laws_[idx(j)].mu_static * dPn(j));
        if (ratio > worst_ratio * (1 + 1e-12)) { worst_ratio = ratio; worst = a; }
      }
      if (worst < 0) {
        for (int a = 0; a < k; ++a) {
          const int j = hold.at[a];
          dPt(j) = x(a);
          state_[idx(j)] = TangentState::Stick;
        }
        break;
      }
      const int j = hold.at[worst];
      state_[idx(j)] = TangentState::Slip;
      sigma_[idx(j)] = -sign_of(x(worst));  // friction on the side of the sticking requirement
      dPt(j) = -laws_[idx(j)].mu_slip * sigma_[idx(j)] * dPn(j);
      hold.erase(worst);
    }
    return dPt;
  }

  // Energy stored (compression) or released (expansion, at 1/e^2) while u_n moves linearly from
  // u0 to u1 over the impulse dp.
  static double energy_change(double u0, double u1, double dp, double e) {
    if (u0 < 0 && u1 > 0) {
      const double f = u0 / (u0 - u1);
      return -0.5 * u0 * f * dp - 0.5 * u1 * (1 - f) * dp / (e * e);
    }
    const double mean = 0.5 * (u0 + u1);
    return mean < 0 ? -mean * dp : -mean * dp / (e * e);
  }

  // One closed-form linear phase of a lone impacting contact p. Returns false (nothing done) when
  // another contact sits at zero normal velocity and would be pushed into compression: that needs
  // the distributing law.
  bool exact_phase(int p) {
    LocalVector unit = LocalVector::Zero(n_);
    unit(p) = 1.0;
    const LocalVector dPt = tangential_increments(unit);
    const double lambda = dPt(p);
    const LocalVector col = W_.col(nrow(p)) + lambda * W_.col(trow(p));
    const double a = col(nrow(p));
    if (!(a > 0)) throw CaseFailure("Painleve configuration in an impact: normal impulse does not separate contact " +
                                    std::to_string(p));
    double dp = kInf;
    enum class End { Slip, Compression, Release, Other } end = End::Release;
    int other = -1;
    const double un = u_(nrow(p)), ut = u_(trow(p));
    if (state_[idx(p)] == TangentState::Slip && ut * col(trow(p)) < 0) { dp = -ut / col(trow(p)); end = End::Slip; }
    if (un < 0) {
      const double d = -un / a;
      if (d < dp) { dp = d; end = End::Compression; }
    } else {
      const double e = laws_[idx(p)].restitution;
      const double d = (-un + std::sqrt(un * un + 2 * a * e * e * E_[idx(p)])) / a;
      if (d < dp) { dp = d; end = End::Release; }
    }
    for (int j = 0; j < n_; ++j) {
      if (j == p || col(nrow(j)) >= 0) continue;
      const double d = std::max(u_(nrow(j)), 0.0) / -col(nrow(j));
      if (d <= zero_tol_ / a) return false;
      if (d < dp) { dp = d; end = End::Other; other = j; }
    }
    const double e = laws_[idx(p)].restitution;
    const double work = un * dp + 0.5 * a * dp * dp;  // integral of u_n dP over the phase
    u_ += dp * col;
    P_(nrow(p)) += dp;
    P_(trow(p)) += lambda * dp;
    if (un < 0) E_[idx(p)] += -work;
    else E_[idx(p)] = std::max(0.0, E_[idx(p)] - work / (e * e));
    switch (end) {
      case End::Slip: u_(trow(p)) = 0; sigma_[idx(p)] = 0; break;
      case End::Compression: u_(nrow(p)) = 0; break;
      case End::Release: E_[idx(p)] = 0; break;
      case End::Other: u_(nrow(other)) = 0; break;
    }
    ++exact_phases_;
    return true;
  }

  // One step of the distributing law with the primary's impulse increment dP_.
  void lzb_step(const ContactList& active) {
    int p = active.at[0];
    for (int j : active)
      if (E_[idx(j)] > E_[idx(p)] || (E_[idx(p)] == 0 && E_[idx(j)] == 0 && u_(nrow(j)) < u_(nrow(p)))) p = j;
    if (primary_ >= 0 && p != primary_) ++switches_;
    primary_ = p;
    const double eta = settings_.eta;
    // Energy the primary holds; before anything is stored, what it stores in this step.
    const double Ep = E_[idx(p)] > 0 ? E_[idx(p)] : std::max(-u_(nrow(p)), zero_tol_) * dP_;
    LocalVector dPn = LocalVector::Zero(n_);
    dPn(p) = dP_;
    for (int j : active) {
      if (j == p) continue;
      const double K = laws_[idx(j)].stiffness / laws_[idx(p)].stiffness;
      if (E_[idx(j)] > 0)
        dPn(j) = dP_ * (K == 1 ? 1.0 : std::pow(K, 1 / (eta + 1))) * std::pow(E_[idx(j)] / Ep, eta / (eta + 1));
      else  // bootstrap: E_j = |u_j| dP_j in the ratio
        dPn(j) = dP_ * K * std::pow(-u_(nrow(j)) * dP_ / Ep, eta);
    }
    LocalVector dPt = tangential_increments(dPn);
    LocalVector dP(2 * n_);
    dP << dPn, dPt;
    LocalVector du(2 * n_);  // W dP, written out: Eigen's general product costs more at these sizes
    for (int r = 0; r < 2 * n_; ++r) {
      double sum = 0;
      for (int c = 0; c < 2 * n_; ++c) sum += W_(r, c) * dP(c);
      du(r) = sum;
    }
    // Split the step where a slipping contact reaches zero slip: the stick test happens there.
    // Contacts that reach zero slip within the same step count as simultaneous (at theta ~ 0 the
    // dimer's tips slip together).
    double fraction = 1.0;
    ContactList stopped;
    for (int j = 0; j < n_; ++j) {
      const double ut = u_(trow(j)), dut = du(trow(j));
      if (state_[idx(j)] == TangentState::Slip && ut * dut < 0 && -ut / dut <= 1) {
        fraction = std::min(fraction, -ut / dut);
        stopped.push(j);
      }
    }
    dP *= fraction;
    du *= fraction;
    for (int j = 0; j < n_; ++j) {
      if (dP(j) <= 0) continue;
      const double u0 = u_(nrow(j)), u1 = u0 + du(nrow(j));
      E_[idx(j)] = std::max(0.0, E_[idx(j)] + energy_change(u0, u1, dP(j), laws_[idx(j)].restitution));
    }
    u_ += du;
    P_ += dP;
    for (int j : stopped) {
      u_(trow(j)) = 0;
      sigma_[idx(j)] = 0;
    }
    ++steps_;
  }

  const LocalMatrix& W_;
  const std::vector<ImpactContactLaw>& laws_;
  const ImpactSettings& settings_;
  int n_;
  LocalVector u_, P_;
  std::vector<double> E_;
  std::vector<TangentState> state_;
  std::vector<double> sigma_;  // slip direction; 0 at zero slip awaiting the stick test
  double scale_ = 0, zero_tol_ = 0, stick_tol_ = 0, dP_ = 0;
  long iterations_ = 0;
  int steps_ = 0, switches_ = 0, exact_phases_ = 0, primary_ = -1;
};

}  // namespace

ImpactResult resolve_impact(const LocalMatrix& W, const LocalVector& u, const std::vector<ImpactContactLaw>& laws,
                            const ImpactSettings& settings) {
  return ImpactIntegrator(W, u, laws, settings).run();
}

}  // namespace vibro::impulse
