#pragma once
// A closed interval [lo, hi] of reals with the arithmetic needed to enclose a smooth function over a
// box of arguments (each result contains every value the operation takes on the operand boxes).
// Rounding is to nearest, not outward: an enclosure holds to rounding, and callers that compare
// against zero keep a margin of a few ulps of the terms (interval_linear_enclosure does).
#include <algorithm>
#include <cmath>

namespace vibro {

struct Interval {
  double lo = 0, hi = 0;
  Interval() = default;
  Interval(double value) : lo(value), hi(value) {}  // NOLINT: a point is an interval
  Interval(double low, double high) : lo(low), hi(high) {}
  double mid() const { return 0.5 * (lo + hi); }
  double rad() const { return 0.5 * (hi - lo); }
  double mag() const { return std::max(std::fabs(lo), std::fabs(hi)); }

  Interval& operator+=(const Interval& o) { return *this = Interval(lo + o.lo, hi + o.hi); }
  Interval& operator-=(const Interval& o) { return *this = Interval(lo - o.hi, hi - o.lo); }
};

inline Interval operator+(const Interval& a, const Interval& b) { return {a.lo + b.lo, a.hi + b.hi}; }
inline Interval operator-(const Interval& a, const Interval& b) { return {a.lo - b.hi, a.hi - b.lo}; }
inline Interval operator-(const Interval& a) { return {-a.hi, -a.lo}; }
inline Interval operator*(const Interval& a, const Interval& b) {
  const double p1 = a.lo * b.lo, p2 = a.lo * b.hi, p3 = a.hi * b.lo, p4 = a.hi * b.hi;
  return {std::min(std::min(p1, p2), std::min(p3, p4)), std::max(std::max(p1, p2), std::max(p3, p4))};
}
inline Interval& operator*=(Interval& a, const Interval& b) { return a = a * b; }
// a / b; a divisor that contains zero leaves no bound.
inline Interval operator/(const Interval& a, const Interval& b) {
  if (!(b.lo > 0 || b.hi < 0)) return {-HUGE_VAL, HUGE_VAL};
  return a * Interval(1.0 / b.hi, 1.0 / b.lo);
}

inline Interval abs(const Interval& a) {
  if (a.lo >= 0) return a;
  if (a.hi <= 0) return -a;
  return {0.0, a.mag()};
}

inline Interval hull(const Interval& a, const Interval& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// sin over [lo, hi]: the end values, widened to +-1 where a maximum pi/2 + 2 pi k or a minimum
// -pi/2 + 2 pi k lies inside.
inline Interval sin(const Interval& a) {
  constexpr double kPi = 3.14159265358979323846, kTwoPi = 2 * kPi;
  if (!(a.hi - a.lo < kTwoPi)) return {-1.0, 1.0};
  const double s1 = std::sin(a.lo), s2 = std::sin(a.hi);
  Interval out{std::min(s1, s2), std::max(s1, s2)};
  auto contains_phase = [&](double phase) {  // some phase + 2 pi k in [lo, hi]
    const double k = std::ceil((a.lo - phase) / kTwoPi);
    return phase + k * kTwoPi <= a.hi;
  };
  if (contains_phase(0.5 * kPi)) out.hi = 1.0;
  if (contains_phase(-0.5 * kPi)) out.lo = -1.0;
  return out;
}

inline Interval cos(const Interval& a) {
  constexpr double kHalfPi = 1.57079632679489661923;
  return sin(Interval(a.lo + kHalfPi, a.hi + kHalfPi));
}

}  // namespace vibro

namespace vibro {

// An interval value together with an interval enclosure of its derivative along one parameter
// (forward-mode differentiation in interval arithmetic): over a box of the parameter, `d` holds
// every derivative (every generalised gradient, for abs) the function takes there, which turns
// a bound of the value into a proof of monotonicity.
struct DualInterval {
  Interval v, d;
  DualInterval() = default;
  DualInterval(double value) : v(value), d(0.0) {}  // NOLINT: a constant
  DualInterval(const Interval& value, const Interval& derivative) : v(value), d(derivative) {}
  DualInterval& operator+=(const DualInterval& o) { return *this = DualInterval(v + o.v, d + o.d); }
  DualInterval& operator-=(const DualInterval& o) { return *this = DualInterval(v - o.v, d - o.d); }
};

inline DualInterval operator+(const DualInterval& a, const DualInterval& b) { return {a.v + b.v, a.d + b.d}; }
inline DualInterval operator-(const DualInterval& a, const DualInterval& b) { return {a.v - b.v, a.d - b.d}; }
inline DualInterval operator-(const DualInterval& a) { return {-a.v, -a.d}; }
inline DualInterval operator*(const DualInterval& a, const DualInterval& b) { return {a.v * b.v, a.v * b.d + a.d * b.v}; }
inline DualInterval operator/(const DualInterval& a, const DualInterval& b) {
  const Interval q = a.v / b.v;
  return {q, (a.d - q * b.d) / b.v};
}
inline DualInterval sin(const DualInterval& a) { return {sin(a.v), cos(a.v) * a.d}; }
inline DualInterval cos(const DualInterval& a) { return {cos(a.v), -(sin(a.v) * a.d)}; }
inline DualInterval abs(const DualInterval& a) {
  if (a.v.lo >= 0) return a;
  if (a.v.hi <= 0) return -a;
  return {abs(a.v), hull(a.d, -a.d)};  // sign(x) x' for either sign
}

}  // namespace vibro
