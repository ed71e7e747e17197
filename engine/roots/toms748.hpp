#pragma once
// TOMS Algorithm 748 (Alefeld, Potra and Shi, "Algorithm 748: enclosing zeros of continuous
// functions", ACM Trans. Math. Software 21, 1995) for a bracketed root, as host-and-device code.
// Boost's toms748_solve is host-only; this is the same sequence of operations as Boost 1.74's
// (boost/math/tools/toms748_solve.hpp, double precision, the default policy's arguments), so on the
// CPU it returns Boost's bracket bit for bit (a test checks it) and the GPU runs the same algorithm.
#include <cfloat>
#include <cmath>

#include "engine/core/host_device.hpp"

namespace vibro {

struct Bracket {
  double a, b;
};

namespace toms748_detail {

VIBRO_HD inline int sign(double z) { return z == 0 ? 0 : std::signbit(z) ? -1 : 1; }

// (f by value, as Boost passes it.) Sets [a, b] to the part of the old bracket around c that holds the root (a = c when f(c) = 0);
// d, fd: the end that was dropped (the third best point).
template <class F>
VIBRO_HD void bracket(F f, double& a, double& b, double c, double& fa, double& fb, double& d, double& fd) {
  const double tol = DBL_EPSILON * 2;
  if ((b - a) < 2 * tol * a) c = a + (b - a) / 2;
  else if (c <= a + std::fabs(a) * tol) c = a + std::fabs(a) * tol;
  else if (c >= b - std::fabs(b) * tol) c = b - std::fabs(b) * tol;
  const double fc = f(c);
  if (fc == 0) {
    a = c;
    fa = 0;
    d = 0;
    fd = 0;
    return;
  }
  if (sign(fa) * sign(fc) < 0) {
    d = b;
    fd = fb;
    b = c;
    fb = fc;
  } else {
    d = a;
    fd = fa;
    a = c;
    fa = fc;
  }
}

VIBRO_HD inline double safe_div(double num, double denom, double r) {
  if (std::fabs(denom) < 1 && std::fabs(denom * DBL_MAX) <= std::fabs(num)) return r;
  return num / denom;
}

VIBRO_HD inline double secant_interpolate(double a, double b, double fa, double fb) {
  const double tol = DBL_EPSILON * 5;
  const double c = a - (fa / (fb - fa)) * (b - a);
  if ((c <= a + std::fabs(a) * tol) || (c >= b - std::fabs(b) * tol)) return (a + b) / 2;
  return c;
}

VIBRO_HD inline double quadratic_interpolate(double a, double b, double d, double fa, double fb, double fd,
                                             unsigned count) {
  const double B = safe_div(fb - fa, b - a, DBL_MAX);
  double A = safe_div(fd - fb, d - b, DBL_MAX);
  A = safe_div(A - B, d - a, 0.0);
  if (A == 0) return secant_interpolate(a, b, fa, fb);
  double c = sign(A) * sign(fa) > 0 ? a : b;
  for (unsigned i = 1; i <= count; ++i) c -= safe_div(fa + (B + A * (c - b)) * (c - a), B + A * (2 * c - a - b), 1 + c - a);
  if ((c <= a) || (c >= b)) c = secant_interpolate(a, b, fa, fb);
  return c;
}

VIBRO_HD inline double cubic_interpolate(double a, double b, double d, double e, double fa, double fb, double fd,
                                         double fe) {
  const double q11 = (d - e) * fd / (fe - fd);
  const double q21 = (b - d) * fb / (fd - fb);
  const double q31 = (a - b) * fa / (fb - fa);
  const double d21 = (b - d) * fd / (fd - fb);
  const double d31 = (a - b) * fb / (fb - fa);
  const double q22 = (d21 - q11) * fb / (fe - fb);
  const double q32 = (d31 - q21) * fa / (fd - fa);
  const double d32 = (d31 - q21) * fd / (fd - fa);
  const double q33 = (d32 - q22) * fa / (fe - fa);
  double c = q31 + q32 + q33 + a;
  if ((c <= a) || (c >= b)) c = quadratic_interpolate(a, b, d, fa, fb, fd, 3);
  return c;
}

// Cubic interpolation unless two of the four values coincide (then quadratic with `newton` steps).
VIBRO_HD inline double interpolate(double a, double b, double d, double e, double fa, double fb, double fd, double fe,
                                   unsigned newton) {
  const double min_diff = DBL_MIN * 32;
  const bool prof = (std::fabs(fa - fb) < min_diff) || (std::fabs(fa - fd) < min_diff) ||
                    (std::fabs(fa - fe) < min_diff) || (std::fabs(fb - fd) < min_diff) ||
                    (std::fabs(fb - fe) < min_diff) || (std::fabs(fd - fe) < min_diff);
  return prof ? quadratic_interpolate(a, b, d, fa, fb, fd, newton) : cubic_interpolate(a, b, d, e, fa, fb, fd, fe);
}

}  // namespace toms748_detail

// The root of f in [ax, bx] (ax < bx, f(ax) = fax and f(bx) = fbx of opposite signs or zero), to
// tol(a, b) == true, at most max_iter evaluations of f (max_iter is set to those used). Returns the
// final bracket. Boost's domain errors (a >= b, no sign change) are the caller's to exclude: here
// they return the input bracket.
template <class F, class Tol>
VIBRO_HD Bracket toms748_solve(F f, double ax, double bx, double fax, double fbx, Tol tol, unsigned long long& max_iter) {
  using namespace toms748_detail;
  if (max_iter == 0 || !(ax < bx)) return {ax, bx};
  unsigned long long count = max_iter;
  double a = ax, b = bx, fa = fax, fb = fbx, c, u, fu, a0, b0, d = 0, fd, e, fe;
  const double mu = 0.5;
  if (tol(a, b) || (fa == 0) || (fb == 0)) {
    max_iter = 0;
    if (fa == 0) b = a;
    else if (fb == 0) a = b;
    return {a, b};
  }
  if (sign(fa) * sign(fb) > 0) return {ax, bx};
  fe = e = fd = 1e5F;
  if (fa != 0) {
    c = secant_interpolate(a, b, fa, fb);  // the first step: a secant
    bracket(f, a, b, c, fa, fb, d, fd);
    --count;
    if (count && (fa != 0) && !tol(a, b)) {  // the second: quadratic interpolation
      c = quadratic_interpolate(a, b, d, fa, fb, fd, 2);
      e = d;
      fe = fd;
      bracket(f, a, b, c, fa, fb, d, fd);
      --count;
    }
  }
  while (count && (fa != 0) && !tol(a, b)) {
    a0 = a;
    b0 = b;
    c = interpolate(a, b, d, e, fa, fb, fd, fe, 2);
    e = d;
    fe = fd;
    bracket(f, a, b, c, fa, fb, d, fd);
    if ((0 == --count) || (fa == 0) || tol(a, b)) break;
    c = interpolate(a, b, d, e, fa, fb, fd, fe, 3);
    bracket(f, a, b, c, fa, fb, d, fd);
    if ((0 == --count) || (fa == 0) || tol(a, b)) break;
    // A double-length secant step from the better end.
    if (std::fabs(fa) < std::fabs(fb)) {
      u = a;
      fu = fa;
    } else {
      u = b;
      fu = fb;
    }
    c = u - 2 * (fu / (fb - fa)) * (b - a);
    if (std::fabs(c - u) > (b - a) / 2) c = a + (b - a) / 2;
    e = d;
    fe = fd;
    bracket(f, a, b, c, fa, fb, d, fd);
    if ((0 == --count) || (fa == 0) || tol(a, b)) break;
    if ((b - a) < mu * (b0 - a0)) continue;
    e = d;  // not converging fast enough: a bisection
    fe = fd;
    bracket(f, a, b, a + (b - a) / 2, fa, fb, d, fd);
    --count;
  }
  max_iter -= count;
  if (fa == 0) b = a;
  else if (fb == 0) a = b;
  return {a, b};
}

}  // namespace vibro
