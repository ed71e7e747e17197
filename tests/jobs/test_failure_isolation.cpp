// A case that fails numerically is recorded with its reason; the sweep goes on and completes.
#include <catch2/catch.hpp>
#include <string>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

TEST_CASE("failing cases are recorded with their reason and the sweep completes", "[jobs]") {
  // An event cap of 10 per period fails every case with a microthrow sequence (about 30 impacts),
  // and leaves hopping and permanent-contact cases alone. Infeasible first impacts are their own status.
  const std::string ini =
      "model = conveyor\n[numerics]\nevent_cap = 10\n[axes]\na_hat = 30, 40, 50, 60, 80\nz0 = 0, 0.002\n";
  const SweepSpec spec = parse_sweep(ini, "failing.ini", {});
  const SweepRun run = run_sweep(spec);
  int ok = 0, failed = 0;
  for (const auto& c : run.cases) {
    REQUIRE(c.status != CaseStatus::NotRun);
    if (c.status == CaseStatus::Failed) {
      ++failed;
      CHECK(c.reason.find("events in one period") != std::string::npos);
      CHECK(c.class_code.empty());
    } else {
      ++ok;
      CHECK(c.reason.empty());
    }
  }
  CHECK(failed >= 3);
  CHECK(ok >= 3);

  const std::string first_impact =
      "model = conveyor\n[initial]\nstart = first_impact\nv1 = 0.001\n[axes]\npsi1 = 0, 180\n";
  const SweepRun infeasible = run_sweep(parse_sweep(first_impact, "infeasible.ini", {}));
  CHECK(infeasible.cases[0].status == CaseStatus::Ok);
  CHECK(infeasible.cases[1].status == CaseStatus::Infeasible);  // the plate recedes faster than v1
  CHECK(infeasible.cases[1].reason.find("no impact") != std::string::npos);
}
