#include "jobs/output/checkpoint_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>
#include <stdexcept>

// Header-only (every XXH3 function inlined here): no shared library for a binary to carry.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "engine/core/input_error.hpp"
#include "jobs/output/safe_path.hpp"
#include "jobs/sweep/case_result_codec.hpp"

namespace vibro {

namespace {

// The version follows the case record's layout (case_result_codec) and the batch framing: a log of
// another layout is refused.
// 6: samples' arrays trimmed of their zero tails; 7: records checksummed with XXH3 instead of FNV-1a;
// 8: each case's record starts with its size; 9: event counters as varints; 10: sizes and small
// integers as varints, fields at their defaults flagged instead of stored, final states only where
// the sweep uses them.
constexpr char kMagic[] = "VIBRO-CHECKPOINT-10\n";
constexpr std::size_t kMagicSize = sizeof(kMagic) - 1;
// Starts every record; the reader looks for it to resync after a damaged stretch.
constexpr char kMarker[8] = {'\x89', 'V', 'B', 'A', 'T', 'C', 'H', '\n'};
// A record: marker, run id, payload size, checksum (of run id, size and payload), payload.
constexpr std::size_t kFrameSize = 32;
// A batch is flushed early once this big, so the writer's buffer stays bounded on fast sweeps.
constexpr std::size_t kMaxPendingBytes = 16u << 20;
// What a computing thread's buffer holds from the start (address space only until written): twice
// what wakes the writer, so that the threads that go on encoding while it collects the buffers do
// not outgrow them (at half as much, a buffer full at the wake-up was copied into a fresh one twice
// its size, on a 10^6-case map a tenth of the run's time).
constexpr std::size_t kSlotBytes = 2 * kMaxPendingBytes;
// A log not yet a flush interval old is synced anyway once this much of it is unsynced: a fast sweep's
// first sync would otherwise write seconds of records at once while the buffers filled behind it.
constexpr std::uint64_t kMaxUnsyncedBytes = 256u << 20;

// A record's checksum: XXH3 (64 bits; Y. Collet's xxHash) over its run id, its size and its payload,
// streamed, so that a payload held in several buffers sums as one. FNV-1a, one byte at a time, was a
// quarter of the time it took to write a 10^6-case file from its logs; XXH3 reads tens of GB/s.
class RecordSum {
 public:
  RecordSum(std::uint64_t run_id, std::uint64_t size) {
    XXH3_64bits_reset(&state_);
    const std::uint64_t head[2] = {run_id, size};
    add(head, sizeof head);
  }
  void add(const void* data, std::size_t size) { XXH3_64bits_update(&state_, data, size); }
  std::uint64_t value() const { return XXH3_64bits_digest(&state_); }

 private:
  XXH3_state_t state_;
};

void write_frame(std::FILE* file, std::uint64_t run_id, std::uint64_t size, std::uint64_t sum) {
  std::fwrite(kMarker, 1, sizeof kMarker, file);
  const std::uint64_t rest[3] = {run_id, size, sum};
  std::fwrite(rest, sizeof rest, 1, file);
}

enum class Record { Intact, Damaged, End };

// An intact record's contents.
struct RecordView {
  std::uint64_t run_id = 0;
  const char* payload = nullptr;
  std::size_t size = 0;
  std::uint64_t next = 0;  // the offset of the record after it
};

// The record at `at` of a mapped log: Intact (`view` filled in), Damaged (no intact record starts
// there: torn, flipped or garbage), or End of the file. A size beyond the end of the file is refused.
Record read_record(const MappedFile& log, std::uint64_t at, RecordView& view) {
  const std::uint64_t file_size = log.size();
  if (at >= file_size) return Record::End;
  if (file_size - at < kFrameSize) return Record::Damaged;
  const char* frame = log.data() + at;
  if (std::memcmp(frame, kMarker, sizeof kMarker) != 0) return Record::Damaged;
  std::uint64_t rest[3];
  std::memcpy(rest, frame + sizeof kMarker, sizeof rest);
  const std::uint64_t size = rest[1];
  if (size > file_size - at - kFrameSize) return Record::Damaged;
  RecordSum sum(rest[0], size);
  sum.add(frame + kFrameSize, static_cast<std::size_t>(size));
  if (sum.value() != rest[2]) return Record::Damaged;
  view = {rest[0], frame + kFrameSize, static_cast<std::size_t>(size), at + kFrameSize + size};
  return Record::Intact;
}

// The offset of the first marker at or after `from` (the file size when there is none).
std::uint64_t find_marker(const MappedFile& log, std::uint64_t from) {
  if (from >= log.size()) return log.size();
  const char* end = log.data() + log.size();
  const char* hit = std::search(log.data() + from, end, std::begin(kMarker), std::end(kMarker));
  return static_cast<std::uint64_t>(hit - log.data());
}

void put_string(std::vector<char>& out, const std::string& text) {
  const std::uint64_t n = text.size();
  const auto* p = reinterpret_cast<const char*>(&n);
  out.insert(out.end(), p, p + sizeof n);
  out.insert(out.end(), text.begin(), text.end());
}

std::string get_string(const char* in, std::size_t size, std::size_t& at) {
  std::uint64_t n = 0;
  if (at + sizeof n > size) throw std::runtime_error("truncated");
  std::memcpy(&n, in + at, sizeof n);
  at += sizeof n;
  if (n > size - at) throw std::runtime_error("truncated");
  std::string text(in + at, n);
  at += n;
  return text;
}

}  // namespace

MappedFile map_checkpoint(const std::string& path) {
  const int fd = open_regular(path, O_RDONLY, 0, "checkpoint");
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    throw InputError("cannot read checkpoint '" + path + "': " + std::strerror(error));
  }
  try {
    MappedFile log(fd, static_cast<std::uint64_t>(info.st_size), path);
    ::close(fd);
    return log;
  } catch (const std::runtime_error& e) {
    ::close(fd);
    throw InputError(std::string(e.what()));
  }
}

