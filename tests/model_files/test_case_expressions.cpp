// A model file's expressions for one case (model_files/case_expression.hpp): the parameters fold,
// the rest compiles to the tape's operations in a C++ field's order, and the program runs on doubles
// and jets with the same values; guards' affine coefficients; forcing terms with a phase.
#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <cmath>
#include <unsupported/Eigen/AutoDiff>

#include "engine/hybrid_model/drive.hpp"
#include "model_files/case_expression.hpp"
#include "model_files/model_file_parser.hpp"
#include "model_files/run_program.hpp"

namespace vibro::model_file {
namespace {

const char* kFile = R"(model demo: a demo
param zeta = 0.1
param omega = 0.8
param F = 2
state x = 0
state v = 0
period 2*pi/omega
mode free
  x' = -x^2 + 2*3 - 2^3^2
  v' = cos(omega*t) - 2*zeta*v - x
  switch go: F*cos(omega*t) - x falls below -zeta -> free
mode phased
  x' = sin(omega*t + 0.3) + min(x, 1) + max(2, v)
  v' = 0
)";

struct Demo {
  ModelFileSpec spec = parse_model_file(kFile, "demo.vibro");
  CaseValues c{{0.1, 0.8, 2.0}, 0.8, 2};
  Program field(int mode, int i) const { return compile(*spec.modes[mode].fields[i], c, spec.file); }
};

struct Drive2 {
  double cos, sin;
};

TEST_CASE("model file: expressions fold the parameters and keep the order of a C++ field", "[model_files]") {
  const Demo d;
  Eigen::Vector2d x(1.5, -0.25);
  const Drive2 drive{std::cos(0.7), std::sin(0.7)};
  // -(x^2) + 6 - 2^(3^2): right-associative ^, unary minus below ^, constants folded.
  CHECK(run_program<double>(d.field(0, 0), x, drive) == -2.25 + 6 - 512);
  // cos(omega t) - 2 zeta v - x as drive.cos - (2 * zeta) * v - x: Input(cos), Input(v), MulC 0.2, Sub, Input(x), Sub.
  const Program p = d.field(0, 1);
  REQUIRE(p.ops.size() == 6);
  CHECK(p.ops[0].code == TapeCode::Input);
  CHECK(p.ops[0].constant == 2);
  CHECK(p.ops[2].code == TapeCode::MulC);
  CHECK(p.ops[2].constant == 2 * 0.1);
  CHECK(run_program<double>(p, x, drive) == drive.cos - 2 * 0.1 * x[1] - x[0]);
  // A constant field is one Constant op.
  REQUIRE(d.field(1, 1).ops.size() == 1);
  CHECK(run_program<double>(d.field(1, 1), x, drive) == 0);
}

TEST_CASE("model file: a forcing term with a phase, min and max, on doubles and jets", "[model_files]") {
  const Demo d;
  const Program p = d.field(1, 0);
  Eigen::Vector2d x(1.5, -0.25);
  const Drive2 drive{std::cos(0.7), std::sin(0.7)};
  const double expected = std::sin(0.7 + 0.3) + 1 + 2;
  CHECK(run_program<double>(p, x, drive) == Approx(expected).epsilon(1e-15));
  using Jet = Eigen::AutoDiffScalar<Eigen::Matrix<double, 4, 1>>;
  Eigen::Matrix<Jet, 2, 1> jx;
  jx[0] = Jet(0.5, 4, 0);  // min(x, 1) = x here: d/dx = 1
  jx[1] = Jet(3.0, 4, 1);  // max(2, v) = v here: d/dv = 1
  const Drive<Jet> jd{Jet(drive.cos, 4, 2), Jet(drive.sin, 4, 3)};
  const Jet j = run_program<Jet>(p, jx, jd);
  CHECK(j.value() == Approx(std::sin(1.0) + 0.5 + 3).epsilon(1e-15));
  CHECK(j.derivatives()[0] == 1);
  CHECK(j.derivatives()[1] == 1);
  CHECK(j.derivatives()[2] == Approx(std::sin(0.3)).epsilon(1e-15));  // sin(wt + p) = sin p cos wt + cos p sin wt
  CHECK(j.derivatives()[3] == Approx(std::cos(0.3)).epsilon(1e-15));
}

TEST_CASE("model file: a guard's affine coefficients", "[model_files]") {
  const Demo d;
  const AffineCoefficients a = affine_coefficients(d.spec.guards[0].function, d.c, d.spec.file);
  // F cos(wt) - x - (-zeta), exactly as a C++ SwitchGuard writes it: a = (-1, 0), a_cos = F, b = zeta.
  CHECK(a.a == std::vector<double>{-1, 0});
  CHECK(a.a_cos == 2);
  CHECK(a.a_sin == 0);
  CHECK(a.b == 0.1);
}

}  // namespace
}  // namespace vibro::model_file
