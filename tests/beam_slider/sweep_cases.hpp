#pragma once
// Runs a beam-slider sweep file text through the sweep machinery and returns each case's axis value,
// observables, class and window samples (the reference-result tests of Krack et al. 2017).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro::test_support {

struct Case {
  double axis_value;
  double axis2_value;  // the second axis named to run(), else 0
  bool ok;             // status Ok (only cases of a run that allows failures can be false)
  std::vector<double> observables;
  std::string cls;
  std::vector<double> x_C;  // the window's stroboscopic x_C samples, m
  long long periods_run;
  bool stopped_early;
};

// Runs a parsed sweep; returns each case's value of `axis` (and of `axis2`), observables and class.
// Every case must end Ok unless `allow_failed` (a failed case then comes back with ok = false).
inline std::vector<Case> run_spec(const SweepSpec& spec, const std::string& axis, const std::string& axis2 = "",
                                  bool allow_failed = false) {
  const SweepRun result = run_sweep(spec);
  std::vector<Case> cases;
  for (long long i = 0; i < spec.case_count(); ++i) {
    const auto& r = result.cases[static_cast<std::size_t>(i)];
    const bool ok = r.status == CaseStatus::Ok;
    if (!allow_failed) REQUIRE(ok);
    std::vector<double> x_C;
    for (const auto& point : r.strobe) x_C.push_back(point.drift_position);
    const auto parameters = spec.case_parameters(i);
    cases.push_back({parameters.get(axis), axis2.empty() ? 0.0 : parameters.get(axis2), ok, r.observables,
                     r.class_code, x_C, r.periods_run, r.stopped_early});
  }
  return cases;
}

// Runs a sweep file text (every case must end Ok).
inline std::vector<Case> run(const std::string& ini, const std::string& axis) {
  return run_spec(parse_sweep(ini, "test.ini", {}), axis);
}

// The text of examples/<name>, to run a shipped example (or a cheaper variant of it) in a test.
inline std::string example_text(const std::string& name) {
  std::ifstream in(std::string(VIBRO_SOURCE_DIR) + "/examples/" + name);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs examples/<name> with `overrides` ("--run.max_periods=1000", ...) as the command line would.
inline std::vector<Case> run_example(const std::string& name, const std::vector<std::string>& overrides,
                                     const std::string& axis, const std::string& axis2 = "",
                                     bool allow_failed = false) {
  return run_spec(parse_sweep(example_text(name), name, overrides), axis, axis2, allow_failed);
}

// One case of the free slider from x_C0: `parameters` are [parameters] lines ("f = 85\n..."), `run_keys`
// the [run] lines.
inline Case adaptive_case(const std::string& parameters, double x_C0, const std::string& run_keys) {
  const auto cases = run("model = beam_slider\n[parameters]\n" + parameters + "[initial]\nx_C0 = " +
                             std::to_string(x_C0) + "\n[run]\n" + run_keys,
                         "x_C0");
  REQUIRE(cases.size() == 1);
  return cases.front();
}

}  // namespace vibro::test_support
