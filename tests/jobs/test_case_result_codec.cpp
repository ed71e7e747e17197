// The checkpoint record of a case: every field comes back bit for bit, the samples' arrays included
// (they are stored up to their last entry that is not zero bits, so a -0.0 or a NaN there is kept),
// and a conveyor-sized record is a small fraction of the samples' full arrays.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "jobs/sweep/case_result_codec.hpp"
#include "support/same_sample.hpp"

using namespace vibro;
using vibro::testing::same_bits;
using vibro::testing::same_sample;

namespace {

CaseResult full_result() {
  CaseResult r;
  r.status = CaseStatus::Ok;
  r.class_code = "P3";
  r.periods_run = 100;
  r.window_periods = 50;
  r.observables = {0.25, std::nan("")};
  r.counters = {12, 0, 3};
  r.window_counters = {6, 0, 1};
  r.strobe.resize(5);
  for (std::size_t k = 0; k < r.strobe.size(); ++k) {
    r.strobe[k].state.fill(0.0);
    r.strobe[k].state[0] = 0.5 + static_cast<double>(k);
    r.strobe[k].drift_position = 1e-3 * static_cast<double>(k);
    r.strobe[k].mode = static_cast<int>(k % 3);
  }
  r.strobe[3].state[6] = -0.0;  // not zero bits: widens every point to 7 components
  r.has_final_state = true;
  r.final_state.time = 2.0;
  r.final_state.period = 100;
  r.final_state.mode = 2;
  r.final_state.drift_position = -7.5;
  r.final_state.state[0] = 1.25;
  r.final_state.state[kMaxStrobeDims - 1] = std::numeric_limits<double>::quiet_NaN();
  r.final_state.counters[kMaxCounters - 1] = -4;
  r.final_state.aux[5] = 3.0;
  r.shooting = 1;
  r.shooting_residual = 1e-12;
  r.shot_state = r.final_state;
  r.shot_state.aux[kMaxAux - 1] = -0.0;
  r.floquet = {{0.5, -0.25}, {-1.0, 0.0}};
  r.lyapunov = {0.1, -3.0};
  r.stretch_exponent = 0.125;
  r.stretch_resets = 7;
  return r;
}

CaseResult round_trip(const CaseResult& r, std::size_t* size = nullptr, FinalState final_state = FinalState::Kept) {
  std::vector<char> bytes;
  encode_case(42, r, bytes, final_state);
  if (size) *size = bytes.size();
  std::size_t at = 0;
  long long index = -1;
  CaseResult back;
  back.final_state.state.fill(9.0);  // decoding fills every entry, whatever the target held
  decode_case(bytes.data(), bytes.size(), at, index, back);
  CHECK(index == 42);
  CHECK(at == bytes.size());
  return back;
}

}  // namespace

TEST_CASE("case records: every field comes back bit for bit", "[jobs][case_codec]") {
  const CaseResult r = full_result();
  const CaseResult back = round_trip(r);
  CHECK(back.status == r.status);
  CHECK(back.class_code == r.class_code);
  CHECK(back.periods_run == r.periods_run);
  CHECK(back.counters == r.counters);
  CHECK(back.window_counters == r.window_counters);
  REQUIRE(back.observables.size() == 2);
  CHECK(std::isnan(back.observables[1]));
  REQUIRE(back.strobe.size() == r.strobe.size());
  for (std::size_t k = 0; k < r.strobe.size(); ++k) {
    CHECK(same_bits(back.strobe[k].state, r.strobe[k].state));
    CHECK(same_bits(back.strobe[k].drift_position, r.strobe[k].drift_position));
    CHECK(back.strobe[k].mode == r.strobe[k].mode);
  }
  CHECK(back.has_final_state);
  CHECK(same_sample(back.final_state, r.final_state));
  CHECK(back.shooting == 1);
  CHECK(same_bits(back.shooting_residual, r.shooting_residual));
  CHECK(same_sample(back.shot_state, r.shot_state));
  CHECK(back.floquet == r.floquet);
  CHECK(back.lyapunov == r.lyapunov);
  CHECK(same_bits(back.stretch_exponent, r.stretch_exponent));
  CHECK(back.stretch_resets == r.stretch_resets);
}

