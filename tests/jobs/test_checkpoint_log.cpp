// Checkpoint logs: batches survive, a torn tail is dropped, a log reopened after a kill keeps every
// later batch readable, and a log of another sweep is refused.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/core/input_error.hpp"
#include "jobs/output/checkpoint_index.hpp"
#include "jobs/output/checkpoint_log.hpp"

using namespace vibro;

namespace {
CaseResult result(int period) {
  CaseResult r;
  r.status = CaseStatus::Ok;
  r.class_code = "P" + std::to_string(period);
  r.period = period;
  r.observables = {0.1 * period, 2.0};
  r.counters = {period, 7};
  return r;
}
}  // namespace

TEST_CASE("checkpoint batches are reloaded; a torn tail is dropped and appending after it is safe", "[jobs]") {
  const std::string path = (std::filesystem::temp_directory_path() / "vibro_test.h5.ckpt.0").string();
  std::filesystem::remove(path);
  const CheckpointHeader header{"abc123", "test.ini", "model = conveyor\n", {"--run.threads=1"}};
  {
    CheckpointWriter writer(path, header, 1e9);
    writer.finished(3, result(3));
    writer.finished(5, result(5));
    writer.flush();
  }
  {  // a kill in the middle of the next batch: a torn record at the end of the file
    std::ofstream tail(path, std::ios::binary | std::ios::app);
    const char torn[] = {0x40, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3};
    tail.write(torn, sizeof torn);
  }
  {
    CheckpointIndex index({path}, "abc123", 10);
    CHECK(index.loaded() == 2);
    CHECK(index.torn() == 1);
    CHECK(index.has(3));
    CHECK_FALSE(index.has(4));
    const CaseResult five = index.read(5);
    CHECK(five.class_code == "P5");
    CHECK(five.observables[0] == Approx(0.5));
    CHECK(index.read(4).status == CaseStatus::NotRun);
  }
  {  // the resumed run appends to the same log
    CheckpointWriter writer(path, header, 1e9);
    writer.finished(7, result(7));
  }  // flushed on destruction
  CheckpointIndex again({path}, "abc123", 10);
  CHECK(again.loaded() == 3);
  CHECK(again.torn() == 0);
  CHECK(again.duplicates() == 0);
  CHECK(again.read(7).class_code == "P7");
  CHECK(again.read(3).counters == std::vector<std::int64_t>{3, 7});
  CHECK(read_checkpoint_header(path).overrides == std::vector<std::string>{"--run.threads=1"});
  // Another sweep's log is refused, naming the file.
  CHECK_THROWS_AS(CheckpointIndex({path}, "fffff", 10), InputError);
  std::filesystem::remove(path);
}

TEST_CASE("the checkpoint index reads back thousands of cases in any order, records of any size", "[jobs]") {
  // Large records (long stroboscopic windows) cross the reader's windows; random order defeats read-ahead.
  const std::string path = (std::filesystem::temp_directory_path() / "vibro_index_test.h5.ckpt.0").string();
  std::filesystem::remove(path);
  const int n = 3000;
  {
    CheckpointWriter writer(path, {"f", "t.ini", "", {}}, 1e9);
    for (int i = n - 1; i >= 0; --i) {
      CaseResult r = result(i);
      r.strobe.resize(static_cast<std::size_t>(i % 97 == 0 ? 2000 : i % 5));
      for (std::size_t k = 0; k < r.strobe.size(); ++k) r.strobe[k].drift_position = i + 1e-3 * static_cast<double>(k);
      writer.finished(i, r);
      if (i % 700 == 0) writer.flush();  // several batches
    }
  }
  CheckpointIndex index({path}, "f", n);
  REQUIRE(index.loaded() == n);
  int wrong = 0;
  for (int k = 0; k < n; ++k) {
    const int i = (k * 1237) % n;  // a permutation of 0..n-1 (1237 is coprime with 3000)
    const CaseResult r = index.read(i);
    const std::size_t points = static_cast<std::size_t>(i % 97 == 0 ? 2000 : i % 5);
    wrong += r.period != i || r.strobe.size() != points ||
             (points > 0 && r.strobe.back().drift_position != i + 1e-3 * static_cast<double>(points - 1));
  }
  CHECK(wrong == 0);
  std::filesystem::remove(path);
}
