#pragma once
// Runs a beam-slider sweep file text through the sweep machinery and returns each case's axis value,
// observables, class and window samples (the reference-result tests of spec beam_slider.md 5).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro::test_support {

struct Case {
  double axis_value;
  std::vector<double> observables;
  std::string cls;
  std::vector<double> x_C;  // the window's stroboscopic x_C samples, m
  long long periods_run;
  bool stopped_early;
};

// Runs a sweep file text; returns each case's first-axis value, observables and class.
inline std::vector<Case> run(const std::string& ini, const std::string& axis) {
  const SweepSpec spec = parse_sweep(ini, "test.ini", {});
  const SweepRun result = run_sweep(spec);
  std::vector<Case> cases;
  for (long long i = 0; i < spec.case_count(); ++i) {
    const auto& r = result.cases[static_cast<std::size_t>(i)];
    REQUIRE(r.status == CaseStatus::Ok);
    std::vector<double> x_C;
    for (const auto& point : r.strobe) x_C.push_back(point.drift_position);
    cases.push_back({spec.case_parameters(i).get(axis), r.observables, r.class_code, x_C, r.periods_run, r.stopped_early});
  }
  return cases;
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
