// Checkpoint logs: batches survive, a torn tail is dropped, a log reopened after a kill keeps every
// later batch readable, and a log of another sweep is refused.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/core/input_error.hpp"
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
  std::vector<CaseResult> cases(10);
  CheckpointLoad load = load_checkpoints({path}, "abc123", cases);
  CHECK(load.loaded == 2);
  CHECK(load.torn == 1);
  CHECK(cases[5].class_code == "P5");
  CHECK(cases[5].observables[0] == Approx(0.5));
  {  // the resumed run appends to the same log
    CheckpointWriter writer(path, header, 1e9);
    writer.finished(7, result(7));
  }  // flushed on destruction
  std::vector<CaseResult> again(10);
  load = load_checkpoints({path}, "abc123", again);
  CHECK(load.loaded == 3);
  CHECK(load.torn == 0);
  CHECK(load.duplicates == 0);
  CHECK(again[7].class_code == "P7");
  CHECK(read_checkpoint_header(path).overrides == std::vector<std::string>{"--run.threads=1"});
  // Another sweep's log is refused, naming the file.
  std::vector<CaseResult> other(10);
  CHECK_THROWS_AS(load_checkpoints({path}, "fffff", other), InputError);
  std::filesystem::remove(path);
}
