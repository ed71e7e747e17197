#pragma once
// sin and cos that give the same bits on every machine: built from IEEE basic operations only
// (+ - * /, fabs, rint, fmod, all exactly rounded on a CPU and on a GPU), so the CPU build and the CUDA
// back end (engine/core/host_device.hpp) agree bit for bit, and results do not depend on the C
// library's sin and cos (glibc, CUDA's libdevice and others differ in the last bits; impact sequences
// amplify such differences). The caller's build must not contract a * b + c into fused multiply-adds
// (the project compiles with -ffp-contract=off, nvcc with --fmad=false).
//
// Algorithm: the classic design of Sun's fdlibm (K. C. Ng et al., 1993; as in FreeBSD's msun):
// Cody-Waite reduction x = n pi/2 + r with pi/2 in three 33-bit parts and a tail (the products n * part
// are exact for |n| <= 2^20), the remainder kept as hi + lo, and the minimax polynomials of degree 13
// (sin) and 14 (cos) on [-pi/4, pi/4] with the first-order correction for lo. The polynomial
// coefficients are fdlibm's: "Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
// Developed at SunSoft, a Sun Microsystems, Inc. business. Permission to use, copy, modify, and
// distribute this software is freely granted, provided that this notice is preserved."
//
// Accuracy (measured by tests/engine/test_reproducible_trig.cpp against long double sinl / cosl):
// - |x| <= kExactReductionLimit (about 1.647e6): error below 0.8 ulp (over 10^6 arguments with |x| <= 1e4,
//   many next to multiples of pi/2: max 0.763 ulp for sin, 0.752 for cos);
// - beyond: the argument is first reduced exactly (fmod) modulo the double nearest 2 pi, which is
//   2.45e-16 short of 2 pi, so the result is off by up to about |x| * 3.9e-17 in absolute terms
//   (6e-11 at 1.6e6; meaningless from about 1e16 on) -- still in [-1, 1] and the same bits everywhere;
// - NaN and +-inf give NaN; sin(+-0) = +-0.
#include <cmath>

#include "engine/core/host_device.hpp"

