// Model A of Bazhenov et al. 2013 against the paper and a shooting reference: the closed-form linear response, the grazing
// threshold from an upward continuation sweep (all three laws), the regression table of 6.3.1, the
// hysteresis of the downward sweep, and chatter that ends in sticking.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/two_body/gap_oscillator_parameters.hpp"
#include "models/two_body/linear_response.hpp"

using namespace vibro;
using namespace vibro::two_body;

namespace {

struct Row {
  double lambda;
  std::string cls;
  double A1, A2_pp, force, impacts;
};

std::vector<Row> sweep(const std::string& axes, const std::vector<std::string>& overrides) {
  const std::string ini = "model = gap_oscillator\n[axes]\n" + axes + "\n[run]\nmax_periods = 600\nwindow_periods = 20\n";
  const SweepSpec spec = parse_sweep(ini, "model_a.ini", overrides);
  const SweepRun run = run_sweep(spec);
  std::vector<Row> rows;
  for (long long i = 0; i < spec.case_count(); ++i) {
    const auto& r = run.cases[static_cast<std::size_t>(i)];
    REQUIRE(r.status == CaseStatus::Ok);
    rows.push_back({spec.case_parameters(i).get("lambda"), r.class_code, r.observables[0], r.observables[3],
                    r.observables[4], r.observables[7]});
  }
  return rows;
}

GapOscillatorConstants defaults() {
  ParameterSet p(&gap_oscillator_parameter_specs());
  return GapOscillatorConstants::from(p);
}

}  // namespace

TEST_CASE("Model A linear response and grazing threshold in closed form", "[two_body]") {
  const LinearResponse r = linear_response(defaults());
  CHECK(r.amplitude1 == Approx(0.043487).margin(5e-7));
  CHECK(r.amplitude2 == Approx(0.061384).margin(5e-7));
  CHECK(r.relative == Approx(0.088183).margin(5e-7));
  CHECK(r.grazing_lambda == Approx(0.56700).margin(5e-6));
}

TEST_CASE("below grazing the simulated semi-amplitudes are the closed-form ones to 1e-6", "[two_body]") {
  const LinearResponse r = linear_response(defaults());
  for (const auto& row : sweep("lambda = 0.3, 0.5", {"--parameters.law=hertz"})) {
    CHECK(row.cls == "L");
    CHECK(row.impacts == 0);
    CHECK(row.A1 == Approx(row.lambda * r.amplitude1).epsilon(1e-6));
    CHECK(row.A2_pp == Approx(row.lambda * r.amplitude2).epsilon(1e-6));
  }
}

TEST_CASE("an upward lambda sweep finds the grazing threshold 0.5670 +- 1e-4 with every law", "[two_body]") {
  const double exact = linear_response(defaults()).grazing_lambda;
  for (const std::string law : {"restitution", "linear", "hertz"}) {
    const auto rows = sweep("lambda = range(0.5500, 0.5700, 0.00005)",
                            {"--parameters.law=" + law, "--run.continuation=lambda", "--run.direction=up"});
    double first = -1;
    for (const auto& row : rows)
      if (row.impacts > 0) {
        first = row.lambda;
        break;
      }
    INFO("law " << law);
    CHECK(first == Approx(0.5670).margin(1e-4));
    CHECK(first >= exact);
    CHECK(first - exact <= 5.01e-5);  // the first grid point above the threshold
  }
}

TEST_CASE("the loading curve matches the shooting reference's regression table to 1e-3", "[two_body]") {
  // lambda -> (A1, A2) for restitution e = 1, Hertz, restitution e = 0.5 [values of a shooting reference].
  const std::map<double, std::array<double, 6>> table{
      {0.6, {0.021039, 0.065570, 0.020870, 0.065221, 0.020600, 0.052636}},
      {0.7, {0.037900, 0.092988, 0.037661, 0.092776, 0.029294, 0.071865}},
      {1.0, {0.078736, 0.147551, 0.078503, 0.147482, 0.057240, 0.110742}},
      {1.5, {0.137166, 0.223236, 0.136942, 0.223302, 0.099700, 0.165335}},
      {2.0, {0.192440, 0.294523, 0.192218, 0.294694, 0.140367, 0.217010}},
      {3.0, {0.300202, 0.433378, 0.299977, 0.433727, 0.220003, 0.317907}}};
  const std::vector<std::vector<std::string>> laws{
      {"--parameters.law=restitution", "--parameters.e=1"}, {"--parameters.law=hertz"},
      {"--parameters.law=restitution", "--parameters.e=0.5"}};
  for (std::size_t l = 0; l < laws.size(); ++l) {
    auto overrides = laws[l];
    overrides.push_back("--run.continuation=lambda");
    const auto rows = sweep("lambda = 0.6, 0.7, 1.0, 1.5, 2.0, 3.0", overrides);
    for (const auto& row : rows) {
      INFO("law " << l << " lambda " << row.lambda);
      CHECK(row.cls == "(1,1)");
      CHECK(row.A1 == Approx(table.at(row.lambda)[2 * l]).epsilon(1e-3));
      CHECK(row.A2_pp == Approx(table.at(row.lambda)[2 * l + 1]).epsilon(1e-3));
    }
  }
}

TEST_CASE("Hertz and restitution e = 1 agree within the reference bounds, Hertz peak force", "[two_body]") {
  const auto hertz = sweep("lambda = 1.0", {"--parameters.law=hertz"});
  const auto rigid = sweep("lambda = 1.0", {"--parameters.law=restitution"});
  CHECK(std::fabs(hertz[0].A1 / rigid[0].A1 - 1) < 0.008);
  CHECK(std::fabs(hertz[0].A2_pp / rigid[0].A2_pp - 1) < 0.0053);
  CHECK(hertz[0].force == Approx(4.412e5).epsilon(2e-3));
}

TEST_CASE("a downward sweep keeps impacting below the grazing threshold (hysteresis)", "[two_body]") {
  const auto rows = sweep("lambda = range(0.545, 0.600, 0.005)",
                          {"--parameters.law=restitution", "--run.continuation=lambda", "--run.direction=down"});
  bool impacting_below = false;
  for (const auto& row : rows)
    if (row.lambda < 0.566 && row.lambda > 0.5545 && row.impacts > 0) impacting_below = true;
  CHECK(impacting_below);
  // ... while the upward sweep is impact-free there.
  const auto up = sweep("lambda = range(0.545, 0.566, 0.005)",
                        {"--parameters.law=restitution", "--run.continuation=lambda", "--run.direction=up"});
  for (const auto& row : up) CHECK(row.impacts == 0);
}

TEST_CASE("plastic chatter ends in sticking and release every period, without stalling", "[two_body]") {
  const std::string ini =
      "model = gap_oscillator\n[parameters]\nlaw = restitution\ne = 0.1\nlambda = 3\n[run]\nmax_periods = 300\n"
      "window_periods = 20\n";
  const SweepSpec spec = parse_sweep(ini, "chatter.ini", {});
  const SweepRun run = run_sweep(spec);
  const auto& r = run.cases[0];
  REQUIRE(r.status == CaseStatus::Ok);
  CHECK(r.class_code.rfind("(1,", 0) == 0);
  CHECK(r.window_counters[1] > 0);  // stickings
  CHECK(r.window_counters[2] == r.window_counters[1]);  // each sticking phase is released
  CHECK(r.observables[7] > 2);  // several impacts per period before the bodies stick
}
