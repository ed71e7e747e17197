// The dimer's event-driven integrator: no impact is ever missed (a brute-force dense check of every
// flight over 100 random cases), and the Zeno closure ends a chattering sequence.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "dimer/dimer_fixture.hpp"
#include "models/dimer/dimer_event_driven.hpp"
#include "models/dimer/dimer_geometry.hpp"
#include "models/dimer/dimer_simulation.hpp"

using namespace vibro;
using namespace vibro::dimer;
using namespace vibro::dimer::testing;

namespace {
struct StopAfter : StrobeObserver {
  int periods;
  explicit StopAfter(int n) : periods(n) {}
  bool on_sample(const StrobeSample& s) override { return s.period < periods; }
};

// Samples each flight at `samples` points of (0, end * duration) and records the lowest tip gap,
// computed from absolute positions (not the flight's own relative gap form).
struct DenseFlightCheck : DimerEventDriven::FlightLog {
  const DimerConstants& c;
  double extend;  // fraction of the flight's duration sampled (1: up to the located contact)
  int samples = 400;
  long flights = 0, negative = 0;
  double lowest = 1e300;
  DenseFlightCheck(const DimerConstants& constants, double extend_by) : c(constants), extend(extend_by) {}
  void on_flight(const DimerFlight& flight, double duration) override {
    ++flights;
    bool went_negative = false;
    for (int k = 1; k < samples; ++k) {
      const double tau = extend * duration * k / samples;
      const Eigen::Matrix<double, 6, 1> s = flight.state_at(tau);
      const Eigen::Vector2d gaps = tip_heights(c.body, s(1), s(2)).array() - c.plate_height(flight.t0() + tau);
      lowest = std::min(lowest, gaps.minCoeff());
      // 1e-12 m: far above the rounding of absolute positions (~1e-18 m), far below any hop (> 1e-9 m).
      if (gaps.minCoeff() < -1e-12) went_negative = true;
    }
    negative += went_negative ? 1 : 0;
  }
};

DimerConstants random_case(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const double f = 25.0 * (1 + static_cast<int>(3 * u(rng)));
  return DimerConstants::from(dimer_values({{"A_r", std::to_string(2.1 + 6.4 * u(rng))},
                                            {"f", std::to_string(f)},
                                            {"Gamma", std::to_string(0.2 + 1.3 * u(rng))},
                                            {"e_s", std::to_string(0.5 + 0.4 * u(rng))},
                                            {"h0", std::to_string(2e-3 * u(rng))},
                                            {"theta0", std::to_string(-15 + 30 * u(rng))}}));
}
}  // namespace

TEST_CASE("event-driven dimer: no gap goes negative unseen in any flight of 100 random cases", "[dimer]") {
  std::mt19937_64 rng(20261126);
  long flights = 0, missed = 0, cases_overrun = 0;
  for (int n = 0; n < 100; ++n) {
    const DimerConstants c = random_case(rng);
    DimerEventDriven sim(c);
    DenseFlightCheck check(c, 1.0);
    sim.set_flight_log(&check);
    StopAfter stop(8);
    sim.run(stop);
    flights += check.flights;
    missed += check.negative;
    INFO("case " << n << ": lowest sampled gap " << check.lowest << " m");
    CHECK(check.negative == 0);
    // The same check sampled 2 % past each located contact does see the plate: it can fail.
    DimerEventDriven again(c);
    DenseFlightCheck overrun(c, 1.02);
    again.set_flight_log(&overrun);
    StopAfter stop_again(8);
    again.run(stop_again);
    if (overrun.negative > 0) ++cases_overrun;
  }
  INFO(flights << " flights ended in a contact");
  CHECK(missed == 0);
  CHECK(flights > 1000);
  CHECK(cases_overrun > 90);
}

TEST_CASE("event-driven dimer: restart_from a stroboscopic sample continues the same trajectory", "[dimer]") {
  struct Keep : StrobeObserver {
    int stop;
    std::vector<StrobeSample> samples;
    explicit Keep(int n) : stop(n) {}
    bool on_sample(const StrobeSample& s) override {
      samples.push_back(s);
      return s.period < stop;
    }
  };
  for (const char* A_r : {"3.9", "5.7"}) {  // the drift's contact phase slips (3.9) or sticks (5.7) at the samples
    const DimerConstants c = DimerConstants::from(dimer_values({{"A_r", A_r}}));
    DimerEventDriven original(c);
    Keep all(23);
    original.run(all);
    DimerEventDriven restarted(c);
    REQUIRE(restarted.restart_from(all.samples[19]));  // the sample of period 20
    Keep rest(23);
    restarted.run(rest);
    REQUIRE(rest.samples.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
      const StrobeSample& a = all.samples[20 + k];
      const StrobeSample& b = rest.samples[k];
      INFO("A_r " << A_r << ", period " << b.period);
      CHECK(b.period == a.period);
      CHECK(b.drift_position == Approx(a.drift_position).margin(1e-9));
      for (std::size_t i = 0; i < 5; ++i) CHECK(b.state[i] == Approx(a.state[i]).margin(1e-7 * (i < 2 ? 1e-3 : 1.0)));
      CHECK(b.counters[kImpactsTip2] == a.counters[kImpactsTip2]);
    }
  }
}
