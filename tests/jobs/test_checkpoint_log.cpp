// Checkpoint logs: batches survive, a torn tail is dropped, a log reopened after a kill keeps every
// later batch readable, a log of another sweep is refused naming the setting, a flipped bit drops
// only its batch, batches spliced in from another sweep's or another model's log are ignored, and a
// file that is not a vibro log is neither read nor truncated; once told to hurry (a stop signal), a
// writer puts every case on disk as soon as it is finished; a writer told to drop final states keeps
// every other field.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

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

TEST_CASE("checkpoint batches are reloaded, a torn tail is dropped and appending after it is safe", "[jobs]") {
  const std::string path = (std::filesystem::temp_directory_path() / "vibro_test.h5.ckpt.0").string();
  std::filesystem::remove(path);
  const CheckpointHeader header{"abc123", "test.ini", "model = conveyor\n", {"--run.threads=1"}, ""};
  {
    CheckpointWriter writer(path, header, 1e9);
    writer.finished(3, result(3));
    writer.finished(5, result(5));
    writer.flush();
  }
  {  // a kill in the middle of the next batch: a torn record at the end of the file
    std::ofstream tail(path, std::ios::binary | std::ios::app);
    const char torn[] = {'\x89', 'V', 'B', 'A', 'T', 'C', 'H', '\n', 0x40, 0, 0, 0, 1, 2, 3};
    tail.write(torn, sizeof torn);
  }
  {
    CheckpointIndex index({path}, "abc123", "", 10);
    CHECK(index.loaded() == 2);
    CHECK(index.damaged() == 1);
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
  CheckpointIndex again({path}, "abc123", "", 10);
  CHECK(again.loaded() == 3);
  CHECK(again.damaged() == 0);
  CHECK(again.duplicates() == 0);
  CHECK(again.read(7).class_code == "P7");
  CHECK(again.read(3).counters == std::vector<std::int64_t>{3, 7});
  CHECK(read_checkpoint_header(path).overrides == std::vector<std::string>{"--run.threads=1"});
  // Another sweep's log is refused, naming the file.
  CHECK_THROWS_AS(CheckpointIndex({path}, "fffff", "", 10), InputError);
  std::filesystem::remove(path);
}

TEST_CASE("a checkpoint writer told to drop final states keeps every other field of its cases", "[jobs]") {
  const std::string path = (std::filesystem::temp_directory_path() / "vibro_test_final.h5.ckpt.0").string();
  CaseResult ended = result(4);
  ended.has_final_state = true;
  ended.final_state.state[0] = 1.5;
  ended.final_state.counters[1] = 9;
  for (const FinalState kept : {FinalState::Kept, FinalState::Dropped}) {
    std::filesystem::remove(path);
    {
      CheckpointWriter writer(path, {"f", "t.ini", "", {}, ""}, 1e9, {}, kept);
      writer.finished(0, ended);
    }
    CheckpointIndex index({path}, "f", "", 1);
    const CaseResult back = index.read(0);
    CHECK(back.class_code == "P4");
    CHECK(back.observables == ended.observables);
    CHECK(back.counters == ended.counters);
    CHECK(back.has_final_state == (kept == FinalState::Kept));
    CHECK(back.final_state.state[0] == (kept == FinalState::Kept ? 1.5 : 0.0));
    CHECK(back.final_state.counters[1] == (kept == FinalState::Kept ? 9 : 0));
  }
  std::filesystem::remove(path);
}

TEST_CASE("a hurried checkpoint writer puts every finished case on disk at once, without its destructor", "[jobs]") {
  const std::string path = (std::filesystem::temp_directory_path() / "vibro_test_hurry.h5.ckpt.0").string();
  std::filesystem::remove(path);
  std::atomic<bool> signalled{false};
  const auto on_disk = [&] { return CheckpointIndex({path}, "h", "", 10).loaded(); };
  // Polls up to 2 s: the writer's thread checks the flag every 20 ms.
  const auto reaches = [&](long long count) {
    for (int k = 0; k < 200 && on_disk() < count; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return on_disk();
  };
  {
    CheckpointWriter writer(path, {"h", "t.ini", "", {}, ""}, 1e9, [&] { return signalled.load(); });
    writer.finished(1, result(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(on_disk() == 0);  // the flush interval (1e9 s) has not passed and nobody hurries it
    signalled = true;
    CHECK(reaches(1) == 1);  // what was pending, at once
    writer.finished(2, result(2));
    CHECK(reaches(2) == 2);  // and every later case as it comes
    writer.finished(3, result(3));
    CHECK(reaches(3) == 3);
  }
  std::filesystem::remove(path);
}

TEST_CASE("the checkpoint index reads back thousands of cases in any order, records of any size", "[jobs]") {
  // Large records (long stroboscopic windows) cross the reader's windows; random order defeats read-ahead.
  const std::string path = (std::filesystem::temp_directory_path() / "vibro_index_test.h5.ckpt.0").string();
  std::filesystem::remove(path);
  const int n = 3000;
  {
    CheckpointWriter writer(path, {"f", "t.ini", "", {}, ""}, 1e9);
    for (int i = n - 1; i >= 0; --i) {
      CaseResult r = result(i);
      r.strobe.resize(static_cast<std::size_t>(i % 97 == 0 ? 2000 : i % 5));
      for (std::size_t k = 0; k < r.strobe.size(); ++k) r.strobe[k].drift_position = i + 1e-3 * static_cast<double>(k);
      writer.finished(i, r);
      if (i % 700 == 0) writer.flush();  // several batches
    }
  }
  CheckpointIndex index({path}, "f", "", n);
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

namespace {

std::string temp_path(const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::filesystem::remove(path);
  return path;
}

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A log of `header` with one batch per case in `cases`; returns each batch's [start, end) in the file.
std::vector<std::pair<std::size_t, std::size_t>> write_log(const std::string& path, const CheckpointHeader& header,
                                                           const std::vector<int>& cases) {
  std::vector<std::pair<std::size_t, std::size_t>> batches;
  CheckpointWriter writer(path, header, 1e9);
  for (const int i : cases) {
    const auto start = static_cast<std::size_t>(std::filesystem::file_size(path));
    writer.finished(i, result(i));
    writer.flush();
    batches.emplace_back(start, static_cast<std::size_t>(std::filesystem::file_size(path)));
  }
  return batches;
}

}  // namespace

TEST_CASE("a flipped bit drops only its batch: the reader resyncs at the next one", "[jobs]") {
  const std::string path = temp_path("vibro_flip.h5.ckpt.0");
  const auto batches = write_log(path, {"fp", "a.ini", "", {}, "model = conveyor\n"}, {0, 1, 2, 3, 4, 5});
  const std::vector<char> clean = bytes_of(path);
  int exact = 0, trials = 0;
  // Every byte of batch 2 (frame and payload), each with a different bit flipped.
  for (std::size_t at = batches[2].first; at < batches[2].second; ++at) {
    std::vector<char> bytes = clean;
    bytes[at] = static_cast<char>(bytes[at] ^ (1 << (at % 8)));
    write_bytes(path, bytes);
    CheckpointIndex index({path}, "fp", "", 6);
    ++trials;
    exact += index.loaded() == 5 && !index.has(2) && index.has(5) && index.damaged() == 1 && index.read(5).period == 5;
  }
  CHECK(exact == trials);
  std::filesystem::remove(path);
}

TEST_CASE("batches spliced from another sweep's or another model's log are ignored", "[jobs]") {
  const std::string ours = temp_path("vibro_ours.h5.ckpt.0"), other = temp_path("vibro_other.h5.ckpt.0"),
                    model = temp_path("vibro_model.h5.ckpt.0");
  write_log(ours, {"fp", "a.ini", "", {}, "model = conveyor\nparameters.c_r = 0.5\n"}, {0, 1});
  // Same model, another setting; another model: cases 2 and 3, whose batches are appended to ours
  // (what concatenating two logs does) and spliced between our batches.
  const auto other_batches = write_log(other, {"fq", "a.ini", "", {}, "model = conveyor\nparameters.c_r = 0.7\n"}, {2, 0});
  const auto model_batches = write_log(model, {"fm", "g.ini", "", {}, "model = gap_oscillator\n"}, {3, 1});
  std::vector<char> spliced = bytes_of(ours);
  const std::vector<char> a = bytes_of(other), b = bytes_of(model);
  spliced.insert(spliced.end(), a.begin() + static_cast<long>(other_batches[0].first), a.end());
  spliced.insert(spliced.end(), b.begin() + static_cast<long>(model_batches[0].first), b.end());
  write_bytes(ours, spliced);
  {
    CheckpointIndex index({ours}, "fp", "", 4);
    CHECK(index.loaded() == 2);
    CHECK_FALSE(index.has(2));
    CHECK_FALSE(index.has(3));
    CHECK(index.duplicates() == 0);  // cases 0 and 1 of the other logs did not overwrite ours
    CHECK(index.foreign_batches() == 4);
    CHECK(index.read(0).period == 0);
  }
  {  // appending after them: the foreign tail is cut, our new batch is read
    CheckpointWriter writer(ours, {"fp", "a.ini", "", {}, ""}, 1e9);
    writer.finished(2, result(2));
  }
  CheckpointIndex again({ours}, "fp", "", 4);
  CHECK(again.loaded() == 3);
  CHECK(again.foreign_batches() == 0);
  // A whole log of another sweep is refused, naming the setting that differs.
  try {
    CheckpointIndex refused({other}, "fp", "model = conveyor\nparameters.c_r = 0.5\n", 4);
    FAIL("another sweep's log was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("parameters.c_r is '0.7' in the checkpoint and '0.5' now") != std::string::npos);
  }
  for (const auto& p : {ours, other, model}) std::filesystem::remove(p);
}

TEST_CASE("another sweep's log: a long differing value is cut in the message", "[jobs]") {
  const std::string path = temp_path("vibro_long_axis.h5.ckpt.0");
  std::string axis = "axes.z0 = axis 1:";
  for (int i = 0; i < 1000; ++i) axis += " 0.000" + std::to_string(1000 + i);
  write_log(path, {"fa", "a.ini", "", {}, "model = conveyor\n" + axis + "\n"}, {0});
  try {
    CheckpointIndex refused({path}, "fb", "model = conveyor\naxes.z0 = axis 1: 0.0001 0.0002\n", 4);
    FAIL("another sweep's log was accepted");
  } catch (const InputError& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.find("axes.z0 is 'axis 1: 0.0001000 0.0001001") != std::string::npos);
    CHECK(message.find("...' (" + std::to_string(axis.size() - 10) + " characters) in the checkpoint and 'axis 1: 0.0001 0.0002' now") !=
          std::string::npos);
    CHECK(message.size() < 400);
  }
  std::filesystem::remove(path);
}

TEST_CASE("a file at a checkpoint's name that vibro did not write is neither read nor truncated", "[jobs]") {
  const std::string path = temp_path("vibro_foreign.h5.ckpt.0");
  write_bytes(path, std::vector<char>(1000, 'x'));
  CheckpointIndex index({path}, "fp", "", 4);
  CHECK(index.logs().empty());
  CHECK(index.ignored() == std::vector<std::string>{path});
  CHECK_THROWS_AS(CheckpointWriter(path, {"fp", "a.ini", "", {}, ""}, 1e9), InputError);
  CHECK(std::filesystem::file_size(path) == 1000);
  std::filesystem::remove(path);
  // A folder at that name: an input error, not a file-system exception.
  std::filesystem::create_directory(path);
  CHECK_THROWS_AS(CheckpointIndex({path}, "fp", "", 4), InputError);
  CHECK_THROWS_AS(CheckpointWriter(path, {"fp", "a.ini", "", {}, ""}, 1e9), InputError);
  std::filesystem::remove(path);
}

namespace {

// This process's resident pages of mapped files, in kB (/proc/self/status: RssFile).
long resident_file_kb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long kb = -1;
  while (status >> key) {
    if (key == "RssFile:") {
      status >> kb;
      break;
    }
    status.ignore(1 << 12, '\n');
  }
  return kb;
}

}  // namespace

TEST_CASE("indexing and reading a large log does not leave it resident in the process", "[jobs]") {
  // The index reads the logs through a mapping: pages a scan or a read touched count as the process's
  // resident memory until released. A sweep of 10^7 cases made its whole 4-GB log resident so.
  const std::string path = temp_path("vibro_resident.h5.ckpt.0");
  const int n = 600;
  {
    CheckpointWriter writer(path, {"r", "t.ini", "", {}, ""}, 1e9);
    for (int i = 0; i < n; ++i) {
      CaseResult r = result(i);
      r.strobe.resize(4000);  // 36 bytes a point (3 state components, drift, mode): an 86-MB log
      for (std::size_t k = 0; k < r.strobe.size(); ++k) {
        r.strobe[k].drift_position = i + 1e-6 * static_cast<double>(k);
        r.strobe[k].state[0] = r.strobe[k].state[1] = r.strobe[k].state[2] = 1.0;
      }
      writer.finished(i, r);
    }
  }
  const long log_kb = static_cast<long>(std::filesystem::file_size(path) / 1024);
  REQUIRE(log_kb > 64 * 1024);
  const long before = resident_file_kb();
  REQUIRE(before >= 0);
  CheckpointIndex index({path}, "r", "", n);
  REQUIRE(index.loaded() == n);
  CHECK(resident_file_kb() - before < log_kb / 4);  // the scan released what it read
  CaseResult r;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    index.read_into(i, r);
    wrong += r.period != i || r.strobe.back().drift_position != i + 1e-6 * 3999;
  }
  CHECK(wrong == 0);
  CHECK(resident_file_kb() - before > log_kb / 2);  // reading maps the pages again (what this test measures)
  index.release_pages();
  CHECK(resident_file_kb() - before < log_kb / 4);
  std::filesystem::remove(path);
}