TEST_CASE("case records: a record without its final state comes back whole but for it, and smaller", "[jobs][case_codec]") {
  const CaseResult r = full_result();
  std::size_t kept = 0, dropped = 0;
  round_trip(r, &kept);
  const CaseResult back = round_trip(r, &dropped, FinalState::Dropped);
  CHECK(!back.has_final_state);
  CHECK(same_sample(back.final_state, StrobeSample{}));
  CHECK(dropped < kept);
  // Every other field as with the final state kept.
  CaseResult expected = r;
  expected.has_final_state = false;
  expected.final_state = StrobeSample{};
  std::vector<char> a, b;
  encode_case(5, back, a);
  encode_case(5, expected, b);
  CHECK(a == b);
  // A case without a final state is the same record either way.
  std::vector<char> none_kept, none_dropped;
  encode_case(6, expected, none_kept, FinalState::Kept);
  encode_case(6, expected, none_dropped, FinalState::Dropped);
  CHECK(none_kept == none_dropped);
}

TEST_CASE("case records: fields at their defaults cost nothing, any other value comes back", "[jobs][case_codec]") {
  // A residual or stretch exponent is stored when its bits differ from a fresh result's: -0.0, a NaN
  // with resets and a huge index or negative period all come back.
  CaseResult r;
  r.shooting = 0;
  r.shooting_residual = -0.0;
  r.stretch_exponent = std::numeric_limits<double>::quiet_NaN();
  r.stretch_resets = 2;
  r.period = -3;
  r.periods_run = std::numeric_limits<int>::max();
  r.periodicity = Periodicity::QuasiPeriodic;
  std::vector<char> bytes;
  const long long index = (1LL << 45) + 3;
  encode_case(index, r, bytes);
  std::size_t at = 0;
  long long found = -1;
  CaseResult back;
  back.stretch_resets = 99;  // decoding resets what the record does not hold
  back.shooting_residual = 5.0;
  decode_case(bytes.data(), bytes.size(), at, found, back);
  CHECK(found == index);
  CHECK(same_bits(back.shooting_residual, r.shooting_residual));
  CHECK(std::isnan(back.stretch_exponent));
  CHECK(back.stretch_resets == 2);
  CHECK(back.period == -3);
  CHECK(back.periods_run == r.periods_run);
  CHECK(back.periodicity == Periodicity::QuasiPeriodic);
  CHECK(read_case_head(bytes.data(), bytes.size(), 0).index == index);
  const CaseResult fresh;
  std::size_t fresh_size = 0;
  const CaseResult plain = round_trip(fresh, &fresh_size);
  CHECK(plain.shooting_residual == 0.0);
  CHECK(std::isnan(plain.stretch_exponent));
  CHECK(plain.stretch_resets == -1);
  // A fresh result's record: its size, index, status, two empty texts, five small integers and a
  // flag, the wall time, five empty lists and the window's width, shooting and the presence flags.
  CHECK(fresh_size == 4 + 1 + 1 + 2 + 6 + 8 + 6 + 1 + 1 + 1);
}

TEST_CASE("case records: the head alone gives the index, the next record and the texts' lengths", "[jobs][case_codec]") {
  CaseResult r = full_result();
  r.reason = "a reason long enough to live on the heap, as a failure's does";
  std::vector<char> bytes;
  encode_case(7, r, bytes);
  const std::size_t first_size = bytes.size();
  encode_case(8, full_result(), bytes);  // a record after it: the head's reader stops in the first
  const CaseHead head = read_case_head(bytes.data(), bytes.size(), 0);
  CHECK(head.index == 7);
  CHECK(head.next == first_size);
  CHECK(head.reason_size == r.reason.size());
  CHECK(head.class_size == r.class_code.size());
  const CaseHead second = read_case_head(bytes.data(), bytes.size(), head.next);
  CHECK(second.index == 8);
  CHECK(second.next == bytes.size());
  // A record cut short is refused, whether its head or only its body is missing.
  CHECK_THROWS_AS(read_case_head(bytes.data(), 12, 0), std::runtime_error);
  CHECK_THROWS_AS(read_case_head(bytes.data(), first_size - 1, 0), std::runtime_error);
}

TEST_CASE("case records: a size that disagrees with the body is refused as malformed", "[jobs][case_codec]") {
  std::vector<char> bytes;
  encode_case(3, full_result(), bytes);
  std::uint32_t body = 0;
  std::memcpy(&body, bytes.data(), sizeof body);
  CHECK(body + sizeof body == bytes.size());
  for (const std::uint32_t wrong : {body - 1, body + 1}) {
    std::vector<char> changed = bytes;
    changed.push_back(0);  // room for the longer size's last byte
    std::memcpy(changed.data(), &wrong, sizeof wrong);
    std::size_t at = 0;
    long long index = -1;
    CaseResult back;
    CHECK_THROWS_AS(decode_case(changed.data(), changed.size(), at, index, back), std::runtime_error);
  }
}

