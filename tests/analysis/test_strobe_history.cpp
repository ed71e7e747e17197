// The detector's packed history gives back, bit for bit, the samples pushed: entries that turn
// non-zero late widen it, -0.0 and NaN payloads survive, and the ring keeps the newest samples.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "analysis/strobe_history.hpp"

using namespace vibro;

namespace {

bool same_bits(const StrobeSample& a, const StrobeSample& b) {
  return a.time == b.time && a.period == b.period && a.mode == b.mode &&
         std::memcmp(&a.drift_position, &b.drift_position, sizeof(double)) == 0 &&
         std::memcmp(a.state.data(), b.state.data(), sizeof a.state) == 0 &&
         std::memcmp(a.counters.data(), b.counters.data(), sizeof a.counters) == 0 &&
         std::memcmp(a.aux.data(), b.aux.data(), sizeof a.aux) == 0;
}

// Sample k: a layout of 2 components and 1 counter, with entries past those that appear over time.
StrobeSample sample(int k) {
  StrobeSample s;
  s.time = 0.5 * k;
  s.period = k;
  s.mode = k % 3;
  s.drift_position = -0.25 * k;
  s.state[0] = std::sin(k);
  s.state[1] = k == 2 ? -0.0 : std::cos(k);
  s.counters[0] = 7LL * k;
  if (k >= 4) s.state[5] = 1e-300 * k;            // a component past the layout's
  if (k >= 6) s.counters[kMaxCounters - 1] = -k;  // the last counter
  if (k == 3) s.aux[2] = -0.0;                    // non-zero bits, zero value
  if (k >= 8) s.aux[kMaxAux - 1] = std::numeric_limits<double>::quiet_NaN();
  if (k == 9) s.aux[0] = std::numeric_limits<double>::infinity();
  return s;
}

}  // namespace

TEST_CASE("strobe history: unpacked samples are the pushed ones, through widening and dropping", "[analysis][strobe_history]") {
  const int capacity = 5;
  StrobeHistory history(capacity, 2, 1);
  for (int k = 1; k <= 12; ++k) {
    history.push(sample(k));
    REQUIRE(history.size() == std::min(k, capacity));
    // Every held sample, oldest first, is the one pushed (before and after any widening).
    for (int i = 0; i < history.size(); ++i) {
      const int pushed = k - history.size() + 1 + i;
      CHECK(same_bits(history.sample(i), sample(pushed)));
      CHECK(history.mode(i) == sample(pushed).mode);
      CHECK(history.time(i) == sample(pushed).time);
      CHECK(history.drift(i) == sample(pushed).drift_position);
      CHECK(history.state(i)[1] == sample(pushed).state[1]);
      CHECK(std::isinf(history.aux(i, 0)) == (pushed == 9));
      CHECK(std::isnan(history.aux(i, kMaxAux - 1)) == (pushed >= 8));
    }
  }
  std::vector<StrobeSample> run = {StrobeSample{}};
  run[0].aux[3] = 1.0;  // stale entries are overwritten
  history.samples(1, 3, run);
  REQUIRE(run.size() == 3);
  for (int j = 0; j < 3; ++j) CHECK(same_bits(run[static_cast<std::size_t>(j)], sample(12 - capacity + 2 + j)));
  history.clear();
  CHECK(history.size() == 0);
  history.push(sample(1));  // after a clear (a jump) the ring starts over, still wide
  CHECK(same_bits(history.sample(0), sample(1)));
}

TEST_CASE("strobe history: words from an arena hold the same samples as the heap's", "[analysis][history]") {
  // Three histories of 5 samples: two share a roomy arena (and must not overlap), one a spent arena
  // (it falls back to the heap); each is checked against the pushes.
  HistoryArena roomy, spent;
  roomy.reset(10000);
  spent.reset(10000);
  while (spent.take(4096)) {
  }
  StrobeHistory a(5, 2, 1, &roomy), b(5, 2, 1, &roomy), c(5, 2, 1, &spent), heap(5, 2, 1);
  for (int k = 0; k < 12; ++k) {
    StrobeSample other = sample(k);
    other.state[0] += 1.0;  // b's samples differ from a's
    a.push(sample(k));
    b.push(other);
    c.push(sample(k));
    heap.push(sample(k));
    for (int i = 0; i < a.size(); ++i) {
      REQUIRE(same_bits(a.sample(i), heap.sample(i)));
      REQUIRE(same_bits(c.sample(i), heap.sample(i)));
      StrobeSample expected = heap.sample(i);
      expected.state[0] += 1.0;
      REQUIRE(same_bits(b.sample(i), expected));
    }
  }
  // The arena's block is reused: after a reset the same words are handed out again.
  roomy.reset(100);
  double* start = roomy.take(4);
  REQUIRE(roomy.take(4) == start + 4);
  roomy.reset(100);
  REQUIRE(roomy.take(4) == start);
  REQUIRE(spent.take(1) == nullptr);
}
