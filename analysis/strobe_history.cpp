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

StrobeHistory::StrobeHistory(int capacity, int min_state, int min_counters)
    : capacity_(std::max(1, capacity)),
      state_(std::clamp(min_state, 0, kMaxStrobeDims)),
      counters_(std::clamp(min_counters, 0, kMaxCounters)) {}

int StrobeHistory::mode(int i) const { return static_cast<int>(as_integer(record(i)[kMode])); }

void StrobeHistory::widen(int state, int counters, int aux) {
  const int to_stride = kHeader + state + counters + aux;
  // Not cleared: a slot is written whole before it is read (records held now are copied with zeros
  // in their new entries), and a case that stops early never touches the rest.
  std::unique_ptr<double[]> words(new double[static_cast<std::size_t>(capacity_) * static_cast<std::size_t>(to_stride)]);
  for (int i = 0; i < size_; ++i) {
    const double* from = record(i);
    double* to = words.get() + static_cast<std::ptrdiff_t>(i) * to_stride;
    std::fill_n(std::copy_n(from, kHeader + state_, to), state - state_, 0.0);
    std::fill_n(std::copy_n(from + kHeader + state_, counters_, to + kHeader + state), counters - counters_, 0.0);
    std::fill_n(std::copy_n(from + kHeader + state_ + counters_, aux_, to + kHeader + state + counters), aux - aux_, 0.0);
  }
  words_ = std::move(words);
  head_ = 0;
  state_ = state;
  counters_ = counters;
  aux_ = aux;
  stride_ = to_stride;
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
  double* to = words_.get() + static_cast<std::ptrdiff_t>(slot) * stride_;
  to[kTime] = sample.time;
  to[kPeriod] = as_word(sample.period);
  to[kMode] = as_word(sample.mode);
  to[kDrift] = sample.drift_position;
  std::memcpy(to + kHeader, sample.state.data(), sizeof(double) * static_cast<std::size_t>(state_));
  std::memcpy(to + kHeader + state_, sample.counters.data(), sizeof(double) * static_cast<std::size_t>(counters_));
  std::memcpy(to + kHeader + state_ + counters_, sample.aux.data(), sizeof(double) * static_cast<std::size_t>(aux_));
}

void StrobeHistory::unpack_into_zeroed(int i, StrobeSample& out) const {
  const double* from = record(i);
  out.time = from[kTime];
  out.period = as_integer(from[kPeriod]);
  out.mode = static_cast<int>(as_integer(from[kMode]));
  out.drift_position = from[kDrift];
  std::memcpy(out.state.data(), from + kHeader, sizeof(double) * static_cast<std::size_t>(state_));
  std::memcpy(out.counters.data(), from + kHeader + state_, sizeof(double) * static_cast<std::size_t>(counters_));
  std::memcpy(out.aux.data(), from + kHeader + state_ + counters_, sizeof(double) * static_cast<std::size_t>(aux_));
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