TEST_CASE("case records: counters of any size and sign come back, small ones in a byte or two", "[jobs][case_codec]") {
  const std::vector<std::int64_t> extremes = {0, 1, -1, 63, -64, 64, 127, 128, 1000000, -1000000,
                                              std::numeric_limits<std::int64_t>::max(),
                                              std::numeric_limits<std::int64_t>::min()};
  CaseResult r;
  r.counters = extremes;
  r.window_counters = {7, 0, 300};
  r.has_final_state = true;
  for (std::size_t i = 0; i < extremes.size(); ++i) r.final_state.counters[i] = extremes[i];
  const CaseResult back = round_trip(r);
  CHECK(back.counters == extremes);
  CHECK(back.window_counters == r.window_counters);
  CHECK(back.final_state.counters == r.final_state.counters);
  // Eight small counters take 8 bytes more than none, not 64.
  CaseResult none, eight;
  eight.counters.assign(8, 50);  // zigzag 100: one byte each
  std::size_t without = 0, with = 0;
  round_trip(none, &without);
  round_trip(eight, &with);
  CHECK(with - without == 8);
}

TEST_CASE("case records: a few-component window is stored at its width", "[jobs][case_codec]") {
  // The conveyor's shape: 3 state components, 51 window points, a handful of counters.
  CaseResult r;
  r.status = CaseStatus::Ok;
  r.strobe.resize(51);
  for (auto& p : r.strobe) {
    p.state.fill(0.0);
    p.state = {{0.1, -0.2, 0.3}};
  }
  r.has_final_state = true;
  r.final_state.state[2] = 1.0;
  r.final_state.counters[4] = 7;
  std::size_t size = 0;
  const CaseResult back = round_trip(r, &size);
  CHECK(same_bits(back.strobe[50].state, r.strobe[50].state));
  CHECK(same_sample(back.final_state, r.final_state));
  const std::size_t full = r.strobe.size() * sizeof(StrobePoint) + sizeof(StrobeSample);
  CHECK(size < full / 4);
}

TEST_CASE("case records: decoding into a used result leaves nothing of the case before", "[jobs][case_codec]") {
  // The file writer decodes case after case into the results of one block.
  CaseResult first;
  first.status = CaseStatus::Ok;
  first.class_code = "M5";
  first.shooting = 1;
  first.shot_state.state[0] = 3.0;
  first.has_final_state = true;
  first.final_state.state[1] = 4.0;
  first.observables = {1.0, 2.0};
  CaseResult second;  // no shooting, no final state, no observables
  second.status = CaseStatus::Failed;
  second.reason = "non-finite state";
  std::vector<char> bytes;
  encode_case(1, first, bytes);
  encode_case(2, second, bytes);
  std::size_t at = 0;
  long long index = -1;
  CaseResult target;
  decode_case(bytes.data(), bytes.size(), at, index, target);
  decode_case(bytes.data(), bytes.size(), at, index, target);
  CHECK(index == 2);
  CHECK(target.status == CaseStatus::Failed);
  CHECK(target.class_code.empty());
  CHECK(target.observables.empty());
  CHECK(!target.has_final_state);
  CHECK(same_sample(target.final_state, StrobeSample{}));
  CHECK(target.shooting == -1);
  CHECK(same_sample(target.shot_state, StrobeSample{}));
}

TEST_CASE("case records: a width past the arrays is refused as malformed", "[jobs][case_codec]") {
  // Two records that differ only in the window's width (0 and 1): the first byte of their bodies they
  // differ in is it.
  CaseResult narrow;
  narrow.strobe.resize(1);
  narrow.strobe[0].state.fill(0.0);
  CaseResult wide = narrow;
  wide.strobe[0].state[0] = 1.0;
  std::vector<char> bytes, other;
  encode_case(0, narrow, bytes);
  encode_case(0, wide, other);
  std::size_t width_at = sizeof(std::uint32_t);  // past the records' sizes, which differ too
  while (width_at < bytes.size() && bytes[width_at] == other[width_at]) ++width_at;
  REQUIRE(width_at < bytes.size());
  REQUIRE(bytes[width_at] == 0);
  bytes[width_at] = static_cast<char>(kMaxStrobeDims + 1);
  std::size_t at = 0;
  long long index = 0;
  CaseResult back;
  CHECK_THROWS_AS(decode_case(bytes.data(), bytes.size(), at, index, back), std::runtime_error);
}
