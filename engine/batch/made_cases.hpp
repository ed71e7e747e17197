#pragma once
// A group's cases made on all OpenMP threads: Kernel::make and Kernel::layout cost microseconds a
// case (parameters, constants, the layout's names), which over 10^5-case groups made the serial
// add() loop a large share of a batched sweep. The batches append the made cases in order after.
#include <exception>
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

template <class Kernel>
struct MadeCase {
  typename Kernel::Case c;  // assigned by make (unless error)
  StrobeLayout layout;
  std::exception_ptr error;  // what Kernel::make threw; then the case is not added
};

template <class Kernel>
std::vector<MadeCase<Kernel>> make_cases(const std::vector<ParameterSet>& values) {
  std::vector<MadeCase<Kernel>> made(values.size());
  const auto n = static_cast<long long>(values.size());
#if defined(_OPENMP)  // nvcc's host pass may run without OpenMP: then one thread makes them
#pragma omp parallel for schedule(dynamic, 256)
#endif
  for (long long j = 0; j < n; ++j) {
    auto& m = made[static_cast<std::size_t>(j)];
    try {
      m.c = Kernel::make(values[static_cast<std::size_t>(j)]);
      m.layout = Kernel::layout(m.c);
    } catch (...) {
      m.error = std::current_exception();
    }
  }
  return made;
}

// CaseBatch::add over make_cases: `append(MadeCase&)` stores a made case and returns its index in
// the batch (serial, in the callers' order, so the indices are those one add() per case gave).
template <class Kernel, class Append>
std::vector<int> add_made_cases(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors,
                                Append append) {
  std::vector<int> slots(values.size(), -1);
  errors.assign(values.size(), nullptr);
  std::vector<MadeCase<Kernel>> made = make_cases<Kernel>(values);
  for (std::size_t j = 0; j < made.size(); ++j) {
    if (made[j].error)
      errors[j] = made[j].error;
    else
      slots[j] = append(made[j]);
  }
  return slots;
}

}  // namespace vibro
