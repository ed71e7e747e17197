#include "analysis/strobe_history.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace vibro {

namespace {

// One past the last entry of `values` whose bits are not all zero, and at least `at_least` (bits, not
// values: a -0.0 is kept, so that unpacking gives the very sample pushed).
template <class T, std::size_t N>
int extent(const std::array<T, N>& values, int at_least) {
  static_assert(sizeof(T) == sizeof(std::uint64_t));
  // Nearly always the tail is all zero: one pass without early exit (vectorised) says so.
  std::uint64_t any = 0;
  for (std::size_t i = static_cast<std::size_t>(at_least); i < N; ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &values[i], sizeof bits);
    any |= bits;
  }
  if (any == 0) return at_least;
  for (int i = static_cast<int>(N); i > at_least; --i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &values[static_cast<std::size_t>(i - 1)], sizeof bits);
    if (bits != 0) return i;
  }
  return at_least;
}

double as_word(std::int64_t value) {
  double word = 0;
  std::memcpy(&word, &value, sizeof word);
  return word;
}

std::int64_t as_integer(double word) {
  std::int64_t value = 0;
  std::memcpy(&value, &word, sizeof value);
  return value;
}

}  // namespace

StrobeHistory::StrobeHistory(int capacity, int min_state, int min_counters, HistoryArena* arena)
    : capacity_(std::max(1, capacity)),
      state_(std::clamp(min_state, 0, kMaxStrobeDims)),
      counters_(std::clamp(min_counters, 0, kMaxCounters)),
      arena_(arena) {}

int StrobeHistory::mode(int i) const { return static_cast<int>(as_integer(hot(i)[kMode])); }

void StrobeHistory::widen(int state, int counters, int aux) {
  const std::ptrdiff_t to_hot = kHot + state, to_cold = kCold + counters + aux;
  const std::ptrdiff_t to_cold_offset = static_cast<std::ptrdiff_t>(capacity_) * to_hot;
  // Not cleared: a slot is written whole before it is read (records held now are copied with zeros
  // in their new entries), and a case that stops early never touches the rest.
  const std::size_t count = static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(to_hot + to_cold);
  double* words = arena_ ? arena_->take(count) : nullptr;
  std::unique_ptr<double[]> owned;
  if (!words) {
    owned.reset(new double[count]);
    words = owned.get();
  }
  for (int i = 0; i < size_; ++i) {
    const double* from = hot(i);
    double* to = words + i * to_hot;
    std::fill_n(std::copy_n(from, kHot + state_, to), state - state_, 0.0);
    from = cold(i);
    to = words + to_cold_offset + i * to_cold;
    std::fill_n(std::copy_n(from, kCold + counters_, to), counters - counters_, 0.0);
    std::fill_n(std::copy_n(from + kCold + counters_, aux_, to + kCold + counters), aux - aux_, 0.0);
  }
  words_ = words;
  owned_ = std::move(owned);  // frees the old words, copied above, when they were the heap's
  head_ = 0;
  state_ = state;
  counters_ = counters;
  aux_ = aux;
  hot_stride_ = to_hot;
  cold_stride_ = to_cold;
}

void StrobeHistory::push(const StrobeSample& sample) {
  const int state = extent(sample.state, state_);
  const int counters = extent(sample.counters, counters_);
  const int aux = extent(sample.aux, aux_);
  if (!words_ || state != state_ || counters != counters_ || aux != aux_) widen(state, counters, aux);
  int slot = head_;
  if (size_ < capacity_) {
    slot = head_ + size_;
    if (slot >= capacity_) slot -= capacity_;
    ++size_;
  } else if (++head_ == capacity_) {
    head_ = 0;
  }
  double* hot = words_ + slot * hot_stride_;
  hot[kDrift] = sample.drift_position;
  hot[kMode] = as_word(sample.mode);
  std::memcpy(hot + kHot, sample.state.data(), sizeof(double) * static_cast<std::size_t>(state_));
  double* cold = words_ + cold_offset() + slot * cold_stride_;
  cold[kTime] = sample.time;
  cold[kPeriod] = as_word(sample.period);
  std::memcpy(cold + kCold, sample.counters.data(), sizeof(double) * static_cast<std::size_t>(counters_));
  std::memcpy(cold + kCold + counters_, sample.aux.data(), sizeof(double) * static_cast<std::size_t>(aux_));
}

void StrobeHistory::unpack_into_zeroed(int i, StrobeSample& out) const {
  const double* hot_words = hot(i);
  const double* cold_words = cold(i);
  out.time = cold_words[kTime];
  out.period = as_integer(cold_words[kPeriod]);
  out.mode = static_cast<int>(as_integer(hot_words[kMode]));
  out.drift_position = hot_words[kDrift];
  std::memcpy(out.state.data(), hot_words + kHot, sizeof(double) * static_cast<std::size_t>(state_));
  std::memcpy(out.counters.data(), cold_words + kCold, sizeof(double) * static_cast<std::size_t>(counters_));
  std::memcpy(out.aux.data(), cold_words + kCold + counters_, sizeof(double) * static_cast<std::size_t>(aux_));
}

StrobeSample StrobeHistory::sample(int i) const {
  StrobeSample out;  // zeros past the packed extents
  unpack_into_zeroed(i, out);
  return out;
}

void StrobeHistory::samples(int first, int count, std::vector<StrobeSample>& out) const {
  out.clear();
  out.resize(static_cast<std::size_t>(count));  // zeros
  for (int j = 0; j < count; ++j) unpack_into_zeroed(first + j, out[static_cast<std::size_t>(j)]);
}

}  // namespace vibro
