#pragma once
// Shared set-up of the ball balancer tests: constants from the declared defaults with overrides,
// the thesis's unit conversions (1 in = 0.0254 m, 1 slug = 14.5939 kg, 1 lbf = 4.44822 N), and a collector of stroboscopic samples.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/model_registry.hpp"
#include "models/ball_balancer/ball_balancer_parameters.hpp"
#include "models/ball_balancer/ball_balancer_simulation.hpp"

namespace bb_test {

using namespace vibro;
using namespace vibro::ball_balancer;

constexpr double kPi = 3.14159265358979323846;
constexpr double kFt = 0.3048, kSlug = 14.593903, kLbfPerFt = 14.593903, kFtLbf = 1.3558179;

inline ParameterSet parameters(std::initializer_list<std::pair<std::string, double>> values) {
  ParameterSet p(&ball_balancer_parameter_specs());
  for (const auto& [key, value] : values) p.set(key, value);
  return p;
}

inline BallBalancerConstants constants(std::initializer_list<std::pair<std::string, double>> values) {
  return constants_from(parameters(values));
}

// Chapter VIII parameters of the thesis: rounded masses, no dissipation unless asked.
inline BallBalancerConstants chapter8(int n, bool finite_radius) {
  ParameterSet p = parameters({{"m_rotor", 0.155 * kSlug}, {"k_x", 15 * kLbfPerFt}, {"k_y", 15 * kLbfPerFt},
                               {"c_x", 0}, {"c_y", 0}, {"m_ball", 0.0016 * kSlug}, {"n_balls", n}, {"d", 0},
                               {"mu_R", 0}, {"cor", 1}, {"me_ratio", 0}, {"rtol", 1e-12}, {"atol", 1e-14}});
  p.set("balls", finite_radius ? 1 : 0);
  // I = 2/5 m r^2 = 1.111e-6 slug ft^2 (printed rounded as 1.11e-6; the separate prototype values need 2/5).
  p.set("inertia_factor", 0.4);
  BallBalancerConstants c = constants_from(p);
  c.spin = 0;  // phi' = 0: a conservative system
  c.period = 1;
  c.control.h_max = 1e-2;
  return c;
}

struct Collector : StrobeObserver {
  int stop_after;
  std::vector<StrobeSample> samples;
  explicit Collector(int periods) : stop_after(periods) {}
  bool on_sample(const StrobeSample& s) override {
    samples.push_back(s);
    return static_cast<int>(samples.size()) <= stop_after;
  }
};

}  // namespace bb_test
