#pragma once
// Wraps a hybrid system so that the engine's integrator carries the variational equations along:
// the augmented state is (x, Phi) with Phi' = J(t, x) Phi, and at every event Phi <- S Phi with S
// the saltation matrix. Integrating one period from Phi = I gives the monodromy matrix of a hybrid
// periodic orbit, and repeated re-orthonormalisation gives Lyapunov exponents.
//
// Requirements on System, beyond the hybrid-system ones:
//   void jacobian(double t, const State& x, Matrix& J) const;
//   Matrix reset_jacobian(const EventHit& hit, const State& x_before) const;  // identity if no jump
#include <array>

#include "engine/hybrid/hybrid_integrator.hpp"
#include "engine/hybrid/saltation.hpp"

namespace vibro {

template <int N, class System>
class VariationalSystem {
 public:
  static constexpr int kSize = N + N * N;
  using State = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  using Augmented = Eigen::Matrix<double, kSize, 1>;

  explicit VariationalSystem(System& system) : system_(system) {}

  static Augmented pack(const State& x, const Matrix& phi) {
    Augmented y;
    y.template head<N>() = x;
    y.template tail<N * N>() = Eigen::Map<const Eigen::Matrix<double, N * N, 1>>(phi.data());
    return y;
  }
  static State state(const Augmented& y) { return y.template head<N>(); }
  static Matrix phi(const Augmented& y) { return Eigen::Map<const Matrix>(y.template tail<N * N>().data()); }

  void rhs(double t, const Augmented& y, Augmented& dy) const {
    const State x = state(y);
    State dx;
    system_.rhs(t, x, dx);
    Matrix J;
    system_.jacobian(t, x, J);
    dy.template head<N>() = dx;
    const Matrix dphi = J * phi(y);
    dy.template tail<N * N>() = Eigen::Map<const Eigen::Matrix<double, N * N, 1>>(dphi.data());
  }

  int guards(AffineGuard<kSize>* out) const {
    std::array<AffineGuard<N>, kMaxGuards> inner;
    const int count = system_.guards(inner.data());
    for (int g = 0; g < count; ++g) {
      const auto& s = inner[static_cast<std::size_t>(g)];
      out[g].a.setZero();
      out[g].a.template head<N>() = s.a;
      out[g].b = s.b;
      out[g].crossing = s.crossing;
      out[g].id = s.id;
      out[g].judged_at_start = s.judged_at_start;
      gradients_[static_cast<std::size_t>(s.id) % kMaxGuards] = s.a;
    }
    return count;
  }

  bool on_events(double t, Augmented& y, const EventHit* given, int count) {
    State x = state(y);
    Matrix P = phi(y);
    bool go_on = true;
    EventHit hits[kMaxGuards];
    for (int i = 0; i < count; ++i) hits[i] = given[i];
    const auto group = event_group(system_, hits, count, 0);
    for (int i = 0; i < count; ++i) {  // simultaneous events, one after the other
      if (i > 0 && !applies(system_, hits[i], x, group, 0)) continue;
      State f_minus, f_plus;
      system_.rhs(t, x, f_minus);
      const Matrix R = system_.reset_jacobian(hits[i], x);
      const State gradient = gradients_[static_cast<std::size_t>(hits[i].id) % kMaxGuards];
      go_on = system_.on_events(t, x, &hits[i], 1) && go_on;
      system_.rhs(t, x, f_plus);
      if (!hits[i].grazing) P = saltation_matrix<N>(R, f_minus, f_plus, gradient) * P;
    }
    y = pack(x, P);
    return go_on;
  }

  void observe(const DenseStep<kSize>&, double) {}

 private:
  // A system with a rule for simultaneous events (DescribedSystem::order_events, event_applies) gets
  // the same events, in the same order, as its own on_events applies; others get them in time order.
  template <class S>
  static auto event_group(S& s, EventHit* hits, int count, int) -> decltype(s.order_events(hits, count), s.mode) {
    s.order_events(hits, count);
    return s.mode;
  }
  template <class S>
  static int event_group(S&, EventHit*, int, long) { return 0; }
  template <class S, class G>
  static auto applies(const S& s, const EventHit& hit, const State& x, G group, int) -> decltype(s.event_applies(hit, x, group)) {
    return s.event_applies(hit, x, group);
  }
  template <class S, class G>
  static bool applies(const S&, const EventHit&, const State&, G, long) { return true; }

  System& system_;
  mutable std::array<State, kMaxGuards> gradients_{};
};

}  // namespace vibro
