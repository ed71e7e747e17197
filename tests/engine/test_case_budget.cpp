// The per-case work budget: each bound (steps and events per period and in total, wall seconds)
// ends a case with BudgetExceeded naming what ran out; a period mark restarts the per-period counts;
// the engine's integrators charge it only while a budget is installed for the thread.
#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <chrono>
#include <string>
#include <thread>

#include "engine/core/case_budget.hpp"
#include "engine/hybrid/hybrid_integrator.hpp"

using Catch::Matchers::Contains;
using vibro::BudgetExceeded;
using vibro::BudgetLimit;
using vibro::CaseBudget;
using vibro::CaseLimits;

namespace {

CaseLimits roomy() {
  CaseLimits limits;
  limits.wall_seconds = 1e6;
  limits.steps_per_period = limits.events_per_period = limits.steps = limits.events = 1'000'000;
  return limits;
}

// Charges steps until the budget throws; returns the limit it names and how many steps were charged.
std::pair<BudgetLimit, long> steps_until_exceeded(CaseBudget& budget, long at_most, std::string* message = nullptr) {
  for (long n = 1; n <= at_most; ++n) {
    try {
      budget.charge_step();
    } catch (const BudgetExceeded& e) {
      if (message) *message = e.what();
      return {e.limit(), n};
    }
  }
  FAIL("no BudgetExceeded after " << at_most << " steps");
  return {BudgetLimit::Steps, 0};
}

// The budget runs out at the `steps`-th step from now, on `limit`.
void check_exceeded_at(CaseBudget& budget, BudgetLimit limit, long steps) {
  const auto [found, at] = steps_until_exceeded(budget, 10 * steps);
  CHECK(found == limit);
  CHECK(at == steps);
}

// A ball bouncing on a floor with restitution 1: one event per flight, no end.
struct Bouncer {
  using State = Eigen::Matrix<double, 2, 1>;
  void rhs(double, const State& x, State& dx) const { dx << x[1], -9.81; }
  int guards(vibro::AffineGuard<2>* out) const {
    out[0].a << 1, 0;
    out[0].b = 0;
    out[0].crossing = vibro::Crossing::Falling;
    return 1;
  }
  bool on_events(double, State& x, const vibro::EventHit*, int) {
    x[0] = 0;
    x[1] = -x[1];
    return true;
  }
  void observe(const vibro::DenseStep<2>&, double) {}
};

}  // namespace

TEST_CASE("a budget ends a case at the first charge past each bound, naming the bound", "[engine][budget]") {
  SECTION("steps per period") {
    CaseLimits limits = roomy();
    limits.steps_per_period = 100;
    CaseBudget budget(limits);
    std::string message;
    const auto [limit, steps] = steps_until_exceeded(budget, 1000, &message);
    CHECK(limit == BudgetLimit::StepsPerPeriod);
    CHECK(steps == 101);
    CHECK_THAT(message, Contains("101 integration steps in one period (period 1)") && Contains("100 allowed"));
  }
  SECTION("a period mark restarts the per-period count, not the total") {
    CaseLimits limits = roomy();
    limits.steps_per_period = 100;
    limits.steps = 250;
    CaseBudget budget(limits);
    for (int period = 0; period < 2; ++period) {
      for (int i = 0; i < 100; ++i) budget.charge_step();
      budget.begin_periods(1);
    }
    CHECK(budget.peak_steps_per_period() == 100);
    check_exceeded_at(budget, BudgetLimit::Steps, 51);
  }
  SECTION("a stretch of k periods is allowed k times the per-period bound") {
    CaseLimits limits = roomy();
    limits.steps_per_period = 10;
    CaseBudget budget(limits);
    budget.begin_periods(7);
    check_exceeded_at(budget, BudgetLimit::StepsPerPeriod, 71);
  }
  SECTION("events per period and in total") {
    CaseLimits limits = roomy();
    limits.events_per_period = 5;
    limits.events = 12;
    CaseBudget budget(limits);
    budget.charge_events(5);
    REQUIRE_THROWS_MATCHES(budget.charge_events(1), BudgetExceeded, Catch::Matchers::Message(
        "case budget: 6 events in one period (period 1), more than the 5 allowed"));
    CaseBudget total(limits);
    for (int p = 0; p < 2; ++p) {
      total.charge_events(5);
      total.begin_periods(1);
    }
    total.charge_events(2);
    try {
      total.charge_events(1);
      FAIL("13 events passed a total of 12");
    } catch (const BudgetExceeded& e) {
      CHECK(e.limit() == BudgetLimit::Events);
    }
  }
  SECTION("wall-clock seconds") {
    CaseLimits limits = roomy();
    limits.wall_seconds = 0.02;
    CaseBudget budget(limits);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    // The clock is read every 1024 charges (and at the first charge after a period mark).
    const auto [limit, steps] = steps_until_exceeded(budget, 2048);
    CHECK(limit == BudgetLimit::WallSeconds);
    CHECK(steps <= 1024);
  }
}

TEST_CASE("the event-driven integrator charges the installed budget and only it", "[engine][budget]") {
  Bouncer bouncer;
  Bouncer::State x;
  x << 1.0, 0.0;
  SECTION("no budget installed: a long run is not bounded") {
    vibro::HybridIntegrator<2> integrator;
    double t = 0;
    CHECK(integrator.advance(bouncer, t, x, 100.0));
    CHECK(integrator.stats().events > 100);
  }
  SECTION("installed: the events of one period stop at the bound, with a BudgetExceeded") {
    CaseLimits limits = roomy();
    limits.events_per_period = 20;  // a bounce every 0.9 s: 20 within 18 s
    CaseBudget budget(limits);
    const vibro::ActiveBudget active(budget);
    vibro::HybridIntegrator<2> integrator;
    double t = 0;
    try {
      integrator.advance(bouncer, t, x, 100.0);
      FAIL("the run passed 20 events");
    } catch (const BudgetExceeded& e) {
      CHECK(e.limit() == BudgetLimit::EventsPerPeriod);
    }
    CHECK(budget.events() == 21);
    CHECK(t < 20.0);
    CHECK(budget.steps() > 0);  // every DOPRI5 attempt is charged too
  }
}
