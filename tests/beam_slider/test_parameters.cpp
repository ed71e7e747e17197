// The registered model's inputs: the name, a slider start off the beam rejected with the key and the
// accepted range, and the time step rule (the paper gives only its value).
#include <catch2/catch.hpp>
#include <string>

#include "beam_slider/beam_slider_fixture.hpp"
#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "models/beam_slider/beam_slider_simulation.hpp"

using namespace vibro;
using namespace vibro::beam_slider;

TEST_CASE("beam_slider is registered, x_C0 off the beam is an input error naming the key and range", "[beam_slider]") {
  const Model& model = ModelRegistry::instance().get("beam_slider");
  CHECK(model.name() == "beam_slider");
  CHECK_NOTHROW(model.validate(testing::beam_slider_values({{"x_C0", "0.9166"}})));
  try {
    model.validate(testing::beam_slider_values({{"x_C0", "0.95"}}));
    FAIL("no error");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("x_C0") != std::string::npos);
    CHECK(what.find("[0.0833333, 0.916667]") != std::string::npos);
  }
  // The reference ignores x_C0 (its bearing is at l/2).
  CHECK_NOTHROW(model.validate(testing::beam_slider_values({{"variant", "reference"}, {"x_C0", "0.95"}})));
}

TEST_CASE("time step: whole steps per period, not above the paper's 2 pi / (5 omega_5) = 6.619e-5 s", "[beam_slider]") {
  for (const char* f : {"85", "125", "200"}) {
    const BeamSliderConstants c = testing::constants({{"f", f}});
    const BeamSliderSimulation simulation(c);
    const double paper = 2 * M_PI / (5 * simulation.system().axis().omega(4));
    INFO("f = " << f);
    CHECK(paper == Approx(6.619e-5).epsilon(1e-3));
    CHECK(simulation.time_step() <= paper);
    CHECK(simulation.time_step() > paper * (1 - simulation.time_step() / c.period()));  // the fewest steps
    const double steps = c.period() / simulation.time_step();
    CHECK(steps == Approx(std::round(steps)).margin(1e-9));
  }
}
