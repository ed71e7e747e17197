// The dimer's drift and modes against the report (Liu, Zhao and Brogliato 2008: R3, R4, R5, R6, R13,
// R16; drift measured relative to the bouncing end) and the wrong sign of the total-impulse Moreau-Jean alternative (a scheme the prototype showed to fail).
#include <catch2/catch.hpp>

#include "dimer/dimer_fixture.hpp"
#include "engine/core/input_error.hpp"

using namespace vibro;
using namespace vibro::dimer::testing;

TEST_CASE("R3: drift A (A_r 3.9 and mu_i = mu_c = 0.12) drifts forward at +3.3 mm/s +- 30 %", "[dimer]") {
  const CaseResult r = run_dimer({{"A_r", "3.9"}, {"mu_i", "0.12"}});
  require_ok(r);
  INFO("class " << r.class_code << ", drift " << observable(r, "drift_speed_rel") << " mm/s");
  CHECK(r.class_code.rfind("D+", 0) == 0);
  CHECK(observable(r, "drift_speed_rel") == Approx(3.3).epsilon(0.30));
  // Ball 1 stays, ball 2 bounces once per cycle (the report's drift pattern).
  CHECK(observable(r, "impacts_tip2") == 1.0);
  CHECK(observable(r, "contact_fraction_tip1") > 0.3);
  CHECK(observable(r, "contact_fraction_tip2") == 0.0);
}

TEST_CASE("R5: drift A' (A_r 3.9 and mu_i 0.08) drifts forward at +8.7 mm/s +- 25 %", "[dimer]") {
  const CaseResult r = run_dimer({{"A_r", "3.9"}});
  require_ok(r);
  INFO("class " << r.class_code << ", drift " << observable(r, "drift_speed_rel") << " mm/s");
  CHECK(r.class_code.rfind("D+", 0) == 0);
  CHECK(observable(r, "drift_speed_rel") == Approx(8.7).epsilon(0.25));
  CHECK(observable(r, "kappa_rel") == Approx(2.22).epsilon(0.25));
}

TEST_CASE("R6 and R4: drift B' (A_r 5.7) drifts backward at -6.7 mm/s +- 25 % for mu_i 0.08 and 0.12", "[dimer]") {
  for (const char* mu_i : {"0.08", "0.12"}) {
    const CaseResult r = run_dimer({{"A_r", "5.7"}, {"mu_i", mu_i}});
    require_ok(r);
    INFO("mu_i " << mu_i << ": class " << r.class_code << ", drift " << observable(r, "drift_speed_rel") << " mm/s");
    CHECK(r.class_code.rfind("D-", 0) == 0);
    CHECK(observable(r, "drift_speed_rel") == Approx(-6.7).epsilon(0.25));
  }
}

TEST_CASE("relative drift: the mirrored start (theta0 = -5 deg) drifts the other way, relative drift unchanged", "[dimer]") {
  const CaseResult plus = run_dimer({{"A_r", "3.9"}, {"theta0", "5"}});
  const CaseResult minus = run_dimer({{"A_r", "3.9"}, {"theta0", "-5"}});
  require_ok(plus);
  require_ok(minus);
  CHECK(observable(minus, "drift_speed") == Approx(-observable(plus, "drift_speed")).epsilon(0.02));
  CHECK(observable(minus, "drift_speed_rel") == Approx(observable(plus, "drift_speed_rel")).epsilon(0.02));
  CHECK(observable(minus, "mean_theta") < 0);
}

TEST_CASE("total-impulse Newton + Coulomb impacts give the wrong drift sign at A_r 3.9", "[dimer]") {
  // Kept as an option only to show this: the report (and the impulse-domain solver) drift forward.
  const CaseResult r = run_dimer({{"A_r", "3.9"}, {"impact_law", "total"}});
  require_ok(r);
  INFO("class " << r.class_code << ", drift " << observable(r, "drift_speed_rel") << " mm/s");
  CHECK(observable(r, "drift_speed_rel") < -5.0);
}

TEST_CASE("R13: at Gamma 0.2 the dimer comes to rest on the plate", "[dimer]") {
  const CaseResult r = run_dimer({{"Gamma", "0.2"}, {"theta0", "12"}}, 60, 20);
  require_ok(r);
  CHECK(r.class_code.rfind("R", 0) == 0);
  CHECK(observable(r, "impacts_per_cycle") == 0);
  CHECK(observable(r, "contact_fraction_tip1") == 1.0);
  CHECK(observable(r, "contact_fraction_tip2") == 1.0);
}

TEST_CASE("R16: at Gamma 1.4 (h0 0.25 mm and theta0 5 deg) both ends hop about 0.2 mm every cycle", "[dimer]") {
  const CaseResult r = run_dimer({{"Gamma", "1.4"}, {"theta0", "5"}});
  require_ok(r);
  INFO("class " << r.class_code);
  CHECK(r.class_code.rfind("H", 0) == 0);
  CHECK(observable(r, "max_hop_tip1") == Approx(0.2).epsilon(0.3));
  CHECK(observable(r, "max_hop_tip2") == Approx(0.2).epsilon(0.3));
  CHECK(observable(r, "contact_fraction") < 0.5);  // it does not rest permanently
}

