#pragma once
// CaseBatch::reduce_held for a batch over a kernel (CpuBatch; CudaBatch's host side), where the
// kernel reduces a window itself. Such a kernel provides, beside the batch concept (cpu_batch.hpp):
//   using Rules = ...;   plain data: the window tests' settings for one layout
//   static Rules rules(const StrobeLayout&, const HeldWindow&);                       host
//   VIBRO_HD static void reduce(const Case&, const Sample* window, int samples, const Rules&,
//                               HeldSummary&);   the window's class, period and observables
// and states what its to_strobe writes (kStrobeFill): the window's first and last samples are then
// read alone, the fields to_strobe leaves as a fresh sample has them, as reading the row through
// would leave them.
#include <cstddef>
#include <type_traits>
#include <vector>

#include "engine/batch/held_summary.hpp"
#include "engine/batch/made_cases.hpp"
#include "engine/batch/read_row.hpp"

namespace vibro {

template <class Kernel, class = void>
struct ReducesHeldRows : std::false_type {
  struct Rules {};  // a batch's member types name it either way
};
template <class Kernel>
struct ReducesHeldRows<Kernel, std::void_t<typename Kernel::Rules>> : std::true_type {
  static_assert(StatesStrobeFill<Kernel>::value, "a kernel that reduces its windows states its kStrobeFill");
  using Rules = typename Kernel::Rules;
};

// The rules of each layout the batch keeps (BatchLayouts::kept), for `window`.
template <class Kernel>
std::vector<typename Kernel::Rules> held_rules(const BatchLayouts& layouts, const HeldWindow& window) {
  std::vector<typename Kernel::Rules> rules;
  rules.reserve(static_cast<std::size_t>(layouts.kept_count()));
  for (int k = 0; k < layouts.kept_count(); ++k) rules.push_back(Kernel::rules(layouts.kept(k), window));
  return rules;
}

// A window's first and last samples as StrobeSamples.
template <class Kernel>
void window_ends(const typename Kernel::Case& c, const typename Kernel::Sample& first_sample,
                 const typename Kernel::Sample& last_sample, StrobeSample& first, StrobeSample& last) {
  first = StrobeSample{};
  Kernel::to_strobe(c, first_sample, first);
  last = first;
  Kernel::to_strobe(c, last_sample, last);
}

}  // namespace vibro
