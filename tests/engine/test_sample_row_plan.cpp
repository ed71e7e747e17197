// Where a batch's launches leave their samples (engine/batch/sample_row_plan.hpp): by live position,
// the last launch's only; or held, one row a case, appended to launch after launch up to its length.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "engine/batch/sample_row_plan.hpp"

using namespace vibro;

namespace {
struct SmallSample {
  double x[16];  // 128 bytes, as the conveyor's
};
}  // namespace

TEST_CASE("sample rows by live position: the last launch's samples only", "[engine][batch]") {
  SampleRowPlan rows;
  CHECK_FALSE(rows.held());
  // 10 cases, 4 live, 8 periods of which 3 unkept: 5 samples a live case.
  CHECK(rows.begin_launch(8, 3, 10, 4, "TestBatch") == 4 * 5);
  CHECK(rows.kept() == 5);
  CHECK(rows.stride() == 5);
  CHECK(rows.row(7, 2) == 2 * 5);  // case 7 at live position 2
  CHECK(rows.launch_start(7, 2) == 2 * 5);
  rows.end_launch();
  CHECK(rows.held_samples() == 0);
  CHECK(rows.begin_launch(8, 0, 10, 3, "TestBatch") == 3 * 8);  // nothing accumulates
}

TEST_CASE("held sample rows: one row a case, appended to launch after launch", "[engine][batch]") {
  SampleRowPlan rows;
  REQUIRE(rows.hold<SmallSample>(12));
  CHECK(rows.held());
  // First launch: 10 periods, 6 unkept (4 samples); 10 cases, of which 4 live: every case has its row.
  CHECK(rows.begin_launch(10, 6, 10, 4, "TestBatch") == 10 * 12);
  CHECK(rows.stride() == 12);
  CHECK(rows.row(7, 2) == 7 * 12);  // by the case's index, not its live position
  CHECK(rows.launch_start(7, 2) == 7 * 12);
  rows.end_launch();
  CHECK(rows.held_samples() == 4);
  // Second launch: 8 samples after the 4 held, the row then full.
  CHECK(rows.begin_launch(8, 0, 10, 3, "TestBatch") == 10 * 12);
  CHECK(rows.launch_start(7, 0) == 7 * 12 + 4);
  CHECK(rows.row(7, 0) == 7 * 12);
  rows.end_launch();
  CHECK(rows.held_samples() == 12);
  // One sample more than the row holds: refused, naming the batch.
  CHECK_THROWS_WITH(rows.begin_launch(1, 0, 10, 3, "TestBatch"),
                    Catch::Matchers::Contains("TestBatch") && Catch::Matchers::Contains("past the held rows"));
  // Released (CaseBatch::clear): by live position again, nothing held.
  rows.release();
  CHECK_FALSE(rows.held());
  CHECK(rows.held_samples() == 0);
  CHECK(rows.begin_launch(8, 0, 10, 3, "TestBatch") == 3 * 8);
}

TEST_CASE("held sample rows: a row larger than a batch holds is refused", "[engine][batch]") {
  SampleRowPlan rows;
  const int fits = static_cast<int>(kMaxHeldRowBytes / sizeof(SmallSample));
  CHECK_FALSE(rows.hold<SmallSample>(fits + 1));
  CHECK_FALSE(rows.held());
  CHECK_FALSE(rows.hold<SmallSample>(0));
  CHECK(rows.hold<SmallSample>(fits));
  CHECK(rows.held());
}
