// examples/models/two_sided_stop_cubic.vibro (a forced oscillator with a cubic spring between rigid
// stops at -d and d) against an independent event-driven solution written here: Boost.Odeint's
// Bulirsch-Stoer integrator with dense output at 1e-14, each impact located on the dense output by
// TOMS 748, Newton restitution applied by hand. Every impact's time, stop and speed agree.
#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/core/model_registry.hpp"
#include "jobs/trace/case_trace.hpp"
#include "model_files/load_model_file.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;

namespace {

struct Oscillator {
  double zeta, beta, F, omega, d, r;
};

struct Impact {
  double t;
  int stop;      // +1 upper (x = d), -1 lower
  double speed;  // approach speed
};

// Impacts in [0, t_end) from (x0, v0) at t = 0.
std::vector<Impact> reference_impacts(const Oscillator& o, double x0, double v0, double t_end) {
  namespace odeint = boost::numeric::odeint;
  using State = std::array<double, 2>;
  const auto field = [&o](const State& y, State& dy, double t) {
    dy[0] = y[1];
    dy[1] = o.F * std::cos(o.omega * t) - 2 * o.zeta * y[1] - y[0] - o.beta * y[0] * y[0] * y[0];
  };
  std::vector<Impact> out;
  State x{x0, v0};
  double t = 0;
  while (t < t_end) {
    odeint::bulirsch_stoer_dense_out<State> stepper(1e-14, 1e-14, 1, 1, 0.05);
    stepper.initialize(x, t, 1e-3);
    bool hit = false;
    while (!hit) {
      const auto [t0, t1] = stepper.do_step(field);
      if (t0 >= t_end) return out;
      State probe;
      for (int j = 1; j <= 16 && !hit; ++j) {
        const double tj = t0 + (t1 - t0) * j / 16.0;
        stepper.calc_state(tj, probe);
        const int stop = probe[0] > o.d ? 1 : probe[0] < -o.d ? -1 : 0;
        if (stop == 0) continue;
        const auto gap = [&](double time) {
          State y;
          stepper.calc_state(time, y);
          return o.d - stop * y[0];
        };
        const double left = t0 + (t1 - t0) * (j - 1) / 16.0;
        boost::math::tools::eps_tolerance<double> tolerance(50);
        std::uintmax_t iterations = 200;
        const auto bracket = boost::math::tools::toms748_solve(gap, left, tj, gap(left), gap(tj), tolerance, iterations);
        t = (bracket.first + bracket.second) / 2;
        stepper.calc_state(t, x);
        if (t < t_end) out.push_back({t, stop, std::fabs(x[1])});
        x = {stop * o.d, -o.r * x[1]};
        hit = true;
      }
    }
  }
  return out;
}

std::string text(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

}  // namespace

TEST_CASE("two-sided stop file: every impact against an independent solution", "[model_files][two_sided_stop]") {
  const std::string name = load_model_file(std::string(VIBRO_SOURCE_DIR) + "/examples/models/two_sided_stop_cubic.vibro");
  const Model& model = ModelRegistry::instance().get(name);
  for (const Oscillator o : {Oscillator{0.05, 0.5, 1, 1.2, 0.8, 0.7}, Oscillator{0.02, 2, 2, 2.5, 0.5, 0.9}}) {
    const ParameterSet values = test_support::parameter_values(
        model.parameters(), {{"zeta", text(o.zeta)}, {"beta", text(o.beta)}, {"F", text(o.F)}, {"omega", text(o.omega)},
                             {"d", text(o.d)}, {"r", text(o.r)}, {"rtol", "1e-13"}, {"atol", "1e-15"}});
    const int periods = 20;
    const CaseTrace trace = trace_case(model, values, {periods, 4});
    std::vector<Impact> vibro;
    for (const auto& e : trace.events) {
      REQUIRE(e.kind == "impact");
      vibro.push_back({e.time, e.before[0] > 0 ? 1 : -1, std::fabs(e.before[1])});
    }
    const std::vector<Impact> reference = reference_impacts(o, 0, 0, periods * 2 * M_PI / o.omega);
    INFO("omega " << o.omega << ": impacts vibro " << vibro.size() << " reference " << reference.size());
    REQUIRE(vibro.size() == reference.size());
    REQUIRE(reference.size() > 20);
    double worst_t = 0, worst_v = 0;
    long upper = 0;
    for (std::size_t i = 0; i < vibro.size(); ++i) {
      REQUIRE(vibro[i].stop == reference[i].stop);
      worst_t = std::max(worst_t, std::fabs(vibro[i].t - reference[i].t));
      worst_v = std::max(worst_v, std::fabs(vibro[i].speed - reference[i].speed));
      upper += vibro[i].stop > 0;
    }
    CHECK(worst_t < 1e-8);
    CHECK(worst_v < 1e-8);
    CHECK(upper > 0);
    CHECK(upper < static_cast<long>(vibro.size()));  // both stops are hit
    WARN("two-sided stop, omega " << o.omega << ": " << vibro.size() << " impacts (" << upper << " upper), worst time "
                                  << worst_t << ", worst speed " << worst_v);
  }
}
