// Model A through the hybrid-model API (models/gap_oscillator_declared) against the built-in
// gap_oscillator with rigid impacts: the same sweep files give the same grazing thresholds (upward and
// downward continuation), loading-curve values (elastic, inelastic, and plastic chatter that ends in
// sticking and release) and Floquet multipliers, to 1e-6.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "jobs/sweep/sweep_runner.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

namespace {

struct Row {
  double lambda;
  std::string cls;
  double A1, A2, impacts;
  std::vector<std::complex<double>> floquet;
};

std::size_t observable(const Model& model, const std::string& name) {
  const auto specs = model.observables();
  const auto it = std::find_if(specs.begin(), specs.end(), [&](const ObservableSpec& s) { return s.name == name; });
  REQUIRE(it != specs.end());
  return static_cast<std::size_t>(it - specs.begin());
}

// The sweep on one model; the built-in one reads law = restitution, the declared one has only that.
std::vector<Row> sweep(bool declared, const std::string& body) {
  const std::string ini = std::string("model = ") + (declared ? "gap_oscillator_declared" : "gap_oscillator") +
                          "\n[numerics]\nv_eps = 1e-6\n" + body;
  const SweepSpec spec = parse_sweep(ini, "model_a.ini", declared ? std::vector<std::string>{}
                                                                  : std::vector<std::string>{"--parameters.law=restitution"});
  const std::size_t a1 = observable(*spec.model, declared ? "amplitude_x1" : "A1_pp");
  const std::size_t a2 = observable(*spec.model, declared ? "amplitude_u2" : "A2_pp");
  const std::size_t n = observable(*spec.model, "impacts_per_period");
  const SweepRun run = run_sweep(spec);
  std::vector<Row> rows;
  for (long long i = 0; i < spec.case_count(); ++i) {
    const auto& r = run.cases[static_cast<std::size_t>(i)];
    REQUIRE(r.status == CaseStatus::Ok);
    auto mu = r.floquet;
    std::sort(mu.begin(), mu.end(), [](auto a, auto b) { return a.real() != b.real() ? a.real() > b.real() : a.imag() > b.imag(); });
    rows.push_back({spec.case_parameters(i).get("lambda"), r.class_code, r.observables[a1], r.observables[a2],
                    r.observables[n], mu});
  }
  return rows;
}

// Both models on one sweep, row by row.
struct Pair {
  std::vector<Row> built_in, declared;
};
Pair both(const std::string& body) {
  Pair p{sweep(false, body), sweep(true, body)};
  REQUIRE(p.built_in.size() == p.declared.size());
  return p;
}

double first_impacting(const std::vector<Row>& rows) {
  for (const auto& row : rows)
    if (row.impacts > 0) return row.lambda;
  return NAN;
}

const char* kRun = "[run]\nmax_periods = 600\nwindow_periods = 20\n";

}  // namespace

TEST_CASE("declared Model A: grazing thresholds of up and down continuation equal the built-in's to 1e-6",
          "[gap_oscillator_declared]") {
  // Upward from the non-impacting branch (lambda = 0.55, below the coexistence of impacting orbits)
  // to where it grazes, lambda = 0.5670 (closed form), then on a 2e-6 grid around that.
  std::string lambdas = "0.55, 0.555, 0.56, 0.565, 0.566";
  for (int i = 0; i <= 100; ++i) lambdas += ", " + std::to_string(0.5669 + 2e-6 * i);
  const Pair up = both("[parameters]\ne = 1\n[axes]\nlambda = " + lambdas + "\n" + kRun + "continuation = lambda\ndirection = up\n");
  const double up_built_in = first_impacting(up.built_in), up_declared = first_impacting(up.declared);
  INFO("upward grazing: built-in " << up_built_in << ", declared " << up_declared);
  CHECK(up_built_in > 0.5669);  // on the fine grid, not an impacting transient from a coarse step
  CHECK(up_built_in == Approx(0.5670).margin(1e-4));
  CHECK(std::fabs(up_declared - up_built_in) <= 1e-6);
  // Downward: the impacting orbit (e = 0.5) persists below grazing; where it ends is the second threshold.
  const Pair down = both(std::string("[parameters]\ne = 0.5\n[axes]\nlambda = range(0.545, 0.575, 0.0005)\n") + kRun +
                         "continuation = lambda\ndirection = down\n");
  for (std::size_t i = 0; i < down.built_in.size(); ++i) {
    INFO("lambda " << down.built_in[i].lambda);
    CHECK(down.declared[i].impacts == down.built_in[i].impacts);
  }
}

TEST_CASE("declared Model A: loading-curve values equal the built-in's to 1e-6 (e = 1, 0.5, plastic chatter)",
          "[gap_oscillator_declared]") {
  for (const char* e : {"1", "0.5", "0.1"}) {
    const Pair p = both(std::string("[parameters]\ne = ") + e + "\n[axes]\nlambda = 0.6, 1.0, 2.0, 3.0\n" + kRun +
                        "continuation = lambda\n");
    for (std::size_t i = 0; i < p.built_in.size(); ++i) {
      const Row &b = p.built_in[i], &d = p.declared[i];
      INFO("e = " << e << ", lambda = " << b.lambda << ": A1 " << b.A1 << " vs " << d.A1 << ", A2 " << b.A2 << " vs " << d.A2);
      CHECK(d.cls == b.cls);
      CHECK(d.impacts == b.impacts);
      CHECK(std::fabs(d.A1 - b.A1) <= 1e-6 * std::fabs(b.A1));
      CHECK(std::fabs(d.A2 - b.A2) <= 1e-6 * std::fabs(b.A2));
    }
  }
}

TEST_CASE("declared Model A: plastic chatter from rest sticks, releases and impacts as the built-in's",
          "[gap_oscillator_declared]") {
  // From rest at lambda = 3, e = 0.1: chatter ending in sticking and a release every period, (1,7).
  const Pair p = both(std::string("[parameters]\ne = 0.1\nlambda = 3\n") + kRun);
  const Row &b = p.built_in[0], &d = p.declared[0];
  CHECK(b.cls == "(1,7)");
  CHECK(d.cls == b.cls);
  CHECK(d.impacts == b.impacts);
  CHECK(std::fabs(d.A1 - b.A1) <= 1e-6 * std::fabs(b.A1));
  CHECK(std::fabs(d.A2 - b.A2) <= 1e-6 * std::fabs(b.A2));
}

TEST_CASE("declared Model A: Floquet multipliers equal the built-in's to 1e-6", "[gap_oscillator_declared][floquet]") {
  for (const char* e : {"1", "0.5"}) {
    const Pair p = both(std::string("[parameters]\nlambda = 1\ne = ") + e + "\n" + kRun + "[output]\nfloquet = true\n");
    const auto &b = p.built_in[0].floquet, &d = p.declared[0].floquet;
    INFO("e = " << e);
    REQUIRE(b.size() == 4);
    REQUIRE(d.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      INFO("multiplier " << i << ": " << b[i] << " vs " << d[i]);
      CHECK(std::abs(d[i] - b[i]) <= 1e-6);
    }
  }
}
