// The baseline for vibro's parallel efficiency: the same cases of a sweep file run by a bare
// `omp parallel for schedule(dynamic)` loop, with no work queue, checkpoint log or output file.
// vibro's efficiency at N threads is compared against this loop's on the same machine and cases.
//
// usage: plain_case_loop SWEEP.ini THREADS
// prints: cases, threads, wall seconds of the loop, and a checksum of the class periods (so the
// loop cannot be optimised away and the work matches vibro's).
#include <omp.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: plain_case_loop SWEEP.ini THREADS\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  const vibro::SweepSpec spec = vibro::parse_sweep(text.str(), argv[1], {});
  const int threads = std::stoi(argv[2]);
  const long long n = spec.case_count();
  long long checksum = 0;
  const auto started = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : checksum)
  for (long long i = 0; i < n; ++i) {
    const vibro::CaseResult r = vibro::run_case(*spec.model, spec.case_parameters(i), spec.steady, spec.strobe_points);
    checksum += r.period + static_cast<long long>(r.status);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "cases " << n << " threads " << threads << " wall_seconds " << wall << " checksum " << checksum << "\n";
  return 0;
}
