// Runs a sweep file (no output file) and prints, per case, its class, periodicity and the weighted
// Birkhoff discrepancy of its window (analysis/weighted_birkhoff): how far each case is from the
// quasi-periodic test's threshold (docs/analysis/quasi_periodic.md).
//
// usage: sweep_discrepancy SWEEP.ini [--section.key=value ...]
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/weighted_birkhoff.hpp"
#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: sweep_discrepancy SWEEP.ini [--section.key=value ...]\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  const SweepSpec spec = parse_sweep(text.str(), argv[1], std::vector<std::string>(argv + 2, argv + argc));
  const SweepRun run = run_sweep(spec);
  std::printf("%6s %-12s %11s %8s %8s %12s\n", "case", "class", "periodicity", "period", "window", "discrepancy");
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const CaseResult& r = run.cases[i];
    if (r.status != CaseStatus::Ok) {
      std::printf("%6zu not ok: %s\n", i, r.reason.c_str());
      continue;
    }
    const StrobeLayout layout = spec.model->start(spec.case_parameters(static_cast<long long>(i)))->layout();
    std::printf("%6zu %-12s %11d %8d %8d %12.3e\n", i, r.class_code.c_str(), static_cast<int>(r.periodicity), r.period,
                r.window_periods, birkhoff_discrepancy(strobe_window(r), layout));
  }
}
