// A case finished as a summary (summary_case.hpp) is the same case as the CaseResult the one-by-one
// path makes of it: the same checkpoint record byte for byte, the same file row, the same result
// through a sink that does not take summaries.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "jobs/output/case_rows.hpp"
#include "jobs/sweep/case_result_codec.hpp"
#include "jobs/sweep/case_runner.hpp"
#include "jobs/sweep/sweep_runner.hpp"

using namespace vibro;

namespace {

StrobeLayout layout_with_counters(int n) {
  StrobeLayout layout;
  for (int k = 0; k < n; ++k) layout.counter_names.push_back("c" + std::to_string(k));
  return layout;
}

// Case `index` of a window with `counters` counters and `observables` observables, values varied by index.
SummaryCase summary_of(long long index, int counters, int observables, StrobeSample& first, StrobeSample& last) {
  HeldSummary summary;
  summary.periodicity = static_cast<int>(index % 3);
  summary.period = static_cast<int>(index % 5) + 1;
  summary.class_code.append("P").append(summary.period).append(index % 2 ? "~" : "");
  summary.observable_count = observables;
  for (int o = 0; o < observables; ++o) summary.observables[o] = 0.5 * static_cast<double>(index) - o;
  if (observables > 1) summary.observables[1] = std::numeric_limits<double>::quiet_NaN();
  first = StrobeSample{};
  last = StrobeSample{};
  for (int c = 0; c < counters; ++c) {
    first.counters[static_cast<std::size_t>(c)] = 3 * index + c;
    last.counters[static_cast<std::size_t>(c)] = (c % 2 ? -1 : 1) * (1000 * index + 7 * c);  // any sign
  }
  SummaryCase s;
  make_summary_case(index, summary, layout_with_counters(counters), first, last, 50, 100, 1e-3 * index, s);
  return s;
}

// The CaseResult the batched runner made of the same window before summaries (record_held_summary).
CaseResult result_of(const SummaryCase& s, int counters, const StrobeSample& first, const StrobeSample& last) {
  CaseResult r;
  record_held_summary(s.summary, layout_with_counters(counters), first, last, s.window_periods, s.periods_run, r);
  r.wall_seconds = s.wall_seconds;
  return r;
}

// The first 4 rows of a counter column.
std::vector<std::int64_t> column(const std::int64_t* values) { return {values, values + 4}; }

// Keeps what it is given, either way.
class KeepingSink : public CaseSink {
 public:
  void finished(long long index, const CaseResult& result) override {
    indices.push_back(index);
    results.push_back(result);
  }
  std::vector<long long> indices;
  std::vector<CaseResult> results;
};

}  // namespace

TEST_CASE("summary cases: the record is the bytes of the same case's result, final state dropped", "[jobs][summary_case]") {
  for (const int counters : {0, 1, 8, kMaxCounters})
    for (const int observables : {0, 2, kMaxHeldObservables})
      for (const long long index : {0LL, 7LL, 123456789LL}) {
        StrobeSample first, last;
        const SummaryCase s = summary_of(index, counters, observables, first, last);
        const std::string_view record = summary_record(s);
        const std::vector<char> from_summary(record.begin(), record.end());
        std::vector<char> from_result;
        encode_case(index, result_of(s, counters, first, last), from_result, FinalState::Dropped);
        CAPTURE(counters, observables, index);
        REQUIRE(from_summary == from_result);
        // and it decodes to that result, counters over the window included
        std::size_t at = 0;
        long long decoded_index = -1;
        CaseResult decoded;
        decode_case(from_summary.data(), from_summary.size(), at, decoded_index, decoded);
        CHECK(decoded_index == index);
        REQUIRE(decoded.window_counters.size() == static_cast<std::size_t>(counters));
        for (int c = 0; c < counters; ++c)
          CHECK(decoded.window_counters[static_cast<std::size_t>(c)] ==
                last.counters[static_cast<std::size_t>(c)] - first.counters[static_cast<std::size_t>(c)]);
      }
}

