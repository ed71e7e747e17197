// The conveyor kernel states which StrobeSample fields its to_strobe writes (kStrobeFill), and
// read_row relies on it: the fields it names are written at every call whatever the sample held, the
// others never; and a row read with the statement is, field for field, the row read by copying each
// sample over the next (what CaseBatch::samples promises).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "conveyor/conveyor_fixture.hpp"
#include "engine/batch/read_row.hpp"
#include "models/conveyor/conveyor_batch_kernel.hpp"

namespace vibro::conveyor {
namespace {

// The same kernel without the statement: read_row copies each sample over the next.
struct CopyingKernel {
  using Case = ConveyorBatchKernel::Case;
  using Sample = ConveyorBatchKernel::Sample;
  static void to_strobe(const Case& k, const Sample& s, StrobeSample& out) { ConveyorBatchKernel::to_strobe(k, s, out); }
};

ConveyorSample sample_number(int n) {
  ConveyorSample s;
  s.h = 1e-4 * n;
  s.u = -0.25 + n;
  s.vT = 0.5 * n;
  s.x = 3.0 + n;
  s.period = 40 + n;
  s.mode = n % 2;
  for (int c = 0; c < kCounterCount; ++c) s.counters[c] = 7 * n + c;
  for (int a = 0; a < kAuxCount; ++a) s.aux[a] = 0.125 * n + a;
  return s;
}

StrobeSample filled_with(unsigned char byte) {
  StrobeSample s;
  std::memset(static_cast<void*>(&s), byte, sizeof s);
  return s;
}

template <class Array>
bool same_range(const Array& a, const Array& b, std::size_t from, std::size_t to) {
  return std::memcmp(a.data() + from, b.data() + from, (to - from) * sizeof(a[0])) == 0;
}

bool same_fields(const StrobeSample& a, const StrobeSample& b) {
  return std::memcmp(&a.time, &b.time, sizeof a.time) == 0 && a.period == b.period && a.mode == b.mode &&
         std::memcmp(&a.drift_position, &b.drift_position, sizeof a.drift_position) == 0 &&
         same_range(a.state, b.state, 0, a.state.size()) && same_range(a.counters, b.counters, 0, a.counters.size()) &&
         same_range(a.aux, b.aux, 0, a.aux.size());
}

}  // namespace

TEST_CASE("conveyor kernel: to_strobe writes the fields kStrobeFill names and no other", "[conveyor][batch]") {
  STATIC_REQUIRE(StatesStrobeFill<ConveyorBatchKernel>::value);
  constexpr StrobeFill fill = ConveyorBatchKernel::kStrobeFill;
  const ConveyorBatchKernel::Case k = ConveyorBatchKernel::make(testing::conveyor_values({}));
  REQUIRE(ConveyorBatchKernel::layout(k).dims() == fill.dims);
  const ConveyorSample from = sample_number(3);
  StrobeSample a = filled_with(0x11), b = filled_with(0x77);
  const StrobeSample a0 = a, b0 = b;
  ConveyorBatchKernel::to_strobe(k, from, a);
  ConveyorBatchKernel::to_strobe(k, from, b);
  // Named: written (equal whatever they held before).
  CHECK(std::memcmp(&a.time, &b.time, sizeof a.time) == 0);
  CHECK(a.period == b.period);
  CHECK(a.mode == b.mode);
  CHECK(std::memcmp(&a.drift_position, &b.drift_position, sizeof a.drift_position) == 0);
  CHECK(same_range(a.state, b.state, 0, fill.dims));
  CHECK(same_range(a.counters, b.counters, 0, fill.counters));
  CHECK(same_range(a.aux, b.aux, 0, fill.aux));
  // The rest: left as they were.
  CHECK(same_range(a.state, a0.state, fill.dims, a.state.size()));
  CHECK(same_range(a.counters, a0.counters, fill.counters, a.counters.size()));
  CHECK(same_range(a.aux, a0.aux, fill.aux, a.aux.size()));
  CHECK(same_range(b.state, b0.state, fill.dims, b.state.size()));
}

TEST_CASE("read_row: a kernel's stated fill reads a row as copying each sample over the next does", "[conveyor][batch]") {
  const ConveyorBatchKernel::Case k = ConveyorBatchKernel::make(testing::conveyor_values({}));
  std::vector<ConveyorSample> row;
  for (int n = 0; n < 9; ++n) row.push_back(sample_number(n));
  const int count = static_cast<int>(row.size());
  // out[0] holds what the samples before the row left (here a pattern); the others hold whatever a
  // window read before left: another pattern, or out[0]'s (the case the comparison skips the copy in).
  for (const int stale : {0x33, 0x5a}) {
    std::vector<StrobeSample> copied(row.size(), filled_with(static_cast<unsigned char>(stale))),
        stated(row.size(), filled_with(static_cast<unsigned char>(stale)));
    copied[0] = stated[0] = filled_with(0x5a);
    read_row<CopyingKernel>(k, row.data(), count, copied.data());
    read_row<ConveyorBatchKernel>(k, row.data(), count, stated.data());
    for (int n = 0; n < count; ++n) {
      INFO("stale byte " << stale << ", sample " << n);
      CHECK(same_fields(copied[static_cast<std::size_t>(n)], stated[static_cast<std::size_t>(n)]));
    }
  }
}

}  // namespace vibro::conveyor
