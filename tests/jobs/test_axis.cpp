// Sweep axes: the values of linspace / logspace / range / explicit lists, and the InputError (naming
// the key) for malformed axis text.
#include <catch2/catch.hpp>

#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/axis.hpp"

using Catch::Matchers::Contains;
using vibro::Axis;
using vibro::parse_axis;

namespace {

Axis axis(const std::string& expression) { return parse_axis("a_hat", expression, "axes.a_hat"); }

// The message of the InputError that parse_axis throws; fails the test on no throw or another type.
std::string axis_error(const std::string& expression) {
  try {
    const Axis a = axis(expression);
    FAIL("axis '" << expression << "' was accepted with " << a.values.size() << " value(s); expected an InputError");
  } catch (const vibro::InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("axis '" << expression << "' threw a non-InputError: " << e.what());
  }
  return {};
}

}  // namespace

TEST_CASE("axis: linspace gives n equally spaced values including both ends", "[jobs][axis]") {
  SECTION("linspace(30, 80, 51) is 30, 31, ..., 80") {
    const Axis a = axis("linspace(30, 80, 51)");
    REQUIRE(a.values.size() == 51);
    for (std::size_t i = 0; i < a.values.size(); ++i) CHECK(a.values[i] == 30.0 + static_cast<double>(i));
  }
  SECTION("linspace(0, 1, 5)") {
    CHECK(axis("linspace(0, 1, 5)").values == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  }
  SECTION("decreasing") {
    CHECK(axis("linspace(1, -1, 3)").values == std::vector<double>{1, 0, -1});
  }
  SECTION("the last value is b exactly") {
    const Axis a = axis("linspace(0, 0.005, 21)");
    REQUIRE(a.values.size() == 21);
    CHECK(a.values.front() == 0.0);
    CHECK(a.values.back() == 0.005);
    CHECK(a.values[4] == Approx(0.001).epsilon(1e-14));
  }
  SECTION("n = 1 is the single value a") {
    CHECK(axis("linspace(7, 9, 1)").values == std::vector<double>{7});
  }
  SECTION("spaces and tabs around the arguments") {
    CHECK(axis("  linspace( 0 ,\t2 , 3 )  ").values == std::vector<double>{0, 1, 2});
  }
}

TEST_CASE("axis: logspace gives n geometrically spaced values from a to b", "[jobs][axis]") {
  SECTION("logspace(1, 1000, 4) is 1, 10, 100, 1000") {
    const Axis a = axis("logspace(1, 1000, 4)");
    REQUIRE(a.values.size() == 4);
    CHECK(a.values[0] == 1.0);
    CHECK(a.values[1] == Approx(10).epsilon(1e-14));
    CHECK(a.values[2] == Approx(100).epsilon(1e-14));
    CHECK(a.values[3] == Approx(1000).epsilon(1e-14));
  }
  SECTION("logspace(0.1, 10, 3): a and b are values, not exponents") {
    const Axis a = axis("logspace(0.1, 10, 3)");
    REQUIRE(a.values.size() == 3);
    CHECK(a.values[0] == 0.1);
    CHECK(a.values[1] == Approx(1).epsilon(1e-14));
    CHECK(a.values[2] == Approx(10).epsilon(1e-14));
  }
  SECTION("n = 1") { CHECK(axis("logspace(3, 30, 1)").values == std::vector<double>{3}); }
}

TEST_CASE("axis: range(a, b, step) runs from a to b inclusive in steps", "[jobs][axis]") {
  SECTION("exact end point") {
    CHECK(axis("range(0, 1, 0.25)").values == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  }
  SECTION("an end point that is not on the grid is not reached") {
    CHECK(axis("range(0, 1, 0.3)").values == std::vector<double>{0, 0.3, 2 * 0.3, 3 * 0.3});
  }
  SECTION("an end point on the grid up to rounding is included: 0.3 / 0.1 < 3 in binary") {
    const Axis a = axis("range(0, 0.3, 0.1)");
    REQUIRE(a.values.size() == 4);
    CHECK(a.values[3] == Approx(0.3).epsilon(1e-14));
  }
  SECTION("integers") {
    CHECK(axis("range(40, 70, 10)").values == std::vector<double>{40, 50, 60, 70});
  }
  SECTION("negative step") {
    CHECK(axis("range(1, 0, -0.25)").values == std::vector<double>{1, 0.75, 0.5, 0.25, 0});
  }
  SECTION("a == b is one value") { CHECK(axis("range(2, 2, 1)").values == std::vector<double>{2}); }
}

TEST_CASE("axis: an explicit list keeps its values and order", "[jobs][axis]") {
  CHECK(axis("40, 50, 70").values == std::vector<double>{40, 50, 70});
  CHECK(axis("70,40,50").values == std::vector<double>{70, 40, 50});
  CHECK(axis("1e-3, -2.5 ,\t3").values == std::vector<double>{0.001, -2.5, 3});
  CHECK(axis("0.002").values == std::vector<double>{0.002});
}

TEST_CASE("axis: name and expression are kept for provenance", "[jobs][axis]") {
  const Axis a = parse_axis("z0", "  linspace(0, 0.005, 21) ", "axes.z0");
  CHECK(a.name == "z0");
  CHECK(a.expression == "linspace(0, 0.005, 21)");
}

TEST_CASE("axis: malformed text is an InputError that names the key", "[jobs][axis]") {
  // Every one of these must be rejected, with "axes.a_hat" in the message.
  const std::vector<std::string> malformed = {
      "",                       // no values
      "   ",                    // no values
      "linspace(1, 2)",         // two arguments
      "linspace(1, 2, 3, 4)",   // four arguments
      "linspace(0, 1, 2.5)",    // non-integer count
      "linspace(0, 1, 0)",      // no values
      "linspace(0, 1, -3)",     // negative count
      "linspace(0, 1, 2e9)",    // absurd count
      "linspace(0, 1, x)",      // non-number
      "linspace(0, 1, 3",       // missing ')'
      "linspace(0, 1, 3) 4",    // trailing text
      "logspace(0, 10, 3)",     // a <= 0
      "logspace(1, -10, 3)",    // b <= 0
      "range(0, 1, 0)",         // zero step
      "range(0, 1, -0.1)",      // step of the wrong sign
      "range(1, 0, 0.1)",       // step of the wrong sign
      "range(0, 1e12, 1)",      // absurd count
      "geomspace(1, 10, 3)",    // unknown function
      "(1, 2, 3)",              // no function name
      "1, two, 3",              // non-number in a list
      "1,,2",                   // empty item
      "40 50",                  // missing comma
      "nan",                    // not finite
      "1, inf",                 // not finite
  };
  for (const auto& text : malformed) {
    INFO("axis text: '" << text << "'");
    CHECK_THAT(axis_error(text), Contains("axes.a_hat"));
  }
}

TEST_CASE("axis: error messages say what is accepted", "[jobs][axis]") {
  CHECK_THAT(axis_error("geomspace(1, 10, 3)"), Contains("geomspace") && Contains("linspace") &&
                                                    Contains("logspace") && Contains("range"));
  CHECK_THAT(axis_error("linspace(1, 2)"), Contains("3 arguments"));
  CHECK_THAT(axis_error("linspace(0, 1, 3"), Contains("')'"));
  CHECK_THAT(axis_error("1, two, 3"), Contains("'two'") && Contains("not a number"));
  CHECK_THAT(axis_error("logspace(0, 10, 3)"), Contains("a > 0"));
  CHECK_THAT(axis_error("range(1, 0, 0.1)"), Contains("step"));
  // The key in the message is the caller's `where`, not a fixed text.
  try {
    parse_axis("z0", "1, x", "axes.z0");
    FAIL("'1, x' was accepted");
  } catch (const vibro::InputError& e) {
    CHECK_THAT(std::string(e.what()), Contains("axes.z0") && !Contains("a_hat"));
  }
}
