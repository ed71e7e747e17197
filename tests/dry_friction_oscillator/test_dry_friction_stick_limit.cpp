// A stuck state exactly on the friction limit whose applied force then exceeds it slips at once: the
// sticking mode's switch guard starts at 0 and its rate points across, which neither a test of the
// guard's value nor a search for sign changes sees. The engine judges such a guard by its time
// derivatives along the mode's field. Checked against the motion in closed form piece by piece
// (piecewise_motion.hpp).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "dry_friction_oscillator/piecewise_motion.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/trace/case_trace.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

int mode_index(const CaseTrace& trace, const std::string& name) {
  const auto& names = trace.layout.mode_names;
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

// mu = 0.3, F = 1, x(0) = 1.3, v(0) = 0: F cos(0) - x = -mu, the force on the limit, and below it for
// every t in (0, T): the first derivative of the force is 0 at t = 0, the second -F omega^2 < 0.
TEST_CASE("Dry-friction oscillator: started stuck exactly on the friction limit, it slips back at once and moves as "
          "the closed form does",
          "[dry_friction_oscillator][hybrid]") {
  const double mu = 0.3, F = 1, omega = 0.48072, x0 = 1.3;
  const Model& model = ModelRegistry::instance().get("dry_friction_oscillator");
  const ParameterSet values = parameter_values(
      model.parameters(), {{"mu", "0.3"}, {"F", "1"}, {"omega", "0.48072"}, {"x0", "1.3"}, {"v0", "0"}});
  const CaseTrace trace = trace_case(model, values, {3, 400});
  const PiecewiseMotion exact{mu, F, omega};
  double x_end = 0, v_end = 0;
  // From t = 0 slipping backwards (the mode the flow takes at once).
  const auto events = exact.run(0, x0, 0, -1, 3 * exact.T(), x_end, v_end);
  REQUIRE(events.size() >= 4);

  // It leaves the stuck state at once: slipping backwards from the first grid time after 0.
  REQUIRE(trace.modes.size() > 1);
  CHECK(trace.modes[1] == mode_index(trace, "slip-"));
  CHECK(trace.state(1, 0) < x0);

  // Event by event: the same stops, reversals and releases, at the same times and places.
  std::string seen;
  for (const auto& e : trace.events) seen += e.kind + " at " + std::to_string(e.time) + "; ";
  INFO("engine's events: " << seen);
  REQUIRE(trace.events.size() == events.size());
  const char* names[] = {"slip-", "stick", "slip+"};  // mode_after -1, 0, +1
  double worst_time = 0, worst_place = 0;
  for (std::size_t k = 0; k < events.size(); ++k) {
    INFO("event " << k << ": closed form t = " << events[k].t << ", x = " << events[k].x);
    CHECK(trace.events[k].kind == std::string("switch to ") + names[events[k].mode_after + 1]);
    CHECK(std::fabs(trace.events[k].time - events[k].t) < 1e-7);
    CHECK(std::fabs(trace.events[k].after[0] - events[k].x) < 1e-7);
    worst_time = std::max(worst_time, std::fabs(trace.events[k].time - events[k].t));
    worst_place = std::max(worst_place, std::fabs(trace.events[k].after[0] - events[k].x));
  }
  // The state on the grid, between the events too.
  double worst = 0;
  for (std::size_t r = 0; r < trace.time.size(); ++r) {
    double x = 0, v = 0;
    exact.run(0, x0, 0, -1, trace.time[r], x, v);
    worst = std::max({worst, std::fabs(trace.state(r, 0) - x), std::fabs(trace.state(r, 1) - v)});
  }
  CHECK(worst < 1e-7);
  WARN(events.size() << " events; worst event time " << worst_time << ", place " << worst_place << "; worst grid state " << worst);
}
