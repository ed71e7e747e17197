#include "jobs/sweep/held_window.hpp"

#include <algorithm>
#include <stdexcept>

namespace vibro {

bool row_reaches_budget(int skipped, int row, const SteadyStateSettings& settings) {
  return settings.mode == SteadyMode::Fixed && skipped >= 0 && skipped < settings.max_periods &&
         skipped + row >= settings.max_periods;
}

HeldWindow held_window(int skipped, const SteadyStateSettings& settings) {
  // The detector reads samples until it has seen the budget (a last launch may step past it), keeps
  // the newest of them in its history, and classifies the newest window_periods + 1 of those.
  const int seen = settings.max_periods - skipped;
  const int held = std::min(seen, held_history_samples(settings));
  const int length = std::min(settings.window_periods, held - 1);
  HeldWindow window;
  window.samples = length > 0 ? length + 1 : 0;
  window.first = seen - window.samples;
  window.tol = settings.tol;
  window.max_period = settings.max_period;
  window.quasi_min_window = settings.quasi_min_window;
  window.quasi_tol = settings.quasi_tol;
  return window;
}

int classify_held_row(const CaseBatch& batch, int slot, int skipped, int row, const StrobeLayout& layout,
                      const SteadyStateSettings& settings, SteadyState& steady) {
  if (!row_reaches_budget(skipped, row, settings))
    throw std::logic_error("classify_held_row: the row does not reach the budget");
  const HeldWindow window = held_window(skipped, settings);
  steady.periodicity = Periodicity::NotConverged;
  steady.period = 0;
  steady.stopped_early = false;
  steady.window.resize(static_cast<std::size_t>(window.samples));
  // One sample read after another into the same scratch, as a detector's feeding does (a kernel's
  // to_strobe may leave fields it does not fill as the last sample had them): the samples before the
  // window into the scratch, the window's over it (CaseBatch::samples).
  const int first = window.first;
  if (!steady.window.empty()) {
    StrobeSample& scratch = steady.window.front();
    scratch = StrobeSample{};
    for (int k = 0; k < first; ++k) batch.sample(slot, k, scratch);
    batch.samples(slot, first, static_cast<int>(steady.window.size()), steady.window.data());
  }
  classify_window(steady, layout, settings);
  return settings.max_periods;
}

}  // namespace vibro
