// Traced vector fields (engine/hybrid_model/field_tape.hpp, tape_scalar.hpp): a mode's tape, run by
// the interpreter, gives the field's values and its automatic-differentiation jets to the bit, for
// the built-in models on the hybrid-model API, for every operation a field may use, for Eigen
// expressions; a field that branches on the state or leaves a component unset is refused by name.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <algorithm>
#include <vector>

#include "analysis/hybrid_model.hpp"
#include "engine/core/model_registry.hpp"
#include "engine/hybrid_model/field_tape.hpp"
#include "engine/hybrid_model/hybrid_description.hpp"
#include "support/model_fixture.hpp"

using namespace vibro;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// How many numbers of a tape's results differed in any bit from the callable's values (and the largest
// relative difference among them), and from the jets' values and derivatives.
struct Mismatches {
  int values = 0;
  double worst_relative = 0;
  int jets = 0;
};

// Compares mode m's tape with its callables at `points` random states and phases.
template <int N>
Mismatches tape_mismatches(const typename HybridDescription<N>::Mode& m, int points, double spread, std::uint32_t seed) {
  constexpr int M = N + 2;
  using Desc = HybridDescription<N>;
  const FieldTape tape = m.trace();
  REQUIRE(tape.inputs == M);
  REQUIRE(static_cast<int>(tape.outputs.size()) == N);
  const int ops = static_cast<int>(tape.ops.size());
  std::vector<double> slots(tape.ops.size()), values(tape.ops.size()), derivatives(tape.ops.size() * M),
      one_direction(tape.ops.size());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> state(-spread, spread), phase(0, 2 * M_PI);
  Mismatches count;
  for (int p = 0; p < points; ++p) {
    typename Desc::State x, dx;
    for (int i = 0; i < N; ++i) x[i] = state(rng);
    const double th = phase(rng);
    const Drive<double> drive{std::cos(th), std::sin(th)};
    m.field(x, drive, dx);
    double inputs[M];
    for (int i = 0; i < N; ++i) inputs[i] = x[i];
    inputs[N] = drive.cos;
    inputs[N + 1] = drive.sin;
    run_tape(tape.ops.data(), ops, inputs, slots.data());
    typename Desc::JetState jx, jdx;
    for (int i = 0; i < N; ++i) jx[i] = typename Desc::Jet(x[i], M, i);
    const Drive<typename Desc::Jet> jdrive{typename Desc::Jet(drive.cos, M, N), typename Desc::Jet(drive.sin, M, N + 1)};
    m.jet_field(jx, jdrive, jdx);
    run_tape_with_derivatives<M>(tape.ops.data(), ops, inputs, 0, values.data(), derivatives.data());
    for (int i = 0; i < N; ++i) {
      const auto out = static_cast<std::size_t>(tape.outputs[static_cast<std::size_t>(i)]);
      if (bits(slots[out]) != bits(dx[i])) {
        ++count.values;
        count.worst_relative = std::max(count.worst_relative, std::fabs(slots[out] - dx[i]) / std::fabs(dx[i]));
      }
      count.jets += bits(values[out]) != bits(jdx[i].value());
      for (int j = 0; j < M; ++j) count.jets += bits(derivatives[out * M + static_cast<std::size_t>(j)]) != bits(jdx[i].derivatives()[j]);
    }
    // One direction at a time (what a GPU thread runs): the same bits.
    for (int j = 0; j < M; ++j) {
      run_tape_with_derivatives<1>(tape.ops.data(), ops, inputs, j, values.data(), one_direction.data());
      for (int i = 0; i < N; ++i) {
        const auto out = static_cast<std::size_t>(tape.outputs[static_cast<std::size_t>(i)]);
        count.jets += bits(one_direction[out]) != bits(jdx[i].derivatives()[j]);
      }
    }
  }
  return count;
}

bool identical(const Mismatches& m) { return m.values == 0 && m.jets == 0; }

template <int N>
void check_model(const std::string& name, double spread) {
  const Model& model = ModelRegistry::instance().get(name);
  const auto* hybrid = dynamic_cast<const HybridModel<N>*>(&model);
  REQUIRE(hybrid != nullptr);
  const HybridDescription<N> d = hybrid->describe(test_support::parameter_values(model.parameters(), {}));
  for (std::size_t m = 0; m < d.modes().size(); ++m) {
    INFO(name << " mode " << d.modes()[m].name);
    CHECK(identical(tape_mismatches<N>(d.modes()[m], 300, spread, static_cast<std::uint32_t>(17 + m))));
  }
}

}  // namespace

TEST_CASE("Field tape: the built-in hybrid models' fields, traced, give their values and jets to the bit",
          "[field_tape]") {
  check_model<2>("impact_oscillator", 2.0);
  check_model<2>("dry_friction_oscillator", 2.0);
  check_model<4>("gap_oscillator_declared", 1e-2);
}