TEST_CASE("R16 contact time: the flat hop lands on both tips at once, and Moreau-Jean's contact time falls towards the event-driven one as its step is halved", "[dimer]") {
  // After a double-contact detachment the dimer flies flat (theta = thetadot = 0), so it lands on both
  // tips at the same instant: one double impact, which keeps it flat. Resolved as two single impacts
  // in turn it would rock (and spend longer on the plate, 8.5 % of the period).
  const CaseResult event_driven = run_dimer({{"Gamma", "1.4"}, {"theta0", "5"}});
  const CaseResult mj4000 = run_dimer({{"Gamma", "1.4"}, {"theta0", "5"}, {"integrator", "moreau_jean"}});
  const CaseResult mj8000 =
      run_dimer({{"Gamma", "1.4"}, {"theta0", "5"}, {"integrator", "moreau_jean"}, {"steps_per_period", "8000"}});
  for (const CaseResult* r : {&event_driven, &mj4000, &mj8000}) require_ok(*r);
  const double ed = observable(event_driven, "contact_fraction");
  const double c4 = observable(mj4000, "contact_fraction"), c8 = observable(mj8000, "contact_fraction");
  INFO("contact fraction: event-driven " << ed << ", Moreau-Jean T/4000 " << c4 << ", T/8000 " << c8);
  CHECK(observable(event_driven, "double_impacts") == observable(event_driven, "impacts_tip1"));
  CHECK(observable(event_driven, "double_impacts") == observable(event_driven, "impacts_tip2"));
  CHECK(observable(event_driven, "max_theta") < 1e-6);
  CHECK(observable(event_driven, "contact_fraction_tip1") == observable(event_driven, "contact_fraction_tip2"));
  // Measured: 0.0242 event-driven; 0.0497, 0.0384, 0.0322, 0.0284 at T/4000 ... T/32000 (first order).
  CHECK(ed == Approx(0.0242).margin(0.002));
  CHECK(c4 > c8);
  CHECK(c8 > ed);
  CHECK(c8 - ed < 0.7 * (c4 - ed));
}

TEST_CASE("bad dimer parameters are rejected with the key and the accepted range", "[dimer]") {
  const Model& model = ModelRegistry::instance().get("dimer");
  CHECK_THROWS_AS(model.validate(dimer_values({{"mu_c", "0.3"}})), InputError);
  CHECK_THROWS_AS(model.validate(dimer_values({{"mu_i", "0.25"}})), InputError);
  CHECK_THROWS_WITH(dimer_values({{"A_r", "1.5"}}), Catch::Contains("A_r") && Catch::Contains("[2, 20]"));
  CHECK_NOTHROW(model.validate(dimer_values({})));
}

TEST_CASE("R8: at 25 Hz the drift reverses between A_r 4.8 and 5.2 and vanishes beyond 6.2 (pendulum)", "[dimer]") {
  const CaseResult forward = run_dimer({{"A_r", "4.8"}});
  const CaseResult backward = run_dimer({{"A_r", "5.2"}});
  const CaseResult pendulum = run_dimer({{"A_r", "6.4"}});
  for (const CaseResult* r : {&forward, &backward, &pendulum}) require_ok(*r);
  INFO("kappa_rel: 4.8 -> " << observable(forward, "kappa_rel") << ", 5.2 -> " << observable(backward, "kappa_rel")
                            << ", 6.4 -> " << observable(pendulum, "kappa_rel"));
  CHECK(observable(forward, "kappa_rel") > 0.5);
  CHECK(observable(backward, "kappa_rel") < -0.5);
  CHECK(std::abs(observable(pendulum, "kappa_rel")) < 0.05);
  CHECK(pendulum.class_code.rfind("P", 0) == 0);
  CHECK(observable(pendulum, "impacts_tip2") == 1.0);  // the free end still hits once per cycle
}

TEST_CASE("a dimer dropped on a still plate (Gamma = 0) chatters to rest instead of failing", "[dimer]") {
  const CaseResult r = run_dimer({{"Gamma", "0"}, {"h0", "0.001"}, {"theta0", "10"}}, 40, 10);
  require_ok(r);
  CHECK(r.class_code.rfind("R", 0) == 0);
  CHECK(observable(r, "contact_fraction_tip1") == 1.0);
  CHECK(observable(r, "contact_fraction_tip2") == 1.0);
}

TEST_CASE("the Moreau-Jean scheme stays selectable and agrees with the event-driven default on R5 within 1 %", "[dimer]") {
  const CaseResult event_driven = run_dimer({{"A_r", "3.9"}});
  const CaseResult moreau_jean = run_dimer({{"A_r", "3.9"}, {"integrator", "moreau_jean"}});
  require_ok(event_driven);
  require_ok(moreau_jean);
  INFO("event-driven " << observable(event_driven, "drift_speed_rel") << " mm/s, Moreau-Jean "
                       << observable(moreau_jean, "drift_speed_rel") << " mm/s");
  CHECK(moreau_jean.class_code.rfind("D+", 0) == 0);
  // Measured: 8.471 (event-driven) against 8.421 at T/4000 and 8.438 at T/8000: the fixed step's
  // error, shrinking towards the event-driven value as the step is halved.
  CHECK(observable(moreau_jean, "drift_speed_rel") == Approx(observable(event_driven, "drift_speed_rel")).epsilon(0.01));
}
