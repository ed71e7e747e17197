#pragma once
// x^(-1/5), the same bits on every machine: the DOPRI5 step-size controller's factor (Hairer, Norsett,
// Wanner II.4: h_new = 0.9 h err^(-1/5)). std::pow's last bits depend on the C library (glibc and
// CUDA's libdevice differ), and a step size off by one ulp sends a batched GPU run down another
// trajectory than the CPU's; this one is built from frexp, ldexp (exact) and + - * (exactly rounded on
// a CPU and a GPU alike), so the CPU build and the CUDA back end agree bit for bit. The caller's build
// must not contract a * b + c into fused multiply-adds (as engine/core/reproducible_trig.hpp).
//
// x = m 2^e, m in [0.5, 1), e = 5 q + r (0 <= r < 5): x^(-1/5) = m^(-1/5) 2^(-r/5) 2^(-q). m^(-1/5) in
// (1, 1.149] from a linear first guess (error below 0.02) by four division-free Newton steps for
// z^-5 = m, z <- z + z (1 - m z^5) / 5 (quadratic: 4e-4, 2e-7, 5e-14, then rounding), times the rounded
// 2^(-r/5), times 2^(-q) (exact). Error below 2.2 ulp over 10^6 arguments in 1e-30..1e30 and every
// power of two (tests/engine/test_reproducible_root.cpp).
// x = +inf gives 0, x = 0 gives +inf; x < 0 and NaN give NaN.
#include <cmath>
#include <limits>

#include "engine/core/host_device.hpp"

namespace vibro::reproducible {

VIBRO_HD inline double inverse_fifth_root(double x) {
  if (!(x > 0)) return x == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (!(x < std::numeric_limits<double>::infinity())) return 0;
  int e = 0;
  const double m = std::frexp(x, &e);
  int q = e / 5, r = e % 5;
  if (r < 0) {
    r += 5;
    q -= 1;
  }
  // 2^(-r/5), r = 0..4, rounded to the nearest double.
  constexpr double kPowers[5] = {1.0, 0x1.bdb8cdadbe12p-1, 0x1.8406003b2ae5cp-1, 0x1.51cb453b9536cp-1,
                                0x1.2611186bae675p-1};
  double z = 1.2974 - 0.2974 * m;
  for (int k = 0; k < 4; ++k) {  // as a correction to z, which rounds better than z (6 - m z^5) / 5
    const double z2 = z * z;
    z = z + z * ((1.0 - m * (z2 * z2 * z)) * 0.2);
  }
  return std::ldexp(z * kPowers[r], -q);
}

}  // namespace vibro::reproducible