TEST_CASE("Field tape: every operation a field may use, in every mix of traced values and doubles",
          "[field_tape]") {
  HybridDescription<3> d;
  const double k = 0.37;
  d.mode("all", [k](const auto& x, const auto& drive, auto& dx) {
    using std::abs;
    using std::acos;
    using std::asin;
    using std::atan2;
    using std::cos;
    using std::cosh;
    using std::exp;
    using std::log;
    using std::pow;
    using std::sin;
    using std::sinh;
    using std::sqrt;
    using std::tan;
    using std::tanh;
    using Eigen::numext::abs2;
    using std::max;
    using std::min;
    // Held as the scalar type itself: a jet expression such as 1.5 + x0 x0 held in an `auto` keeps a
    // reference to a temporary (Eigen's AutoDiffScalar), which its next use reads after it is gone.
    using Scalar = typename std::decay_t<decltype(x)>::Scalar;
    const Scalar r = 1.5 + x[0] * x[0];  // > 0: for sqrt, log, pow
    const Scalar u = x[1] / (2.0 + abs(x[1]));  // in (-1, 1): for asin, acos
    // The accumulations go to dx's own entries: a jet expression held in an `auto` cannot be assigned.
    dx[0] = sqrt(r) + exp(x[2] * 0.1) - log(r) * k + pow(r, 1.7) + pow(r, 3);
    dx[0] += sin(x[0]) * cos(x[1]) - tan(0.3 * x[2]) + asin(u) - acos(u) / 3.0;
    dx[0] -= sinh(0.2 * x[0]) + cosh(0.1 * x[1]) * tanh(x[2]) + atan2(x[0], r);
    dx[0] *= 1.0 + 0.01 * drive.cos;
    dx[0] /= 2.0 + drive.sin * drive.sin;
    dx[0] += 1.0;
    dx[0] -= 0.5;
    dx[0] *= 1.25;
    dx[0] /= 0.75;
    dx[0] = dx[0] - 1.0 + (2.0 - x[1]) - (-x[2]) + 3.0 / r + r / 4.0;
    dx[1] = min(x[0], x[1]) + max(x[0], x[1]) + min(x[2], 0.1) + max(x[2], -0.1) + min(0.2, x[0]) + max(-0.2, x[1]);
    dx[2] = abs2(x[2]) + x[0] / x[1] + drive.cos * k + pow(r, 2) - pow(r, -1) + pow(r, 1) * pow(r, 0);
  });
  const Mismatches all = tape_mismatches<3>(d.modes()[0], 500, 1.0, 5);
  CHECK(all.values == 0);
  CHECK(all.jets == 0);
}

TEST_CASE("Field tape: Eigen expressions and a twelve-state chain trace to the jets' bits", "[field_tape]") {
  HybridDescription<6> matrix;
  Eigen::Matrix<double, 6, 6> A;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) A(i, j) = std::sin(1.0 + i + 7.0 * j);
  matrix.mode("linear", [A](const auto& x, const auto& drive, auto& dx) {
    dx = A * x;
    dx[5] += drive.sin * x.squaredNorm();
  });
  // The jets' bits; the double callable's to rounding only: Eigen evaluates a double product with
  // vector instructions, summing in another order than it does for any other scalar type.
  const Mismatches linear = tape_mismatches<6>(matrix.modes()[0], 200, 1.0, 9);
  CHECK(linear.jets == 0);
  CHECK(linear.worst_relative < 1e-13);

  constexpr int kBodies = 6;
  HybridDescription<2 * kBodies> chain;
  const double F = 0.8;
  chain.mode("free", [F](const auto& x, const auto& drive, auto& dx) {
    for (int i = 0; i < kBodies; ++i) {
      const auto left = i > 0 ? x[2 * i - 2] : 0 * x[0], right = i + 1 < kBodies ? x[2 * i + 2] : 0 * x[0];
      dx[2 * i] = x[2 * i + 1];
      dx[2 * i + 1] = left + right - 2 * x[2 * i] - 0.05 * x[2 * i + 1] + (i == 0 ? F : 0.0) * drive.cos;
    }
  });
  CHECK(identical(tape_mismatches<2 * kBodies>(chain.modes()[0], 200, 1.0, 11)));
}

TEST_CASE("Field tape: a field that branches on the state or leaves a component unset is refused by name",
          "[field_tape]") {
  HybridDescription<2> d;
  d.mode("branching", [](const auto& x, const auto&, auto& dx) {
    dx[0] = x[1];
    dx[1] = x[0] > 0 ? -x[0] : x[0];  // a piecewise force: not a tape
  });
  d.mode("unset", [](const auto& x, const auto&, auto& dx) { dx[0] = x[1]; });
  d.mode("constant", [](const auto&, const auto&, auto& dx) { dx.setZero(); });
  CHECK_THROWS_WITH(d.modes()[0].trace(), Catch::Contains("branch on the state") && Catch::Contains(">"));
  CHECK_THROWS_WITH(d.modes()[1].trace(), Catch::Contains("dx[1] unset"));
  const FieldTape constant = d.modes()[2].trace();
  double slots[8];
  const double inputs[4] = {1, 2, 1, 0};
  REQUIRE(constant.ops.size() <= 8);
  run_tape(constant.ops.data(), static_cast<int>(constant.ops.size()), inputs, slots);
  CHECK(slots[constant.outputs[0]] == 0.0);
  CHECK(slots[constant.outputs[1]] == 0.0);
}