TEST_CASE("summary cases: a file row from a summary is the row from its result", "[jobs][summary_case]") {
  const std::size_t counters = 5;
  const int observables = 3;
  CaseRows from_summaries, from_results;
  // More observables than the cases have: the missing ones are NaN either way.
  from_summaries.resize(4, observables + 1);
  from_results.resize(4, observables + 1);
  for (long long i = 0; i < 4; ++i) {
    StrobeSample first, last;
    const SummaryCase s = summary_of(i, static_cast<int>(counters), observables, first, last);
    from_summaries.set(static_cast<std::size_t>(i), s);
    from_results.set(static_cast<std::size_t>(i), result_of(s, static_cast<int>(counters), first, last));
  }
  CHECK(from_summaries.status == from_results.status);
  CHECK(from_summaries.periodicity == from_results.periodicity);
  CHECK(from_summaries.period == from_results.period);
  CHECK(from_summaries.periods_run == from_results.periods_run);
  CHECK(from_summaries.window_periods == from_results.window_periods);
  CHECK(from_summaries.class_code == from_results.class_code);
  CHECK(from_summaries.reason == from_results.reason);
  CHECK(std::memcmp(from_summaries.observables.data(), from_results.observables.data(),
                    from_results.observables.size() * sizeof(double)) == 0);
  CHECK(std::memcmp(from_summaries.wall_seconds.data(), from_results.wall_seconds.data(), 4 * sizeof(double)) == 0);
  // One column past the cases' counters: -1 there (the file's fill value) either way.
  from_summaries.fill_missing_counters(counters + 1);
  from_results.fill_missing_counters(counters + 1);
  for (std::size_t k = 0; k <= counters; ++k) {
    CAPTURE(k);
    CHECK(column(from_summaries.counter_column(k)) == column(from_results.counter_column(k)));
    CHECK(column(from_summaries.window_counter_column(k)) == column(from_results.window_counter_column(k)));
  }
  CHECK(column(from_summaries.counter_column(counters)) == std::vector<std::int64_t>(4, -1));
  CHECK(from_summaries.counter_column(1)[2] == -(1000 * 2 + 7));
  CHECK(from_summaries.window_counter_column(1)[2] == -(1000 * 2 + 7) - (3 * 2 + 1));
}

TEST_CASE("summary cases: a row set again from a failed result loses the counters it had", "[jobs][summary_case]") {
  CaseRows rows;
  rows.resize(1, 0);
  StrobeSample first, last;
  rows.set(0, summary_of(3, 4, 0, first, last));
  CaseResult failed;
  failed.status = CaseStatus::Failed;
  failed.reason = "step size underflow";
  rows.set(0, failed);
  rows.fill_missing_counters(4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(rows.counter_column(k)[0] == -1);
    CHECK(rows.window_counter_column(k)[0] == -1);
  }
  CHECK(rows.reason[0] == "step size underflow");
}

TEST_CASE("summary cases: a sink that takes no summaries gets each as its result", "[jobs][summary_case]") {
  KeepingSink sink;
  CHECK_FALSE(sink.takes_summaries());
  std::vector<SummaryCase> cases;
  std::vector<CaseResult> expected;
  for (long long i = 10; i < 13; ++i) {
    StrobeSample first, last;
    cases.push_back(summary_of(i, 3, 2, first, last));
    expected.push_back(result_of(cases.back(), 3, first, last));
  }
  sink.finished_summaries(cases.data(), cases.size());
  REQUIRE(sink.indices == std::vector<long long>{10, 11, 12});
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::vector<char> got, want;
    encode_case(sink.indices[k], sink.results[k], got);
    encode_case(sink.indices[k], expected[k], want, FinalState::Dropped);
    CHECK(got == want);
    CHECK_FALSE(sink.results[k].has_final_state);
  }
}
