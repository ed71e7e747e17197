#pragma once
// Dormand-Prince 5(4) with Hairer's 4th-order continuous extension (DOPRI5), for small fixed-size
// states: Eigen fixed-size vectors, no heap allocation per step, FSAL. The step and its dense
// output are separate so that an event locator can work on the interpolant of an accepted step.
// Host-and-device code (engine/core/host_device.hpp): the GPU kernels of DOPRI5 models step with it.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "engine/core/host_device.hpp"
#include "engine/core/reproducible_root.hpp"
#if !VIBRO_DEVICE_PASS
#include "engine/core/case_budget.hpp"
#endif

namespace vibro {

template <int N>
struct DenseStep {
  using State = Eigen::Matrix<double, N, 1>;
  double t0 = 0, h = 0;
  // y(t0 + theta h) = r1 + theta (r2 + (1-theta) (r3 + theta (r4 + (1-theta) r5))), theta in [0, 1].
  State r1, r2, r3, r4, r5;

  VIBRO_HD State at(double theta) const {
    const double u = 1 - theta;
    return r1 + theta * (r2 + u * (r3 + theta * (r4 + u * r5)));
  }
  // Power-basis coefficients c0..c4 (in theta) of the affine function a.y + b along the step.
  VIBRO_HD void affine_polynomial(const State& a, double b, double c[5]) const {
    power_basis(a.dot(r1) + b, a.dot(r2), a.dot(r3), a.dot(r4), a.dot(r5), c);
  }
  // Power-basis coefficients (in theta) of component i alone.
  VIBRO_HD void component_polynomial(int i, double c[5]) const { power_basis(r1[i], r2[i], r3[i], r4[i], r5[i], c); }

 private:
  VIBRO_HD static void power_basis(double R1, double R2, double R3, double R4, double R5, double c[5]) {
    c[0] = R1;
    c[1] = R2 + R3;
    c[2] = -R3 + R4 + R5;
    c[3] = -R4 - 2 * R5;
    c[4] = R5;
  }
};

struct StepControl {
  double rtol = 1e-10;
  double atol = 1e-12;
  double h_max = 1e300;
  double h_min = 1e-14;  // relative to max(1, |t|): below it the case fails (step-size underflow)
};

template <int N>
class DormandPrince5 {
 public:
  using State = Eigen::Matrix<double, N, 1>;

  // Attempts one step of size h from (t, y) with k1 = f(t, y) given. On acceptance fills `dense`,
  // returns true and sets y_new, k_new (= f at the new point, FSAL); always proposes h_next.
  template <class F>
  VIBRO_HD bool attempt(F&& f, double t, const State& y, const State& k1, double h, const StepControl& control,
                        State& y_new, State& k_new, DenseStep<N>& dense, double& h_next, int& evaluations) const {
    // The Butcher tableau, error and dense-output weights: locals, so that device code may use them.
    constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
    constexpr double a21 = 1.0 / 5;
    constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
    constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
    constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
    constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                     a65 = -5103.0 / 18656;
    constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784,
                     a76 = 11.0 / 84;
    constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                     e6 = 22.0 / 525, e7 = -1.0 / 40;
    constexpr double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                     d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                     d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;
#if !VIBRO_DEVICE_PASS
    charge_step();  // every DOPRI5 user is bounded by the case's budget (rejected attempts cost too)
#endif
    State k2, k3, k4, k5, k6, tmp;
    tmp = y + h * (a21 * k1);
    f(t + c2 * h, tmp, k2);
    tmp = y + h * (a31 * k1 + a32 * k2);
    f(t + c3 * h, tmp, k3);
    tmp = y + h * (a41 * k1 + a42 * k2 + a43 * k3);
    f(t + c4 * h, tmp, k4);
    tmp = y + h * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4);
    f(t + c5 * h, tmp, k5);
    tmp = y + h * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5);
    f(t + h, tmp, k6);
    y_new = y + h * (a71 * k1 + a73 * k3 + a74 * k4 + a75 * k5 + a76 * k6);
    f(t + h, y_new, k_new);
    evaluations += 6;

    const State error = h * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k_new);
    double norm = 0;
    for (int i = 0; i < y.size(); ++i) {
      const double scale = control.atol + control.rtol * std::max(std::fabs(y[i]), std::fabs(y_new[i]));
      norm += (error[i] / scale) * (error[i] / scale);
    }
    norm = std::sqrt(norm / static_cast<double>(y.size()));
    // Standard controller (Hairer, Norsett, Wanner II.4) with safety 0.9 and bounded change; norm^(-1/5)
    // the same bits on a CPU and a GPU (std::pow's last bits are the C library's).
    const double factor = norm > 0 ? std::clamp(0.9 * reproducible::inverse_fifth_root(norm), 0.2, 5.0) : 5.0;
    h_next = std::min(h * factor, control.h_max);
    if (!(norm <= 1.0)) {
      h_next = std::min(h_next, 0.9 * h);
      return false;
    }
    dense.t0 = t;
    dense.h = h;
    dense.r1 = y;
    dense.r2 = y_new - y;
    dense.r3 = h * k1 - dense.r2;
    dense.r4 = dense.r2 - h * k_new - dense.r3;
    dense.r5 = h * (d1 * k1 + d3 * k3 + d4 * k4 + d5 * k5 + d6 * k6 + d7 * k_new);
    return true;
  }
};

}  // namespace vibro
