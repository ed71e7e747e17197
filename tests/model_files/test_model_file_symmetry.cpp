// A model file's `symmetry` lines (docs/model_files.md): parsed and checked naming the place, and the
// example dry-friction oscillator's file, which declares (x, v) -> (-x, -v) with slip+ <-> slip-,
// continued through the window near omega = 0.4807 where its symmetric orbit is nearly neutral to
// breaking the symmetry: the onset of sticking and one change 6 -> 4 at the closed form's
// omega_b = 0.48072351597, as the C++ model reports them.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "analysis/arclength_continuation.hpp"
#include "analysis/orbit_continuation.hpp"
#include "dry_friction_oscillator/den_hartog_start.hpp"
#include "engine/core/model_registry.hpp"
#include "model_files/load_model_file.hpp"
#include "model_files/model_file_parser.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;
using namespace vibro::test_support;

namespace {

const std::string kOscillator = R"(model sym_demo: a demo
param F = 1
state x = 0
state v = 0
period 2*pi
mode up
  x' = v
  v' = F*cos(t) - x - 0.1
mode down
  x' = v
  v' = F*cos(t) - x + 0.1
)";

std::string refusal(const std::string& lines) {
  try {
    model_file::parse_model_file(kOscillator + lines, "demo.vibro");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("model file: symmetry lines are read as a signed exchange of states and mode pairs, and refused naming "
          "the place where they are no involution or name what does not exist",
          "[model_files][half_period_symmetry]") {
  const model_file::ModelFileSpec spec =
      model_file::parse_model_file(kOscillator + "symmetry x = -x, v = -v\nsymmetry swap up down\n", "demo.vibro");
  REQUIRE(spec.symmetry);
  CHECK(spec.symmetry->images == std::vector<int>{0, 1});
  CHECK(spec.symmetry->signs == std::vector<double>{-1, -1});
  REQUIRE(spec.symmetry->swapped_modes.size() == 1);
  CHECK(spec.symmetry->swapped_modes.front() == std::pair<std::string, std::string>{"up", "down"});
  CHECK(refusal("symmetry x = -v\n").find("demo.vibro:12:1: the symmetry is not an involution") != std::string::npos);
  CHECK(refusal("symmetry x = v, v = -x\n").find("not an involution") != std::string::npos);
  CHECK(refusal("symmetry x = v, v = x\n").empty());  // an exchange of two states
  CHECK(refusal("symmetry y = -y\n").find("demo.vibro:12:10: 'y' is not a state") != std::string::npos);
  CHECK(refusal("symmetry x = -x, x = x\n").find("a second image") != std::string::npos);
  CHECK(refusal("symmetry swap up dwn\n").find("'dwn' is not a mode; did you mean 'down'?") != std::string::npos);
  CHECK(refusal("symmetry swap up down\nsymmetry swap down up\n").find("in a second pair") != std::string::npos);
  CHECK(refusal("symmetry x + x\n").find("expected") != std::string::npos);
}

TEST_CASE("model file: the dry-friction oscillator's file declares its symmetry, and continuation from omega = "
          "0.4816 to 0.4805 reports the onset of sticking and one change 6 -> 4 at 0.48072352, no orbit with 5",
          "[model_files][half_period_symmetry][continuation]") {
  const std::string name = load_model_file(std::string(VIBRO_SOURCE_DIR) + "/examples/models/dry_friction_oscillator.vibro");
  const Model& model = ModelRegistry::instance().get(name);
  const ParameterSet values = parameter_values(model.parameters(), {{"mu", "0.3"}, {"F", "1"}, {"omega", "0.4816"}});
  const StrobeSample start = den_hartog_start(model, values, 0.4816);
  for (const auto& [follow, method] : {std::pair{&continue_periodic_orbit, "natural"}, {&continue_by_arclength, "arclength"}}) {
    const Branch branch = follow(model, values, "omega", 0.4816, 0.4805, start, 1, ContinuationSettings{});
    INFO(method << ": " << branch.end);
    CHECK(branch.end == "reached the end of the range");
    for (const auto& q : branch.points) {
      CHECK(q.orbit.symmetric);
      CHECK(q.orbit.switches != 5);
    }
    REQUIRE(branch.events.size() == 2);
    CHECK(branch.events[0].detail.rfind("mode changes per period 2 -> 6", 0) == 0);
    CHECK(std::fabs(branch.events[0].parameter - 0.48147824702) < 1e-8);
    CHECK(branch.events[1].detail.rfind("mode changes per period 6 -> 4", 0) == 0);
    CHECK(std::fabs(branch.events[1].parameter - 0.48072351597) < 1e-6);
  }
}