namespace {

// Parses a mapped log's magic and header; returns the offset of the first batch. Throws
// ForeignCheckpoint naming the file when it is not a log of this version.
std::uint64_t read_head(const MappedFile& log, const std::string& path, CheckpointHeader& header) {
  if (log.size() < kMagicSize || std::memcmp(log.data(), kMagic, kMagicSize) != 0)
    throw ForeignCheckpoint("'" + path + "' is not a checkpoint of this vibro version (bad magic); vibro leaves it alone: "
                     "move or delete it to run with this output name");
  const auto damaged = [&] {
    return ForeignCheckpoint("checkpoint '" + path + "' has a damaged header; vibro leaves it alone: move or delete it");
  };
  RecordView record;
  if (read_record(log, kMagicSize, record) != Record::Intact) throw damaged();
  header.run_id = record.run_id;
  try {
    std::size_t p = 0;
    header.fingerprint = get_string(record.payload, record.size, p);
    header.source_name = get_string(record.payload, record.size, p);
    header.sweep_text = get_string(record.payload, record.size, p);
    header.settings = get_string(record.payload, record.size, p);
    while (p < record.size) header.overrides.push_back(get_string(record.payload, record.size, p));
  } catch (const std::runtime_error&) {
    throw damaged();
  }
  return record.next;
}

// The first line that differs between two "key = value" lists, as "key: A in the checkpoint, B now".
std::string first_difference(const std::string& theirs, const std::string& ours) {
  std::istringstream a(theirs), b(ours);
  std::string x, y;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(a, x)), more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a && !more_b) return "";
    if (!more_a) x.clear();
    if (!more_b) y.clear();
    if (x == y) continue;
    const std::string key = (x.empty() ? y : x).substr(0, (x.empty() ? y : x).find(" = "));
    // A long value (an axis of 1000 points) is cut: the message must stay readable.
    const auto value = [&](const std::string& line) {
      if (line.rfind(key + " = ", 0) != 0) return std::string("unset");
      const std::string text = line.substr(key.size() + 3);
      constexpr std::size_t kShown = 80;
      if (text.size() <= kShown) return "'" + text + "'";
      return "'" + text.substr(0, kShown) + "...' (" + std::to_string(text.size()) + " characters)";
    };
    return key + " is " + value(x) + " in the checkpoint and " + value(y) + " now";
  }
}

}  // namespace

void require_same_sweep(const CheckpointHeader& header, const std::string& fingerprint, const std::string& settings,
                        const std::string& path) {
  if (header.fingerprint == fingerprint) return;
  std::string difference = first_difference(header.settings, settings);
  if (difference.empty()) difference = "fingerprint " + header.fingerprint + ", now " + fingerprint;
  throw InputError("checkpoint '" + path + "' was written by a different sweep (" + header.source_name + "): " + difference +
                   "; resume it with the same sweep file and settings, or delete it to start afresh");
}

