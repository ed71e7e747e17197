// Sweep files: parse_sweep on INI text. Every user error is an InputError, raised before any case runs,
// whose message names the offending key and what it accepts; command-line overrides beat the file;
// the grid is flattened in C order over the axes in file order (first axis slowest).
#include <catch2/catch.hpp>

#include <exception>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "engine/core/model_registry.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using vibro::SweepSpec;

namespace {

using Overrides = std::vector<std::string>;

SweepSpec parse(const std::string& text, const Overrides& overrides = {}) {
  return vibro::parse_sweep(text, "test_sweep.ini", overrides);
}

// The message of the InputError that parse_sweep throws; fails the test on no throw or another type.
std::string sweep_error(const std::string& text, const Overrides& overrides = {}) {
  try {
    const SweepSpec spec = parse(text, overrides);
    FAIL("the sweep was accepted (" << spec.case_count() << " case(s)); expected an InputError. Text:\n" << text);
  } catch (const vibro::InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("parse_sweep threw a non-InputError: " << e.what());
  }
  return {};
}

const char* const kFig6 = R"(# Fig. 6 of the conveyor paper
model = conveyor

[parameters]
f = 50
phi = 12
c_r = 0.6
mu = 0.15

[initial]
start = drop
on_plate = coupled

[axes]
a_hat = linspace(30, 80, 51)
z0 = linspace(0, 0.005, 21)

[run]
max_periods = 100
window_periods = 50
steady_state = adaptive

[output]
file = conveyor_fig6.h5
)";

std::string with_model(const std::string& rest) { return "model = conveyor\n" + rest; }

}  // namespace

TEST_CASE("sweep spec: a valid file gives the model, fixed values, axes and run settings", "[jobs][sweep]") {
  const SweepSpec spec = parse(kFig6);
  REQUIRE(spec.model != nullptr);
  CHECK(spec.model->name() == "conveyor");
  CHECK(spec.base.get("f") == 50);
  CHECK(spec.base.get("phi") == 12);
  CHECK(spec.base.get("c_r") == 0.6);
  CHECK(spec.base.get("mu") == 0.15);
  CHECK(spec.base.get("g") == 9.81);  // not in the file: the declared default
  CHECK(spec.base.choice("start") == "drop");
  CHECK(spec.base.choice("on_plate") == "coupled");
  REQUIRE(spec.axes.size() == 2);
  CHECK(spec.axes[0].name == "a_hat");
  CHECK(spec.axes[0].values.size() == 51);
  CHECK(spec.axes[1].name == "z0");
  CHECK(spec.axes[1].values.size() == 21);
  CHECK(spec.case_count() == 51 * 21);
  CHECK(spec.steady.max_periods == 100);
  CHECK(spec.steady.window_periods == 50);
  CHECK(spec.steady.mode == vibro::SteadyMode::Adaptive);
  CHECK(spec.strobe_points == vibro::StrobePoints::Window);
  CHECK(spec.output_file == "conveyor_fig6.h5");
  CHECK(spec.source_name == "test_sweep.ini");
  CHECK(spec.source_text == kFig6);  // no overrides: the text exactly as read
}

