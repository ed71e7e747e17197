// ConveyorBatchKernel::shares_layout says that two cases have one stroboscopic layout without making
// either (a batch's set-up skips the layout of every case that shares the first's): it must never say
// so of two cases whose layouts differ. Each parameter moved alone from its default, then g and f.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "conveyor/conveyor_fixture.hpp"
#include "engine/batch/made_cases.hpp"
#include "models/conveyor/conveyor_batch_kernel.hpp"

namespace vibro::conveyor {
namespace {

// Other in-range values of parameter p (its other choices, or nearby numbers).
std::vector<double> moved_values(const ParameterSpec& p) {
  std::vector<double> out;
  if (p.kind == ParameterKind::Choice) {
    for (std::size_t k = 0; k < p.choices.size(); ++k)
      if (static_cast<double>(k) != p.default_value) out.push_back(static_cast<double>(k));
    return out;
  }
  const double d = p.default_value;
  for (const double v : {d * 1.01, d * 0.99, d + 1e-3, d - 1e-3, d * 2, d / 2})
    if (v != d && p.in_range(v)) out.push_back(p.kind == ParameterKind::Integer ? std::round(v) : v);
  return out;
}

}  // namespace

TEST_CASE("conveyor batch kernel: shares_layout only of cases whose layouts are equal", "[conveyor][batch]") {
  STATIC_REQUIRE(KnowsSharedLayout<ConveyorBatchKernel>::value);
  const std::vector<ParameterSpec>& specs = conveyor_parameter_specs();
  const ParameterSet base = testing::conveyor_values({});
  const ConveyorBatchKernel::Case first = ConveyorBatchKernel::make(base);
  const StrobeLayout first_layout = ConveyorBatchKernel::layout(first);
  int shared = 0, apart = 0;
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (const double value : moved_values(specs[i])) {
      ParameterSet moved = base;
      moved.set_at(static_cast<int>(i), value);
      ConveyorBatchKernel::Case other{};
      try {
        other = ConveyorBatchKernel::make(moved);
      } catch (const std::exception&) {
        continue;  // a combination the model refuses
      }
      INFO(specs[i].name << " = " << value);
      const bool same = same_layout(ConveyorBatchKernel::layout(other), first_layout);
      if (ConveyorBatchKernel::shares_layout(other, first)) {
        CHECK(same);
        ++shared;
      } else {
        ++apart;
      }
    }
  // Both answers occur: a_hat, z0, c_r ... keep the layout; g and f move it.
  CHECK(shared > 5);
  CHECK(apart >= 2);
}

}  // namespace vibro::conveyor

namespace vibro::conveyor {

// A batch's array of conveyor cases is left uninitialised before the cases are made in it (made_cases.hpp's
// CaseArray): a member the kernel's make might leave unwritten would make that unsafe.
TEST_CASE("conveyor batch kernel: make writes the whole case, whose array is left uninitialised",
          "[conveyor][batch][made_cases]") {
  STATIC_REQUIRE(kMakesWholeCase<ConveyorBatchKernel>);
}

}  // namespace vibro::conveyor