CheckpointScan scan_checkpoint(const MappedFile& log, const std::string& path,
                               const std::function<bool(const CheckpointHeader&)>& header, const BatchReader& batch) {
  CheckpointHeader parsed;
  CheckpointScan scan;
  std::uint64_t at = read_head(log, path, parsed);
  scan.end = at;
  if (!header(parsed)) return scan;
  RecordView record;
  // The pages scanned leave this process's memory as the scan goes and when it ends: a scan of a log
  // of 10^7 cases otherwise made gigabytes of it resident (the file's own pages, mapped).
  constexpr std::uint64_t kReleaseBytes = 64u << 20;
  std::uint64_t released = 0;
  while (true) {
    if (at >= released + kReleaseBytes) {
      log.release(released, at);
      released = at;
    }
    const Record outcome = read_record(log, at, record);
    if (outcome == Record::End) break;
    if (outcome == Record::Damaged) {
      ++scan.damaged;
      at = find_marker(log, at + 1);
      continue;
    }
    if (record.run_id != parsed.run_id) {
      ++scan.foreign;
    } else {
      if (!batch(record.payload, record.size, at + kFrameSize)) break;
      scan.end = record.next;
    }
    at = record.next;
  }
  log.release();
  return scan;
}

CheckpointScan scan_checkpoint(const std::string& path, const std::function<bool(const CheckpointHeader&)>& header,
                               const BatchReader& batch) {
  return scan_checkpoint(map_checkpoint(path), path, header, batch);
}

CheckpointWriter::CheckpointWriter(const std::string& path, const CheckpointHeader& header, double flush_seconds,
                                   std::function<bool()> hurry, FinalState final_states)
    : path_(path), flush_seconds_(std::min(flush_seconds, 1e6)), final_states_(final_states), hurry_(std::move(hurry)) {
  const int fd = open_regular(path, O_WRONLY | O_CREAT | O_APPEND, 0644, "checkpoint");
  struct stat info {};
  std::uint64_t keep = 0;
  try {
    if (::fstat(fd, &info) != 0) throw InputError("cannot read checkpoint '" + path + "': " + std::strerror(errno));
    if (info.st_size > 0) {
      // Appending to this run's log: after a kill the last batch may be torn (or followed by what
      // does not belong); appending resumes right after the last intact batch.
      const CheckpointScan scan = scan_checkpoint(
          path,
          [&](const CheckpointHeader& existing) {
            run_id_ = existing.run_id;
            return true;
          },
          [](const char*, std::size_t, std::uint64_t) { return true; });
      keep = scan.end;
      if (::ftruncate(fd, static_cast<off_t>(keep)) != 0)
        throw InputError("cannot write checkpoint '" + path + "': " + std::strerror(errno));
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  file_ = ::fdopen(fd, "ab");
  if (!file_) {
    ::close(fd);
    throw InputError("cannot write checkpoint '" + path + "': " + std::strerror(errno));
  }
  if (keep == 0) {
    std::random_device random;
    run_id_ = (static_cast<std::uint64_t>(random()) << 32) ^ random();
    std::fwrite(kMagic, 1, kMagicSize, file_);
    std::vector<char> payload;
    put_string(payload, header.fingerprint);
    put_string(payload, header.source_name);
    put_string(payload, header.sweep_text);
    put_string(payload, header.settings);
    for (const auto& o : header.overrides) put_string(payload, o);
    RecordSum sum(run_id_, payload.size());
    sum.add(payload.data(), payload.size());
    write_frame(file_, run_id_, payload.size(), sum.value());
    std::fwrite(payload.data(), 1, payload.size(), file_);
    std::fflush(file_);  // synced with the first batch that is (write_pending)
  }
  writer_ = std::thread([this] { write_loop(); });
}

CheckpointWriter::~CheckpointWriter() {
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  writer_.join();
  write_pending(sync_at_close_ ? Sync::Now : Sync::Never);
  if (file_) std::fclose(file_);
}

template <class Encode>
void CheckpointWriter::encode_into_slot(Encode encode) {
  // Threads are numbered as they first arrive, so up to kSlots threads never share a slot.
  static std::atomic<std::size_t> threads_seen{0};
  thread_local const std::size_t thread_number = threads_seen++;
  Slot& slot = slots_[thread_number % kSlots];
  std::size_t before = 0, after = 0;
  {
    std::lock_guard<std::mutex> lock(slot.mutex);
    // Room for a whole batch from the start: grown by doubling, a slot's buffer was copied over and
    // over (and its fresh pages faulted in) on fast sweeps; pages never written are never touched.
    if (slot.bytes.capacity() < kSlotBytes) slot.bytes.reserve(kSlotBytes);
    before = slot.bytes.size();
    encode(slot.bytes);
    after = slot.bytes.size();
  }
  const auto added = static_cast<long long>(after - before);
  if (pending_bytes_.fetch_add(added) + added >= static_cast<long long>(kMaxPendingBytes) || hurrying_.load()) {
    {
      std::lock_guard<std::mutex> lock(wake_mutex_);
      urgent_ = true;
    }
    wake_.notify_one();
  }
}

void CheckpointWriter::finished(long long index, const CaseResult& result) {
  encode_into_slot([&](SlotBytes& bytes) {
    const std::string_view record = case_record(index, result, final_states_);
    bytes.insert(bytes.end(), record.begin(), record.end());
  });
}

void CheckpointWriter::finished_summaries(const SummaryCase* cases, std::size_t count) {
  encode_into_slot([&](SlotBytes& bytes) {
    for (std::size_t k = 0; k < count; ++k) {
      const std::string_view record = summary_record(cases[k]);
      bytes.insert(bytes.end(), record.begin(), record.end());
    }
  });
}

void CheckpointWriter::flush() { write_pending(Sync::Now); }

void CheckpointWriter::write_loop() {
  using Clock = std::chrono::steady_clock;
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(flush_seconds_));
  const auto poll = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kHurryPollSeconds));
  auto due = Clock::now() + period;
  std::unique_lock<std::mutex> lock(wake_mutex_);
  while (!stop_) {
    const bool polling = hurry_ && !hurrying_.load();
    wake_.wait_until(lock, polling ? std::min(due, Clock::now() + poll) : due, [this] { return stop_ || urgent_; });
    if (stop_) break;
    if (polling && hurry_()) hurrying_.store(true);  // from now on finished() wakes this loop for every case
    if (!urgent_ && !hurrying_.load() && Clock::now() < due) continue;
    urgent_ = false;
    due = Clock::now() + period;
    lock.unlock();
    write_pending(hurrying_.load() ? Sync::Now : Sync::WhenDue);  // a stop near: every case on disk at once
    lock.lock();
  }
}