TEST_CASE("sweep spec: run and output keys are read", "[jobs][sweep]") {
  const SweepSpec spec = parse(with_model(R"(
[run]
max_periods = 40
window_periods = 20
steady_state = fixed
tol = 1e-5
adaptive_tol = 1e-8
max_period = 8
min_window = 12
min_periods = 7
quasi_tol = 1e-7
quasi_min_window = 200
threads = 3
[output]
strobe_points = none
)"));
  CHECK(spec.steady.max_periods == 40);
  CHECK(spec.steady.window_periods == 20);
  CHECK(spec.steady.mode == vibro::SteadyMode::Fixed);
  CHECK(spec.steady.tol == 1e-5);
  CHECK(spec.steady.adaptive_tol == 1e-8);
  CHECK(spec.steady.max_period == 8);
  CHECK(spec.steady.min_window == 12);
  CHECK(spec.steady.min_periods == 7);
  CHECK(spec.steady.quasi_tol == 1e-7);
  CHECK(spec.steady.quasi_min_window == 200);
  CHECK(spec.threads == 3);
  CHECK_FALSE(spec.record_strobe());
  // No [axes]: one case, the fixed values. No output.file: the sweep file's stem with .h5.
  CHECK(spec.axes.empty());
  CHECK(spec.case_count() == 1);
  CHECK(spec.output_file == "test_sweep.h5");
}

TEST_CASE("sweep spec: the default output file is the sweep file's stem, in the working directory", "[jobs][sweep]") {
  const SweepSpec spec = vibro::parse_sweep("model = conveyor\n", "some/dir/study.v2.ini", {});
  CHECK(spec.output_file == "study.v2.h5");
}

TEST_CASE("sweep spec: an unknown model lists the registered models", "[jobs][sweep]") {
  const std::string message = sweep_error("model = nosuch\n");
  CHECK_THAT(message, Contains("'nosuch'"));
  const auto names = vibro::ModelRegistry::instance().names();
  REQUIRE_FALSE(names.empty());
  for (const auto& name : names) CHECK_THAT(message, Contains(name));
  CHECK_THAT(message, Contains("conveyor"));
}

TEST_CASE("sweep spec: a missing model key is an error", "[jobs][sweep]") {
  CHECK_THAT(sweep_error("[parameters]\nc_r = 0.5\n"), Contains("'model'"));
  CHECK_THAT(sweep_error(""), Contains("'model'"));
  CHECK_THAT(sweep_error("model =\n"), Contains("'model'"));
}

TEST_CASE("sweep spec: an unknown key is named with the keys the model accepts", "[jobs][sweep]") {
  SECTION("[parameters] foo") {
    const std::string message = sweep_error(with_model("[parameters]\nfoo = 1\n"));
    CHECK_THAT(message, Contains("'parameters.foo'"));
    // The accepted keys of every section are listed.
    for (const char* key : {"parameters.a_hat", "parameters.c_r", "parameters.mu", "initial.start", "initial.z0",
                            "numerics.u_tol", "numerics.event_cap"})
      CHECK_THAT(message, Contains(key));
    CHECK_THAT(message, Contains("axes.") && Contains("run.") && Contains("output."));
  }
  SECTION("a real key in the wrong section") {
    const std::string message = sweep_error(with_model("[parameters]\nz0 = 0.001\n"));
    CHECK_THAT(message, Contains("'parameters.z0'") && Contains("initial.z0"));
  }
  SECTION("[axes] of a parameter the model does not have") {
    CHECK_THAT(sweep_error(with_model("[axes]\nfoo = 1, 2\n")), Contains("axes.foo"));
  }
  SECTION("[run] foo") { CHECK_THAT(sweep_error(with_model("[run]\nfoo = 1\n")), Contains("run.foo")); }
  SECTION("[output] foo") { CHECK_THAT(sweep_error(with_model("[output]\nfoo = x\n")), Contains("output.foo")); }
  SECTION("an unknown section") { CHECK_THAT(sweep_error(with_model("[bogus]\nc_r = 1\n")), Contains("bogus.c_r")); }
  SECTION("a parameter key outside any section") { CHECK_THAT(sweep_error(with_model("c_r = 0.5\n")), Contains("c_r")); }
  SECTION("on the command line") {
    CHECK_THAT(sweep_error(with_model(""), {"--parameters.foo=1"}), Contains("parameters.foo"));
  }
}

TEST_CASE("sweep spec: an out-of-range value names the key and the accepted range", "[jobs][sweep]") {
  SECTION("c_r = 1.5") {
    const std::string message = sweep_error(with_model("[parameters]\nc_r = 1.5\n"));
    CHECK_THAT(message, Contains("parameters.c_r") && Contains("[0, 1)") && Contains("1.5"));
  }
  SECTION("c_r = 1: the upper bound is open") {
    CHECK_THAT(sweep_error(with_model("[parameters]\nc_r = 1\n")), Contains("parameters.c_r") && Contains("[0, 1)"));
  }
  SECTION("c_r = 0: the lower bound is closed") {
    CHECK(parse(with_model("[parameters]\nc_r = 0\n")).base.get("c_r") == 0.0);
  }
  SECTION("f = 0: the lower bound is open") {
    CHECK_THAT(sweep_error(with_model("[parameters]\nf = 0\n")), Contains("parameters.f") && Contains("(0, 100000]"));
  }
  SECTION("a negative amplitude") {
    CHECK_THAT(sweep_error(with_model("[parameters]\na_hat = -1\n")), Contains("parameters.a_hat") && Contains("[0, 10000]"));
  }
  SECTION("[initial] and [numerics] keys are checked too") {
    CHECK_THAT(sweep_error(with_model("[initial]\nz0 = 2\n")), Contains("initial.z0") && Contains("[0, 1]"));
    CHECK_THAT(sweep_error(with_model("[numerics]\nu_tol = 0\n")), Contains("numerics.u_tol"));
  }
  SECTION("not finite") {
    CHECK_THAT(sweep_error(with_model("[parameters]\nf = inf\n")), Contains("parameters.f"));
    CHECK_THAT(sweep_error(with_model("[parameters]\nmu = nan\n")), Contains("parameters.mu"));
  }
}

TEST_CASE("sweep spec: a value that is not a number names the key", "[jobs][sweep]") {
  CHECK_THAT(sweep_error(with_model("[parameters]\nmu = abc\n")), Contains("parameters.mu") && Contains("'abc'") &&
                                                                      Contains("not a number") && Contains("[0, 10]"));
  CHECK_THAT(sweep_error(with_model("[parameters]\nmu = 0.1x\n")), Contains("parameters.mu"));
  CHECK_THAT(sweep_error(with_model("[parameters]\nmu =\n")), Contains("parameters.mu"));
  CHECK_THAT(sweep_error(with_model("[parameters]\nmu = 0.1, 0.2\n")), Contains("parameters.mu"));
}

TEST_CASE("sweep spec: an axis value out of range names the axis and the range", "[jobs][sweep]") {
  SECTION("a list") {
    const std::string message = sweep_error(with_model("[axes]\na_hat = 40, 20000\n"));
    CHECK_THAT(message, Contains("axes.a_hat") && Contains("20000") && Contains("[0, 10000]"));
  }
  SECTION("the end of a linspace on an open bound") {
    CHECK_THAT(sweep_error(with_model("[axes]\nc_r = linspace(0.5, 1, 3)\n")), Contains("axes.c_r") && Contains("[0, 1)"));
  }
  SECTION("a malformed axis") {
    CHECK_THAT(sweep_error(with_model("[axes]\na_hat = linspace(30, 80)\n")), Contains("axes.a_hat"));
  }
  SECTION("a choice parameter cannot be swept") {
    CHECK_THAT(sweep_error(with_model("[axes]\nstart = 0, 1\n")), Contains("axes.start") && Contains("numeric"));
  }
}

TEST_CASE("sweep spec: a choice key with a bad value lists the choices", "[jobs][sweep]") {
  SECTION("start = fly") {
    const std::string message = sweep_error(with_model("[initial]\nstart = fly\n"));
    CHECK_THAT(message, Contains("initial.start") && Contains("'fly'") && Contains("drop") && Contains("first_impact") &&
                            Contains("state"));
  }
  SECTION("choice names are not indices") {
    CHECK_THAT(sweep_error(with_model("[initial]\nstart = 1\n")), Contains("initial.start"));
  }
  SECTION("run.steady_state") {
    CHECK_THAT(sweep_error(with_model("[run]\nsteady_state = sometimes\n")),
               Contains("run.steady_state") && Contains("adaptive") && Contains("fixed"));
  }
  SECTION("output.strobe_points") {
    CHECK_THAT(sweep_error(with_model("[output]\nstrobe_points = all\n")),
               Contains("output.strobe_points") && Contains("window") && Contains("none"));
  }
  SECTION("a good choice is stored as its index and read back by name") {
    const SweepSpec spec = parse(with_model("[initial]\nstart = first_impact\n[numerics]\ncoupled_friction = eq62\n"));
    CHECK(spec.base.choice("start") == "first_impact");
    CHECK(spec.base.get("start") == 1.0);
    CHECK(spec.base.choice("coupled_friction") == "eq62");
  }
}

TEST_CASE("sweep spec: bad run keys name the key", "[jobs][sweep]") {
  CHECK_THAT(sweep_error(with_model("[run]\nmax_periods = 1.5\n")), Contains("run.max_periods") && Contains("integer"));
  CHECK_THAT(sweep_error(with_model("[run]\nmax_periods = 1\n")), Contains("run.max_periods"));
  CHECK_THAT(sweep_error(with_model("[run]\nthreads = -1\n")), Contains("run.threads"));
  CHECK_THAT(sweep_error(with_model("[run]\ntol = 0\n")), Contains("run.tol"));
  CHECK_THAT(sweep_error(with_model("[run]\nadaptive_tol = abc\n")), Contains("run.adaptive_tol"));
  CHECK_THAT(sweep_error(with_model("[run]\nmax_period = 0\n")), Contains("run.max_period"));
  CHECK_THAT(sweep_error(with_model("[run]\nquasi_tol = 0\n")), Contains("run.quasi_tol"));
  CHECK_THAT(sweep_error(with_model("[run]\nquasi_min_window = 1\n")), Contains("run.quasi_min_window"));
}

TEST_CASE("sweep spec: run.steady_state = means needs a model with window means and the budget for them",
          "[jobs][sweep]") {
  const std::string beam = "model = beam_slider\n[run]\nsteady_state = means\nmax_periods = 1000\n";
  const SweepSpec spec = parse(beam, {"--run.means_window=50", "--run.means_checks=4"});
  CHECK(spec.steady.mode == vibro::SteadyMode::Means);
  CHECK(spec.steady.means_window == 50);
  CHECK(spec.steady.means_checks == 4);
  CHECK_FALSE(spec.steady.means_to_budget);
  CHECK(parse(beam, {"--run.means_to_budget=true"}).steady.means_to_budget);
  CHECK_THAT(sweep_error(beam, {"--run.means_to_budget=yes"}), Contains("run.means_to_budget"));
  CHECK_THAT(sweep_error(with_model("[run]\nsteady_state = means\n")),
             Contains("run.steady_state = means") && Contains("conveyor") && Contains("adaptive or fixed"));
  CHECK_THAT(sweep_error(beam, {"--run.means_window=250"}),
             Contains("1001 periods") && Contains("run.max_periods = 1000"));
  CHECK_THAT(sweep_error(beam, {"--run.means_window=0"}), Contains("run.means_window"));
  CHECK_THAT(sweep_error(with_model("[run]\nsteady_state = settled\n")), Contains("fixed, adaptive, means"));
}

TEST_CASE("sweep spec: run.window_periods must be smaller than run.max_periods", "[jobs][sweep]") {
  SECTION("equal") {
    const std::string message = sweep_error(with_model("[run]\nmax_periods = 50\nwindow_periods = 50\n"));
    CHECK_THAT(message, Contains("run.window_periods") && Contains("run.max_periods"));
  }
  SECTION("larger") {
    CHECK_THAT(sweep_error(with_model("[run]\nmax_periods = 50\nwindow_periods = 60\n")),
               Contains("run.window_periods") && Contains("run.max_periods"));
  }
  SECTION("against the default budget of 100") {
    CHECK_THAT(sweep_error(with_model("[run]\nwindow_periods = 100\n")), Contains("run.max_periods"));
    CHECK(parse(with_model("[run]\nwindow_periods = 99\n")).steady.window_periods == 99);
  }
  SECTION("the check is made after the command-line overrides") {
    CHECK_THAT(sweep_error(kFig6, {"--run.max_periods=40"}), Contains("run.window_periods") && Contains("run.max_periods"));
    const SweepSpec spec = parse(kFig6, {"--run.max_periods=40", "--run.window_periods=20"});
    CHECK(spec.steady.max_periods == 40);
    CHECK(spec.steady.window_periods == 20);
  }
}

TEST_CASE("sweep spec: a malformed INI line is an error", "[jobs][sweep]") {
  SECTION("a line without '='") {
    CHECK_THAT(sweep_error(with_model("[parameters]\nc_r 0.5\n")), Contains("c_r 0.5"));
  }
  SECTION("an unterminated section header") {
    CHECK_THAT(sweep_error(with_model("[parameters\nc_r = 0.5\n")), Contains("[parameters"));
  }
  SECTION("a key given twice") {
    CHECK_THAT(sweep_error(with_model("[parameters]\nc_r = 0.5\nc_r = 0.6\n")), Contains("parameters.c_r"));
  }
  SECTION("the error names the sweep file") {
    CHECK_THAT(sweep_error(with_model("[parameters]\nc_r 0.5\n")), Contains("test_sweep.ini"));
  }
}

TEST_CASE("sweep spec: comments and blank lines are ignored", "[jobs][sweep]") {
  const SweepSpec spec = parse("# a comment\n\nmodel = conveyor  # trailing comment\n[parameters]\n\nc_r = 0.5 # restitution\n");
  CHECK(spec.model->name() == "conveyor");
  CHECK(spec.base.get("c_r") == 0.5);
}

TEST_CASE("sweep spec: command-line overrides take precedence over the file", "[jobs][sweep]") {
  SECTION("a fixed parameter") {
    const SweepSpec spec = parse(kFig6, {"--parameters.c_r=0.7"});
    CHECK(spec.base.get("c_r") == 0.7);
    CHECK(spec.base.get("mu") == 0.15);  // untouched keys keep the file's value
  }
  SECTION("an axis replaces the file's axis and keeps its place in the grid") {
    const SweepSpec spec = parse(kFig6, {"--axes.a_hat=40,50,70"});
    REQUIRE(spec.axes.size() == 2);
    CHECK(spec.axes[0].name == "a_hat");
    CHECK(spec.axes[0].values == std::vector<double>{40, 50, 70});
    CHECK(spec.axes[1].name == "z0");
    CHECK(spec.case_count() == 3 * 21);
  }
  SECTION("an axis only on the command line comes after the file's axes") {
    const SweepSpec spec = parse(kFig6, {"--axes.mu=0.1,0.2"});
    REQUIRE(spec.axes.size() == 3);
    CHECK(spec.axes[0].name == "a_hat");
    CHECK(spec.axes[1].name == "z0");
    CHECK(spec.axes[2].name == "mu");
    CHECK(spec.axes[2].values == std::vector<double>{0.1, 0.2});
  }
  SECTION("choice, run and output keys") {
    const SweepSpec spec = parse(kFig6, {"--initial.start=first_impact", "--run.steady_state=fixed",
                                         "--output.file=elsewhere.h5", "--output.strobe_points=none"});
    CHECK(spec.base.choice("start") == "first_impact");
    CHECK(spec.steady.mode == vibro::SteadyMode::Fixed);
    CHECK(spec.output_file == "elsewhere.h5");
    CHECK_FALSE(spec.record_strobe());
  }
  SECTION("one orbit's stroboscopic points: a result-changing key") {
    const SweepSpec orbit = parse(kFig6, {"--output.strobe_points=orbit"});
    CHECK(orbit.strobe_points == vibro::StrobePoints::Orbit);
    CHECK(orbit.record_strobe());
    CHECK(orbit.result_settings().find("output.strobe_points = orbit") != std::string::npos);
    CHECK(orbit.result_settings() != parse(kFig6).result_settings());
    CHECK_THROWS_WITH(parse(kFig6, {"--output.strobe_points=orbits"}),
                      Catch::Matchers::Contains("output.strobe_points") && Catch::Matchers::Contains("orbit"));
  }
  SECTION("a key that is not in the file") {
    CHECK(parse(kFig6, {"--parameters.g=9.8"}).base.get("g") == 9.8);
  }
  SECTION("the model, when the file has none") {
    CHECK(parse("[parameters]\nc_r = 0.5\n", {"--model=conveyor"}).model->name() == "conveyor");
  }
  SECTION("override values are validated like file values") {
    CHECK_THAT(sweep_error(kFig6, {"--parameters.c_r=1.5"}), Contains("parameters.c_r") && Contains("[0, 1)"));
    CHECK_THAT(sweep_error(kFig6, {"--axes.a_hat=40,20000"}), Contains("axes.a_hat") && Contains("[0, 10000]"));
    CHECK_THAT(sweep_error(kFig6, {"--initial.start=fly"}), Contains("initial.start") && Contains("first_impact"));
  }
  SECTION("an override can fix a bad value in the file") {
    CHECK(parse(with_model("[parameters]\nc_r = 1.5\n"), {"--parameters.c_r=0.5"}).base.get("c_r") == 0.5);
  }
  SECTION("the overrides are recorded after the file's text") {
    const SweepSpec spec = parse(kFig6, {"--parameters.c_r=0.7", "--axes.a_hat=40,50,70"});
    CHECK_THAT(spec.source_text, StartsWith(kFig6));
    CHECK_THAT(spec.source_text, Contains("--parameters.c_r=0.7") && Contains("--axes.a_hat=40,50,70"));
  }
}

TEST_CASE("sweep spec: grid order follows the file, first axis slowest (C order)", "[jobs][sweep]") {
  SECTION("two axes") {
    const SweepSpec spec = parse(with_model("[axes]\na_hat = 40, 50, 70\nz0 = 0, 0.002\n"));
    REQUIRE(spec.case_count() == 6);
    const double a_hat[] = {40, 40, 50, 50, 70, 70};
    const double z0[] = {0, 0.002, 0, 0.002, 0, 0.002};
    for (long long i = 0; i < 6; ++i) {
      INFO("case " << i);
      const auto values = spec.case_parameters(i);
      CHECK(values.get("a_hat") == a_hat[i]);
      CHECK(values.get("z0") == z0[i]);
      CHECK(values.get("c_r") == spec.base.get("c_r"));
    }
    CHECK(spec.grid_indices(0) == std::vector<int>{0, 0});
    CHECK(spec.grid_indices(1) == std::vector<int>{0, 1});
    CHECK(spec.grid_indices(2) == std::vector<int>{1, 0});
    CHECK(spec.grid_indices(5) == std::vector<int>{2, 1});
  }
  SECTION("the file's order, not the model's declaration order") {
    // z0 ([initial]) is declared after a_hat ([parameters]) but listed first here.
    const SweepSpec spec = parse(with_model("[axes]\nz0 = 0, 0.002\na_hat = 40, 50, 70\n"));
    REQUIRE(spec.axes.size() == 2);
    CHECK(spec.axes[0].name == "z0");
    CHECK(spec.axes[1].name == "a_hat");
    CHECK(spec.case_parameters(1).get("z0") == 0.0);
    CHECK(spec.case_parameters(1).get("a_hat") == 50.0);
    CHECK(spec.case_parameters(3).get("z0") == 0.002);
    CHECK(spec.case_parameters(3).get("a_hat") == 40.0);
  }
  SECTION("three axes: index = (i0 * n1 + i1) * n2 + i2") {
    const SweepSpec spec = parse(with_model("[axes]\nmu = 0.1, 0.2, 0.3, 0.4\na_hat = 40, 50, 70\nz0 = 0, 0.002\n"));
    const std::vector<double> mu{0.1, 0.2, 0.3, 0.4}, a_hat{40, 50, 70}, z0{0, 0.002};
    REQUIRE(spec.case_count() == 24);
    for (int i0 = 0; i0 < 4; ++i0)
      for (int i1 = 0; i1 < 3; ++i1)
        for (int i2 = 0; i2 < 2; ++i2) {
          const long long index = (i0 * 3 + i1) * 2 + i2;
          INFO("case " << index);
          CHECK(spec.grid_indices(index) == std::vector<int>{i0, i1, i2});
          const auto values = spec.case_parameters(index);
          CHECK(values.get("mu") == mu[static_cast<std::size_t>(i0)]);
          CHECK(values.get("a_hat") == a_hat[static_cast<std::size_t>(i1)]);
          CHECK(values.get("z0") == z0[static_cast<std::size_t>(i2)]);
        }
    // Filled into one set reused from case to case (a batched group's scratch), the last case first.
    vibro::ParameterSet reused(nullptr);
    for (long long index = 23; index >= 0; --index) {
      INFO("case " << index);
      spec.fill_case_parameters(index, reused);
      CHECK(reused.get("mu") == mu[static_cast<std::size_t>(index / 6)]);
      CHECK(reused.get("a_hat") == a_hat[static_cast<std::size_t>(index / 2 % 3)]);
      CHECK(reused.get("z0") == z0[static_cast<std::size_t>(index % 2)]);
      CHECK(reused.get("c_r") == spec.base.get("c_r"));
    }
  }
  SECTION("an axis parameter also fixed in the file takes the axis values; the base keeps the fixed one") {
    const SweepSpec spec = parse(with_model("[parameters]\na_hat = 60\n[axes]\na_hat = 40, 50\n"));
    CHECK(spec.base.get("a_hat") == 60.0);
    CHECK(spec.case_parameters(0).get("a_hat") == 40.0);
    CHECK(spec.case_parameters(1).get("a_hat") == 50.0);
  }
  SECTION("a case's parameters leave the base untouched") {
    const SweepSpec spec = parse(with_model("[axes]\nc_r = 0.1, 0.2\n"));
    (void)spec.case_parameters(1);
    CHECK(spec.base.get("c_r") == 0.6);
  }
}

// ---------------------------------------------------------------------------------------------------
// Regression tests for bugs found by these tests and since fixed.

TEST_CASE("sweep spec: --model on the command line takes precedence over the file's model", "[jobs]") {
  // Pass 1 of parse_sweep stores the file before the overrides, and program_options keeps the first
  // value stored, so the file's model wins and --model=nosuch is silently ignored.
  CHECK_THAT(sweep_error(with_model(""), {"--model=nosuch"}), Contains("nosuch"));
}

TEST_CASE("sweep spec: an abbreviated key on the command line is rejected, not guessed", "[jobs]") {
  // unix_style includes allow_guessing: --parameters.c=0.7 is taken as parameters.c_r.
  CHECK_THAT(sweep_error(with_model(""), {"--parameters.c=0.7"}), Contains("parameters.c"));
  CHECK_THAT(sweep_error(with_model(""), {"--output.f=x.h5"}), Contains("output.f"));
}

TEST_CASE("axis list with a trailing comma is rejected like an empty item", "[jobs]") {
  // "1,,2" is rejected but "40, 50," is silently read as {40, 50}.
  CHECK_THROWS_AS(parse(with_model("[axes]\na_hat = 40, 50,\n")), vibro::InputError);
}

TEST_CASE("sweep spec: a grid too large to index is refused before any work, with its size", "[jobs]") {
  const std::string ini =
      "model = conveyor\n[axes]\na_hat = linspace(30, 80, 100000)\nz0 = linspace(0, 0.005, 100000)\n";
  try {
    vibro::parse_sweep(ini, "huge.ini", {});
    FAIL("a 1e10-case grid was accepted");
  } catch (const vibro::InputError& e) {
    const std::string message = e.what();
    CHECK(message.find("1e+10 cases") != std::string::npos);
    CHECK(message.find("split the sweep") != std::string::npos);
  }
  // The same grid with fewer values per axis is fine.
  CHECK(vibro::parse_sweep("model = conveyor\n[axes]\na_hat = linspace(30, 80, 1000)\nz0 = linspace(0, 0.005, 1000)\n",
                    "ok.ini", {}).case_count() == 1000000);
}

TEST_CASE("an override not of the form --section.key=value is an error, not silently dropped", "[jobs]") {
  const std::string ini = "model = conveyor\n[axes]\na_hat = 40, 50\n";
  for (const std::string bad : {"axes.a_hat=30", "--axes.a_hat", "run.threads=2"}) {
    try {
      vibro::parse_sweep(ini, "override.ini", {bad});
      FAIL("accepted " << bad);
    } catch (const vibro::InputError& e) {
      CHECK(std::string(e.what()).find("'" + bad + "'") != std::string::npos);
    }
  }
  CHECK(vibro::parse_sweep(ini, "override.ini", {"--axes.a_hat=30"}).case_count() == 1);
}
