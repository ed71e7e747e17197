#pragma once
// A group's cases made on all OpenMP threads: Kernel::make and Kernel::layout cost microseconds a
// case (parameters, constants, the layout's names), which over 10^5-case groups made the serial
// add() loop a large share of a batched sweep. They are made in their places in the batch's array.
// A layout equal to the first case's is dropped where it was made and shared: a sweep's cases mostly
// have one layout (the conveyor's depends on its frequency and g only), and keeping 10^5 copies of its
// names and meanings (some 25 allocations a case) cost a serial store and free a case.
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/huge_pages.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

// What making one case left besides the case, which is made in its place in the batch: its layout
// unless it shares the first case's, or why it could not be made.
struct MadeCase {
  std::unique_ptr<StrobeLayout> layout;  // null when shares_first (or error)
  bool shares_first = false;  // the layout is the first case's (same_layout)
  std::exception_ptr error;   // what Kernel::make threw; then the case is not added
};

// The layouts of a batch's cases, by the case's index in the batch; each kept layout once.
class BatchLayouts {
 public:
  int keep(StrobeLayout&& layout) {
    kept_.push_back(std::move(layout));
    return static_cast<int>(kept_.size()) - 1;
  }
  void add_case(int kept) { of_case_.push_back(kept); }
  void clear() {
    kept_.clear();
    of_case_.clear();
  }
  const StrobeLayout& operator[](int i) const { return kept_[static_cast<std::size_t>(of_case_[static_cast<std::size_t>(i)])]; }
  // The distinct layouts kept, and which of them case i has (a batch's per-layout tables).
  int kept_count() const { return static_cast<int>(kept_.size()); }
  const StrobeLayout& kept(int k) const { return kept_[static_cast<std::size_t>(k)]; }
  int kept_index(int i) const { return of_case_[static_cast<std::size_t>(i)]; }

 private:
  std::deque<StrobeLayout> kept_;  // a deque: the detectors hold references to these
  std::vector<int> of_case_;
};

// A kernel may also say, without making either layout, that two of its cases have the same one:
// `static bool shares_layout(const Case&, const Case&)`. Making a layout to compare it and drop it
// was most of a conveyor case's set-up.
template <class Kernel, class = void>
struct KnowsSharedLayout : std::false_type {};
template <class Kernel>
struct KnowsSharedLayout<Kernel, std::void_t<decltype(Kernel::shares_layout(std::declval<const typename Kernel::Case&>(),
                                                                              std::declval<const typename Kernel::Case&>()))>>
    : std::true_type {};

// A kernel whose layout comes from what it makes a case from, not from the case alone (a described
// model's names are its description's): `void make(const ParameterSet&, Case&, StrobeLayout&) const`.
template <class Kernel, class = void>
struct MakesLayout : std::false_type {};
template <class Kernel>
struct MakesLayout<Kernel, std::void_t<decltype(std::declval<const Kernel&>().make(
                               std::declval<const ParameterSet&>(), std::declval<typename Kernel::Case&>(),
                               std::declval<StrobeLayout&>()))>> : std::true_type {};

// Whether make_case writes a kernel's whole case (it assigns what Kernel::make returns) into plain
// data: then a batch's array of cases need not be initialised before the cases are made in it.
template <class Kernel>
inline constexpr bool kMakesWholeCase = !MakesLayout<Kernel>::value &&
                                        std::is_trivially_copyable_v<typename Kernel::Case> &&
                                        std::is_trivially_destructible_v<typename Kernel::Case>;

// A batch's array of cases: on huge pages, left uninitialised where make_case writes the whole case
// (a case that fails to make leaves its place to the next one made, or to the array's end).
template <class Kernel>
using CaseArray = std::vector<typename Kernel::Case,
                              std::conditional_t<kMakesWholeCase<Kernel>, UninitialisedHugePageAllocator<typename Kernel::Case>,
                                                 HugePageAllocator<typename Kernel::Case>>>;

