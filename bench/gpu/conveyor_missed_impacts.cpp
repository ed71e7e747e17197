// Brute-force check that the conveyor's event search misses no impact: every case of a sweep is run
// for a fixed number of periods with its events recorded, and every free flight between two events
// is sampled densely in the plain absolute form (part parabola minus plate sine, not the relative
// form the search uses); a sample with the part more than 1e-12 m below the plate is a missed impact.
// Flights are sampled at least every 0.01 rad of phase and at no fewer than 16 points.
//
// usage: conveyor_missed_impacts SWEEP.ini PERIODS OUT.csv [--key=value ...]
//   (the sweep must be a conveyor sweep with start = drop; overrides as for vibro run)
// Prints the totals; exits 1 if any impact was missed, 2 on bad input. The check also proves it can
// fail: on the first case with impacts it hides the first impact from the flight walk, and that
// must show as a missed impact.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "models/conveyor/conveyor_simulation.hpp"

using namespace vibro;
using namespace vibro::conveyor;

namespace {

constexpr double kPenetration = 1e-12;  // m: below this the part is inside the plate

struct CaseCheck {
  long long impacts = 0, flights = 0, missed = 0;
  double min_gap = INFINITY;  // smallest sampled gap inside any flight, m
  bool ran = false;
};

// A flight from phase theta_a (absolute part position z_a, velocity v_a) over y_end rad of phase.
void check_flight(const ConveyorConstants& c, double theta_a, double z_a, double v_a, double y_end, CaseCheck& out) {
  if (!(y_end > 0)) return;
  ++out.flights;
  const int n = std::max(16, static_cast<int>(std::ceil(y_end / 0.01)));
  bool missed = false;
  for (int k = 1; k < n; ++k) {  // the ends are events: the gap is zero there
    const double y = y_end * k / n, t = y / c.omega;
    const double gap = z_a + v_a * t - 0.5 * c.g * t * t - c.A * std::sin(theta_a + y);
    out.min_gap = std::min(out.min_gap, gap);
    missed = missed || gap < -kPenetration;
  }
  out.missed += missed ? 1 : 0;
}

// hide_impact >= 0: that impact event is left out of the walk (the self-test of the check).
CaseCheck check_case(const SweepSpec& spec, long long index, int periods, int hide_impact = -1) {
  CaseCheck out;
  const ParameterSet values = spec.case_parameters(index);
  const ConveyorConstants c = ConveyorConstants::from(values);
  const ConveyorStart start = ConveyorStart::from(values);
  ConveyorSimulation simulation(c, start);
  std::vector<ConveyorEvent> events;
  simulation.record_events(&events);
  struct Count : StrobeObserver {
    int left;
    long long impacts = 0;
    bool on_sample(const StrobeSample& s) override {
      impacts = s.counters[kImpacts];
      return --left > 0;
    }
  } count;
  count.left = periods;
  try {
    simulation.run(count);
  } catch (const std::exception&) {
    return out;  // failed or infeasible cases are not checked
  }
  out.ran = true;
  out.impacts = count.impacts;
  const double end_time = periods * c.period;
  // In flight since phase theta (unwrapped: time * omega), at absolute position z with velocity v.
  bool flying = start.z0 > 0;
  double theta = 0, z = start.z0, v = start.v0;
  int impact_number = 0;
  for (std::size_t e = 0; e < events.size(); ++e) {
    const ConveyorEvent& ev = events[e];
    if (ev.kind == ConveyorEvent::Kind::Impact && impact_number++ == hide_impact) continue;
    if (ev.time > end_time) break;
    const double phase = ev.time * c.omega;
    switch (ev.kind) {
      case ConveyorEvent::Kind::Impact:
      case ConveyorEvent::Kind::Grazing:
        if (flying) check_flight(c, theta, z, v, phase - theta, out);
        flying = !(e + 1 < events.size() && events[e + 1].kind == ConveyorEvent::Kind::Accumulation);
        theta = phase;
        z = c.A * std::sin(ev.phase);
        v = ev.u_after + c.A * c.omega * std::cos(ev.phase);
        break;
      case ConveyorEvent::Kind::LiftOff:
        flying = true;
        theta = phase;
        z = c.A * std::sin(ev.phase);
        v = c.A * c.omega * std::cos(ev.phase);
        break;
      default: break;  // accumulation, stick/slip arcs: the part rides the plate
    }
  }
  if (flying) check_flight(c, theta, z, v, end_time * c.omega - theta, out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: conveyor_missed_impacts SWEEP.ini PERIODS OUT.csv [--key=value ...]\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) throw InputError(std::string(argv[1]) + ": cannot read the sweep file");
    std::stringstream text;
    text << in.rdbuf();
    const std::vector<std::string> overrides(argv + 4, argv + argc);
    const SweepSpec spec = parse_sweep(text.str(), argv[1], overrides);
    if (spec.model->name() != "conveyor") throw InputError(std::string(argv[1]) + ": not a conveyor sweep");
    const int periods = std::stoi(argv[2]);
    if (periods < 1) throw InputError("PERIODS must be at least 1");
    const long long n = spec.case_count();
    std::vector<CaseCheck> checks(static_cast<std::size_t>(n));
    const double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic, 8)
    for (long long i = 0; i < n; ++i) checks[static_cast<std::size_t>(i)] = check_case(spec, i, periods);
    const double seconds = omp_get_wtime() - t0;
    long long probe = 0;
    while (probe < n && checks[static_cast<std::size_t>(probe)].impacts < 2) ++probe;
    if (probe < n) {
      const CaseCheck hidden = check_case(spec, probe, periods, 0);
      std::printf("self-test: case %lld with its first impact hidden: %lld missed impact(s) found\n", probe,
                  hidden.missed);
      if (hidden.missed == 0) {
        std::printf("self-test FAILED: the check cannot see a missing impact\n");
        return 1;
      }
    }
    std::ofstream csv(argv[3]);
    csv << "case,impacts,flights,missed,min_gap\n";
    long long impacts = 0, flights = 0, missed = 0, ran = 0;
    for (long long i = 0; i < n; ++i) {
      const CaseCheck& k = checks[static_cast<std::size_t>(i)];
      csv << i << ',' << k.impacts << ',' << k.flights << ',' << k.missed << ',' << k.min_gap << '\n';
      impacts += k.impacts;
      flights += k.flights;
      missed += k.missed;
      ran += k.ran ? 1 : 0;
    }
    std::printf("%lld cases (%lld ran) x %d periods: %lld impacts, %lld flights sampled, %lld missed impacts "
                "(penetration > %g m), %.2f s on %d threads\n",
                n, ran, periods, impacts, flights, missed, kPenetration, seconds, omp_get_max_threads());
    return missed == 0 ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
}
