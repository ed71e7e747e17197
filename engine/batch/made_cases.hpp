#pragma once
// A group's cases made on all OpenMP threads: Kernel::make and Kernel::layout cost microseconds a
// case (parameters, constants, the layout's names), which over 10^5-case groups made the serial
// add() loop a large share of a batched sweep. The batches append the made cases in order after.
// A layout equal to the first case's is dropped where it was made and shared: a sweep's cases mostly
// have one layout (the conveyor's depends on its frequency and g only), and keeping 10^5 copies of its
// names and meanings (some 25 allocations a case) cost a serial store and free a case.
#include <deque>
#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/huge_pages.hpp"
#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

template <class Kernel>
struct MadeCase {
  typename Kernel::Case c;  // assigned by make (unless error)
  StrobeLayout layout;      // empty when shares_first
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

// Makes case m from `values`, and its layout unless it is `first`'s (null: m is the first).
// `kernel`: the batch's kernel (an instance: a described model's kernel holds its model).
template <class Kernel>
void make_case(const Kernel& kernel, const ParameterSet& values, MadeCase<Kernel>& m, const MadeCase<Kernel>* first) {
  try {
    const bool compare = first != nullptr && !first->error;
    if constexpr (MakesLayout<Kernel>::value) {
      kernel.make(values, m.c, m.layout);
    } else {
      m.c = kernel.make(values);
      if constexpr (KnowsSharedLayout<Kernel>::value) {
        if (compare && Kernel::shares_layout(m.c, first->c)) {
          m.shares_first = true;
          return;
        }
      }
      m.layout = kernel.layout(m.c);
    }
    if (compare && same_layout(m.layout, first->layout)) {
      m.layout = StrobeLayout{};  // freed by the thread that made it
      m.shares_first = true;
    }
  } catch (...) {
    m.error = std::current_exception();
  }
}

// CaseBatch::add over make_case, on all OpenMP threads: `append(MadeCase&)` stores a made case and
// returns its index in the batch (serial, in the callers' order, so the indices are those one add()
// per case gave); the case's layout goes to `layouts` under the same index. A batch keeps its maker
// from group to group: the made cases' scratch array (about 1 KB a case) is then allocated once, as
// first touching 10^5 cases' fresh pages, one thread, cost a tenth of a second a group (and on huge
// pages: the batch's first group too).
template <class Kernel>
class CaseMaker {
 public:
  template <class Append>
  std::vector<int> add(const Kernel& kernel, const std::vector<ParameterSet>& values,
                       std::vector<std::exception_ptr>& errors, BatchLayouts& layouts, Append append) {
    std::vector<int> slots(values.size(), -1);
    errors.assign(values.size(), nullptr);
    made_.clear();
    made_.resize(values.size());
    if (values.empty()) return slots;
    make_case<Kernel>(kernel, values[0], made_[0], nullptr);  // the layout the others are compared with
    const auto n = static_cast<long long>(values.size());
#if defined(_OPENMP)  // nvcc's host pass may run without OpenMP: then one thread makes them
#pragma omp parallel for schedule(dynamic, 256)
#endif
    for (long long j = 1; j < n; ++j)
      make_case<Kernel>(kernel, values[static_cast<std::size_t>(j)], made_[static_cast<std::size_t>(j)], &made_[0]);
    int first_layout = -1;
    for (std::size_t j = 0; j < made_.size(); ++j) {
      MadeCase<Kernel>& made = made_[j];
      if (made.error) {
        errors[j] = made.error;
        continue;
      }
      const int layout = made.shares_first ? first_layout : layouts.keep(std::move(made.layout));
      if (j == 0) first_layout = layout;
      layouts.add_case(layout);
      slots[j] = append(made);
    }
    made_.clear();  // keeps the capacity
    return slots;
  }

 private:
  std::vector<MadeCase<Kernel>, HugePageAllocator<MadeCase<Kernel>>> made_;
};

}  // namespace vibro