void CheckpointWriter::write_pending(Sync sync) {
  std::lock_guard<std::mutex> file_lock(file_mutex_);
  // Swap each slot's bytes for an emptied buffer of the last round: buffers keep their capacity, so
  // a running sweep allocates (and page-faults) no new memory for its log, and computing threads wait
  // only for a swap, never for the copy or the disk.
  std::uint64_t size = 0;
  for (std::size_t k = 0; k < kSlots; ++k) {
    {
      std::lock_guard<std::mutex> lock(slots_[k].mutex);
      std::swap(slots_[k].bytes, outgoing_[k]);
    }
    size += outgoing_[k].size();
  }
  pending_bytes_ -= static_cast<long long>(size);
  if (size > 0 && file_) {
    // One record whose payload is the concatenated buffers.
    RecordSum sum(run_id_, size);
    for (const auto& bytes : outgoing_) sum.add(bytes.data(), bytes.size());
    write_frame(file_, run_id_, size, sum.value());
    for (const auto& bytes : outgoing_) std::fwrite(bytes.data(), 1, bytes.size(), file_);
    std::fflush(file_);  // a batch is either whole in the file or detected as torn
    unsynced_bytes_ += size;
  }
  const bool due = unsynced_bytes_ >= kMaxUnsyncedBytes ||
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_).count() >= flush_seconds_;
  if (file_ && (sync == Sync::Now || (sync == Sync::WhenDue && due))) {
    fsync(fileno(file_));
    unsynced_bytes_ = 0;
  }
  for (auto& bytes : outgoing_) bytes.clear();
}

std::vector<std::string> checkpoint_files(const std::string& output_file) {
  std::vector<std::string> files;
  const auto exists = [&](int rank) { return path_kind(output_file + ".ckpt." + std::to_string(rank)) != PathKind::Missing; };
  for (int rank = 0; rank < 1 << 20; ++rank) {
    const std::string path = output_file + ".ckpt." + std::to_string(rank);
    if (!exists(rank)) {
      // Ranks are numbered densely, but a run on fewer ranks may follow one on more: look a bit ahead.
      bool more = false;
      for (int ahead = 1; ahead <= 64 && !more; ++ahead) more = exists(rank + ahead);
      if (!more) break;
      continue;
    }
    files.push_back(path);
  }
  return files;
}

CheckpointHeader read_checkpoint_header(const std::string& path) {
  CheckpointHeader header;
  read_head(map_checkpoint(path), path, header);
  return header;
}

}  // namespace vibro
