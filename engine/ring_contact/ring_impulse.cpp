#include "engine/ring_contact/ring_impulse.hpp"

#include <cmath>
#include <stdexcept>

namespace vibro {

double RingImpulse::pair(const RingPair& p, double e, Eigen::VectorXd& v) const {
  const double rate = v[p.b] - v[p.a];
  const double w = minv_(p.a, p.a) + minv_(p.b, p.b) - 2 * minv_(p.a, p.b);  // G M^-1 G^T
  const double lambda = -(1 + e) * rate / w;
  v += lambda * (minv_.col(p.b) - minv_.col(p.a));
  return lambda;
}

int RingImpulse::sweep(const std::vector<RingPair>& pairs, const std::vector<bool>& touching, int first, double e,
                       double v_tol, Eigen::VectorXd& v, int cap) const {
  const int n = static_cast<int>(pairs.size());
  auto rate = [&](int k) { return v[pairs[static_cast<std::size_t>(k)].b] - v[pairs[static_cast<std::size_t>(k)].a]; };
  // The receiving train lies on the side of the slower of the two initiating masses.
  const RingPair& p0 = pairs[static_cast<std::size_t>(first)];
  const int away = std::fabs(v[p0.b]) <= std::fabs(v[p0.a]) ? +1 : -1;
  // The visiting order: the initiating contact, the touching contacts beyond it on the receiving
  // side, then those on the incoming side (each run stops at the first open contact).
  std::vector<int> order{first};
  for (const int direction : {away, -away}) {
    for (int step = 1; step < n; ++step) {
      const int k = ((first + direction * step) % n + n) % n;
      if (k == first || !touching[static_cast<std::size_t>(k)]) break;
      bool seen = false;
      for (const int o : order) seen = seen || o == k;
      if (seen) break;  // a closed ring: each contact once
      order.push_back(k);
    }
  }
  int impacts = 0;
  for (bool any = true; any;) {
    any = false;
    for (const int k : order) {
      if (rate(k) < -v_tol) {
        pair(pairs[static_cast<std::size_t>(k)], e, v);
        any = true;
        if (++impacts > cap) throw std::runtime_error("ring impact sweep exceeded its cap of pair impacts");
      }
    }
  }
  return impacts;
}

std::vector<int> RingImpulse::close_plastic(const std::vector<RingPair>& pairs, const std::vector<bool>& touching,
                                            double v_stick, Eigen::VectorXd& v) const {
  std::vector<int> closed;
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (touching[k] && std::fabs(v[pairs[k].b] - v[pairs[k].a]) <= v_stick) closed.push_back(static_cast<int>(k));
  if (closed.empty()) return closed;
  // Gauss-Seidel on a chain of plastic contacts converges geometrically; the scale is the largest speed.
  const double scale = std::max(1.0, v.cwiseAbs().maxCoeff());
  for (int pass = 0; pass < 200; ++pass) {
    double worst = 0;
    for (const int k : closed) {
      const RingPair& p = pairs[static_cast<std::size_t>(k)];
      worst = std::max(worst, std::fabs(v[p.b] - v[p.a]));
      pair(p, 0.0, v);
    }
    if (worst <= 1e-15 * scale) break;
  }
  return closed;
}

}  // namespace vibro