namespace vibro::reproducible {

struct SinCos {
  double sin, cos;
};

namespace trig_detail {
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/2 = kPio2Part1 + kPio2Part2 + kPio2Part3 + kPio2Tail to about 150 bits; each part has 33
// significant bits, so n * part is exact for |n| <= 2^20.
constexpr double kPio2Part1 = 0x1.921fb544p+0;
constexpr double kPio2Part2 = 0x1.0b4611a6p-34;
constexpr double kPio2Part3 = 0x1.3198a2ep-69;
constexpr double kPio2Tail = 0x1.b839a252049c1p-104;
constexpr double kExactReductionLimit = 0x1p20 * kPio2Part1;  // |x| up to here: |n| <= 2^20
constexpr double kPio4 = 0x1.921fb54442d18p-1;                // the double nearest pi/4 (below it)
constexpr double kTwoPiDouble = 0x1.921fb54442d18p+2;       // the double nearest 2 pi
// Below this, sin x = x and cos x = 1 are the correctly rounded values (x^2 / 6 < 2^-56).
constexpr double kTiny = 0x1p-27;

// sin on [-pi/4, pi/4] (a little beyond is fine) of x + y, |y| < ulp(x): x + x^3 (S1 + x^2 P(x^2)) with the
// tail entering as sin'(x) y ~ (1 - x^2/2) y.
constexpr double kS1 = -0x1.5555555555549p-3, kS2 = 0x1.111111110f8a6p-7, kS3 = -0x1.a01a019c161d5p-13,
                 kS4 = 0x1.71de357b1fe7dp-19, kS5 = -0x1.ae5e68a2b9cebp-26, kS6 = 0x1.5d93a5acfd57cp-33;
VIBRO_HD inline double sin_kernel(double x, double y) {
  const double x2 = x * x, x4 = x2 * x2, x3 = x2 * x;
  const double p = kS2 + x2 * (kS3 + x2 * kS4) + x2 * x4 * (kS5 + x2 * kS6);
  return x - ((x2 * (0.5 * y - x3 * p) - y) - x3 * kS1);
}

// cos of x + y on the same interval: 1 - x^2/2 + x^4 Q(x^2) - x y. The leading 1 - x^2/2 is split into its
// rounded value and the exact rounding error so the small terms are added to what 1 - x^2/2 lost.
constexpr double kC1 = 0x1.555555555554cp-5, kC2 = -0x1.6c16c16c15177p-10, kC3 = 0x1.a01a019cb159p-16,
                 kC4 = -0x1.27e4f809c52adp-22, kC5 = 0x1.1ee9ebdb4b1c4p-29, kC6 = -0x1.8fae9be8838d4p-37;
VIBRO_HD inline double cos_kernel(double x, double y) {
  const double x2 = x * x, x4 = x2 * x2;
  const double q = x2 * (kC1 + x2 * (kC2 + x2 * kC3)) + x4 * x4 * (kC4 + x2 * (kC5 + x2 * kC6));
  const double half_x2 = 0.5 * x2, lead = 1.0 - half_x2;
  return lead + (((1.0 - lead) - half_x2) + (x2 * q - x * y));
}

// a + b = s + err exactly (Knuth's TwoSum: no condition on the magnitudes).
struct TwoSum {
  double s, err;
};
VIBRO_HD inline TwoSum two_sum(double a, double b) {
  const double s = a + b, b_part = s - a;
  return {s, (a - (s - b_part)) + (b - b_part)};
}

// x modulo the double nearest 2 pi, exactly (fmod is exact), for |x| beyond kExactReductionLimit. A
// loop in the device's libdevice: called, not inlined, in device code (VIBRO_RARE_PATH).
VIBRO_HD inline VIBRO_RARE_PATH double reduce_huge(double x) { return std::fmod(x, kTwoPiDouble); }

// x = quadrant pi/2 + hi + lo (mod 2 pi), |hi| <~ pi/4, |lo| <= ulp(hi) / 2. x is finite.
struct Reduced {
  double hi, lo;
  int quadrant;  // 0..3
};
VIBRO_HD inline Reduced reduce(double x) {
  // No reduction where n = 0: the same bits as the general path (which then subtracts zeros), sooner.
  if (std::fabs(x) <= kPio4) return {x, 0.0, 0};
  if (!(std::fabs(x) <= kExactReductionLimit)) x = reduce_huge(x);  // see the header
  const double n = std::rint(x * kTwoOverPi);
  // x - n P1 is exact (n P1 is, and lies within a factor 2 of x when n != 0); the later parts go through
  // TwoSum, whose errors are kept: the three subtractions are always made (no data-dependent branch),
  // which costs a few operations and keeps 150 bits of pi/2 even right next to a multiple of it.
  const double r1 = x - n * kPio2Part1;
  const TwoSum r2 = two_sum(r1, -(n * kPio2Part2));
  const TwoSum r3 = two_sum(r2.s, -(n * kPio2Part3));
  const double small = (r2.err + r3.err) - n * kPio2Tail;
  const double hi = r3.s + small;
  const double lo = (r3.s - hi) + small;
  return {hi, lo, static_cast<int>(n) & 3};
}
}  // namespace trig_detail

// sin and cos of one argument, sharing its reduction; bit for bit (sin(x), cos(x)).
VIBRO_HD inline VIBRO_OUTLINE SinCos sincos(double x) {
  using namespace trig_detail;
  if (std::fabs(x) < kTiny) return {x, 1.0};  // also keeps the sign of a zero
  if (!std::isfinite(x)) return {x - x, x - x};
  const Reduced r = reduce(x);
  const double s = sin_kernel(r.hi, r.lo), c = cos_kernel(r.hi, r.lo);
  switch (r.quadrant) {
    case 0: return {s, c};
    case 1: return {c, -s};
    case 2: return {-s, -c};
    default: return {-c, s};
  }
}

VIBRO_HD inline VIBRO_OUTLINE double sin(double x) {
  using namespace trig_detail;
  if (std::fabs(x) < kTiny) return x;
  if (!std::isfinite(x)) return x - x;
  const Reduced r = reduce(x);
  const double v = (r.quadrant & 1) ? cos_kernel(r.hi, r.lo) : sin_kernel(r.hi, r.lo);
  return (r.quadrant & 2) ? -v : v;
}

VIBRO_HD inline VIBRO_OUTLINE double cos(double x) {
  using namespace trig_detail;
  if (std::fabs(x) < kTiny) return 1.0;
  if (!std::isfinite(x)) return x - x;
  const Reduced r = reduce(x);
  const double v = (r.quadrant & 1) ? sin_kernel(r.hi, r.lo) : cos_kernel(r.hi, r.lo);
  return ((r.quadrant + 1) & 2) ? -v : v;
}

}  // namespace vibro::reproducible