// Makes case c from `values` (m says how), and its layout unless it is `first`'s (null: c is the
// first). `kernel`: the batch's kernel (an instance: a described model's kernel holds its model).
template <class Kernel>
void make_case(const Kernel& kernel, const ParameterSet& values, typename Kernel::Case& c, MadeCase& m,
               const typename Kernel::Case* first_case, const MadeCase* first) {
  try {
    const bool compare = first != nullptr && !first->error;
    StrobeLayout layout;
    if constexpr (MakesLayout<Kernel>::value) {
      kernel.make(values, c, layout);
    } else {
      c = kernel.make(values);
      if constexpr (KnowsSharedLayout<Kernel>::value) {
        if (compare && Kernel::shares_layout(c, *first_case)) {
          m.shares_first = true;
          return;
        }
      }
      layout = kernel.layout(c);
    }
    if (compare && same_layout(layout, *first->layout)) {
      m.shares_first = true;  // the layout made to compare is freed by the thread that made it
      return;
    }
    m.layout = std::make_unique<StrobeLayout>(std::move(layout));
  } catch (...) {
    m.error = std::current_exception();
  }
}

// CaseBatch::add over make_case, on all OpenMP threads: the cases are made in their places at the end
// of the batch's array `cases` (a vector of Kernel::Case), and `append(slot)` does the batch's
// bookkeeping for each made case (serial, in the callers' order, so the indices are those one add()
// per case gave); the case's layout goes to `layouts` under the same index. A case that cannot start
// leaves no place: the ones after it move up.
// Why in place: made in a scratch array of their own (a case and a layout, about 1 KB a case) and
// appended after, 10^5-case groups cost that array's clearing and the cases' copy every group, and
// the array's fresh pages in each batch's first group (on the conveyor's 10^6-case map on the null
// back end, 5 % of the run's CPU in page clearing alone).
template <class Kernel>
class CaseMaker {
 public:
  template <class Cases, class Append>
  std::vector<int> add(const Kernel& kernel, const std::vector<ParameterSet>& values,
                       std::vector<std::exception_ptr>& errors, BatchLayouts& layouts, Cases& cases, Append append) {
    std::vector<int> slots(values.size(), -1);
    errors.assign(values.size(), nullptr);
    if (values.empty()) return slots;
    const std::size_t base = cases.size();
    cases.resize(base + values.size());
    made_.clear();
    made_.resize(values.size());
    make_case<Kernel>(kernel, values[0], cases[base], made_[0], nullptr, nullptr);  // the layout the others are compared with
    const auto n = static_cast<long long>(values.size());
#if defined(_OPENMP)  // nvcc's host pass may run without OpenMP: then one thread makes them
#pragma omp parallel for schedule(dynamic, 256)
#endif
    for (long long jj = 1; jj < n; ++jj) {
      const auto j = static_cast<std::size_t>(jj);
      make_case<Kernel>(kernel, values[j], cases[base + j], made_[j], &cases[base], &made_[0]);
    }
    int first_layout = -1;
    std::size_t next = base;  // where the next made case belongs
    for (std::size_t j = 0; j < made_.size(); ++j) {
      MadeCase& made = made_[j];
      if (made.error) {
        errors[j] = made.error;
        continue;
      }
      if (base + j != next) cases[next] = std::move(cases[base + j]);
      const int layout = made.shares_first ? first_layout : layouts.keep(std::move(*made.layout));
      if (j == 0) first_layout = layout;
      layouts.add_case(layout);
      slots[j] = static_cast<int>(next);
      append(slots[j]);
      ++next;
    }
    cases.resize(next);
    made_.clear();  // keeps the capacity
    return slots;
  }

 private:
  std::vector<MadeCase, HugePageAllocator<MadeCase>> made_;  // 3 MB a 131072-case group: 750 fresh 4-KB pages
};

}  // namespace vibro
