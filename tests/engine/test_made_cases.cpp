// A batch keeps one layout for the cases whose layout is the first case's, bit for bit; a case with
// another layout, or one that cannot start, keeps its own place and the indices stay in order.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "engine/batch/made_cases.hpp"

using namespace vibro;

namespace {

// A kernel whose layout's scale is the case's parameter `s`; s < 0 cannot start.
struct ScaleKernel {
  struct Case {
    double scale = 0;
  };
  static Case make(const ParameterSet& values) {
    if (values.at(0) < 0) throw std::runtime_error("cannot start");
    return {values.at(0)};
  }
  static StrobeLayout layout(const Case& c) {
    StrobeLayout layout;
    layout.state_names = {"x"};
    layout.state_scales = {c.scale};
    layout.counter_meanings = {"a meaning long enough to live on the heap, as the models' do"};
    return layout;
  }
};

const std::vector<ParameterSpec> kScaleSpecs = {
    ParameterSpec::real("s", ParameterGroup::Physics, "-", 1.0, -10, 10, "scale")};

// One case a scale.
std::vector<ParameterSet> scale_values(const std::vector<double>& scales) {
  std::vector<ParameterSet> values;
  for (const double s : scales) {
    ParameterSet v(&kScaleSpecs);
    v.set_at(0, s);
    values.push_back(v);
  }
  return values;
}

}  // namespace

TEST_CASE("made cases: layouts equal to the first case's are kept once", "[batch][made_cases]") {
  const std::vector<ParameterSet> values = scale_values({0.0, 0.0, -0.0, -1.0, 2.0, 0.0});
  CaseMaker<ScaleKernel> maker;
  BatchLayouts layouts;
  std::vector<ScaleKernel::Case> cases;
  std::vector<std::exception_ptr> errors;
  std::vector<int> appended;
  const auto append = [&](int slot) { appended.push_back(slot); };
  // A maker is reused group after group: its second group comes out as its first did.
  REQUIRE(maker.add(ScaleKernel{}, values, errors, layouts, cases, append) == std::vector<int>{0, 1, 2, -1, 3, 4});
  layouts.clear();
  cases.clear();
  appended.clear();
  const std::vector<int> slots = maker.add(ScaleKernel{}, values, errors, layouts, cases, append);
  REQUIRE(slots == std::vector<int>{0, 1, 2, -1, 3, 4});
  CHECK(appended == std::vector<int>{0, 1, 2, 3, 4});
  REQUIRE(cases.size() == 5);  // the case that could not start left no place: 2.0 and the last 0.0 moved up
  CHECK(cases[3].scale == 2.0);
  CHECK(errors[3] != nullptr);
  for (int i = 0; i < 5; ++i) CHECK(layouts[i].state_scales[0] == cases[static_cast<std::size_t>(i)].scale);
  // Cases 0, 1 and 5 (slot 4) share one object; -0.0 is not the same bits as 0.0, and 2.0 differs.
  CHECK(&layouts[0] == &layouts[1]);
  CHECK(&layouts[0] == &layouts[4]);
  CHECK(&layouts[2] != &layouts[0]);
  CHECK(std::signbit(layouts[2].state_scales[0]));
  CHECK(&layouts[3] != &layouts[0]);
  CHECK(layouts[0].counter_meanings.size() == 1);  // the kept one is whole
}

namespace {

// ScaleKernel that says which cases share a layout (the same scale, to the bit) and counts the
// layouts it is asked to make.
struct SharingScaleKernel : ScaleKernel {
  static inline int layouts_made = 0;
  static StrobeLayout layout(const Case& c) {
    ++layouts_made;
    return ScaleKernel::layout(c);
  }
  static bool shares_layout(const Case& a, const Case& b) { return std::memcmp(&a.scale, &b.scale, sizeof a.scale) == 0; }
};

}  // namespace

TEST_CASE("made cases: a kernel's shares_layout spares the layouts it vouches for", "[batch][made_cases]") {
  STATIC_REQUIRE(KnowsSharedLayout<SharingScaleKernel>::value);
  STATIC_REQUIRE_FALSE(KnowsSharedLayout<ScaleKernel>::value);
  const std::vector<ParameterSet> values = scale_values({3.0, 3.0, 3.0, 4.0, 3.0, -0.0});
  CaseMaker<SharingScaleKernel> maker;
  BatchLayouts layouts;
  std::vector<std::exception_ptr> errors;
  std::vector<SharingScaleKernel::Case> cases;
  const std::vector<int> slots = maker.add(SharingScaleKernel{}, values, errors, layouts, cases, [](int) {});
  REQUIRE(cases.size() == 6);
  CHECK(cases[3].scale == 4.0);
  REQUIRE(slots == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(SharingScaleKernel::layouts_made == 3);  // the first's, 4.0's and -0.0's
  CHECK(&layouts[1] == &layouts[0]);
  CHECK(&layouts[4] == &layouts[0]);
  CHECK(layouts[3].state_scales[0] == 4.0);
  CHECK(std::signbit(layouts[5].state_scales[0]));
}

TEST_CASE("same_layout compares every member", "[batch][made_cases]") {
  StrobeLayout a;
  a.state_names = {"x"};
  a.state_scales = {1.0};
  a.settled_means = {{0, 1e-3, false}};
  StrobeLayout b = a;
  CHECK(same_layout(a, b));
  b.settled_means[0].relative = true;
  CHECK_FALSE(same_layout(a, b));
  b = a;
  b.period = 2.0;
  CHECK_FALSE(same_layout(a, b));
  b = a;
  b.mode_meanings = {"resting"};
  CHECK_FALSE(same_layout(a, b));
  b = a;
  b.angular = {true};
  CHECK_FALSE(same_layout(a, b));
}

TEST_CASE("made cases: an uninitialised array gets every case whole", "[batch][made_cases]") {
  STATIC_REQUIRE(kMakesWholeCase<ScaleKernel>);
  CaseMaker<ScaleKernel> maker;
  BatchLayouts layouts;
  CaseArray<ScaleKernel> cases;
  std::vector<std::exception_ptr> errors;
  maker.add(ScaleKernel{}, scale_values({5, 6, 7, 8, 9, 10}), errors, layouts, cases, [](int) {});
  // The next group's cases are made over the memory the first group's left (the array keeps it).
  layouts.clear();
  cases.clear();
  const std::vector<int> slots = maker.add(ScaleKernel{}, scale_values({0.5, 1, -1, 2, 3}), errors, layouts, cases, [](int) {});
  REQUIRE(slots == std::vector<int>{0, 1, -1, 2, 3});
  REQUIRE(cases.size() == 4);
  CHECK(cases[0].scale == 0.5);
  CHECK(cases[1].scale == 1);
  CHECK(cases[2].scale == 2);
  CHECK(cases[3].scale == 3);
}
