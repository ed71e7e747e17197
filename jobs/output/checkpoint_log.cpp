#include "jobs/output/checkpoint_log.hpp"

#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/case_result_codec.hpp"

namespace vibro {

namespace {

// The version follows the case record's layout (case_result_codec): a log of another layout is refused.
constexpr char kMagic[] = "VIBRO-CHECKPOINT-3\n";
constexpr std::size_t kMagicSize = sizeof(kMagic) - 1;
// A batch is flushed early once this big, so the writer's buffer stays bounded on fast sweeps.
constexpr std::size_t kMaxPendingBytes = 32u << 20;

constexpr std::uint64_t kFnvBasis = 1469598103934665603ULL;

// `hash` carries on from the bytes before: a record split over several buffers sums as one.
std::uint64_t fnv1a(const char* data, std::size_t size, std::uint64_t hash = kFnvBasis) {
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ULL;
  }
  return hash;
}

// A record: payload size, checksum of the payload, payload.
void write_record(std::FILE* file, const std::vector<char>& payload) {
  const std::uint64_t size = payload.size(), sum = fnv1a(payload.data(), payload.size());
  std::fwrite(&size, sizeof size, 1, file);
  std::fwrite(&sum, sizeof sum, 1, file);
  std::fwrite(payload.data(), 1, payload.size(), file);
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// Reads the next complete, intact record of a file of `file_size` bytes; false at the end or at a
// torn/corrupt tail (a size beyond the end of the file is never allocated).
bool read_record(std::FILE* file, std::uint64_t file_size, std::uint64_t& at, std::vector<char>& payload) {
  std::uint64_t head[2] = {0, 0};
  if (file_size - at < sizeof head || std::fread(head, sizeof head, 1, file) != 1) return false;
  const std::uint64_t size = head[0], sum = head[1];
  if (size > file_size - at - sizeof head) return false;
  payload.resize(size);
  if (size > 0 && std::fread(payload.data(), 1, size, file) != size) return false;
  if (fnv1a(payload.data(), payload.size()) != sum) return false;
  at += sizeof head + size;
  return true;
}

void put_string(std::vector<char>& out, const std::string& text) {
  const std::uint64_t n = text.size();
  const auto* p = reinterpret_cast<const char*>(&n);
  out.insert(out.end(), p, p + sizeof n);
  out.insert(out.end(), text.begin(), text.end());
}

std::string get_string(const std::vector<char>& in, std::size_t& at) {
  std::uint64_t n = 0;
  if (at + sizeof n > in.size()) throw std::runtime_error("truncated");
  std::memcpy(&n, in.data() + at, sizeof n);
  at += sizeof n;
  if (n > in.size() - at) throw std::runtime_error("truncated");
  std::string text(in.data() + at, n);
  at += n;
  return text;
}

// Opens a log and parses magic and header; leaves the file at the first batch. Throws InputError.
File open_log(const std::string& path, std::uint64_t& file_size, std::uint64_t& at, CheckpointHeader& header) {
  File file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw InputError("cannot read checkpoint '" + path + "': " + std::strerror(errno));
  std::error_code error;
  file_size = std::filesystem::file_size(path, error);
  if (error) throw InputError("cannot read checkpoint '" + path + "': " + error.message());
  char magic[kMagicSize];
  if (file_size < kMagicSize || std::fread(magic, 1, kMagicSize, file.get()) != kMagicSize ||
      std::memcmp(magic, kMagic, kMagicSize) != 0)
    throw InputError("'" + path + "' is not a vibro checkpoint (bad magic)");
  at = kMagicSize;
  std::vector<char> payload;
  if (!read_record(file.get(), file_size, at, payload)) throw InputError("checkpoint '" + path + "' has a damaged header");
  try {
    std::size_t p = 0;
    header.fingerprint = get_string(payload, p);
    header.source_name = get_string(payload, p);
    header.sweep_text = get_string(payload, p);
    while (p < payload.size()) header.overrides.push_back(get_string(payload, p));
  } catch (const std::runtime_error&) {
    throw InputError("checkpoint '" + path + "' has a damaged header");
  }
  return file;
}

}  // namespace

std::uint64_t scan_checkpoint(const std::string& path, const std::function<bool(const CheckpointHeader&)>& header,
                              const std::function<bool(const std::vector<char>&, std::uint64_t)>& batch) {
  std::uint64_t file_size = 0, at = 0;
  CheckpointHeader parsed;
  File file(nullptr, &std::fclose);
  try {
    file = open_log(path, file_size, at, parsed);
  } catch (const InputError&) {
    if (!std::filesystem::exists(path)) throw;
    return 0;  // a damaged header: nothing in this log can be trusted
  }
  if (!header(parsed)) return 0;
  std::vector<char> payload;
  for (std::uint64_t start = at; read_record(file.get(), file_size, at, payload); start = at)
    if (!batch(payload, start + 2 * sizeof(std::uint64_t))) return start;
  return at;
}

CheckpointWriter::CheckpointWriter(const std::string& path, const CheckpointHeader& header, double flush_seconds)
    : path_(path), flush_seconds_(std::min(flush_seconds, 1e6)) {
  bool exists = std::filesystem::exists(path);
  if (exists) {
    // A kill during a write leaves a torn last batch; a batch appended after it would never be read.
    const auto keep = scan_checkpoint(path, [](const CheckpointHeader&) { return true; },
                                      [](const std::vector<char>&, std::uint64_t) { return true; });
    if (keep < std::filesystem::file_size(path)) std::filesystem::resize_file(path, keep);
    exists = keep > 0;
  }
  file_ = std::fopen(path.c_str(), "ab");
  if (!file_) throw InputError("cannot write checkpoint '" + path + "': " + std::strerror(errno));
  if (!exists) {
    std::fwrite(kMagic, 1, kMagicSize, file_);
    std::vector<char> payload;
    put_string(payload, header.fingerprint);
    put_string(payload, header.source_name);
    put_string(payload, header.sweep_text);
    for (const auto& o : header.overrides) put_string(payload, o);
    write_record(file_, payload);
    std::fflush(file_);
    fsync(fileno(file_));
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
  write_pending();
  if (file_) std::fclose(file_);
}

void CheckpointWriter::finished(long long index, const CaseResult& result) {
  // Threads are numbered as they first arrive, so up to kSlots threads never share a slot.
  static std::atomic<std::size_t> threads_seen{0};
  thread_local const std::size_t thread_number = threads_seen++;
  Slot& slot = slots_[thread_number % kSlots];
  std::size_t before = 0, after = 0;
  {
    std::lock_guard<std::mutex> lock(slot.mutex);
    before = slot.bytes.size();
    encode_case(index, result, slot.bytes);
    after = slot.bytes.size();
  }
  const auto added = static_cast<long long>(after - before);
  if (pending_bytes_.fetch_add(added) + added >= static_cast<long long>(kMaxPendingBytes)) {
    {
      std::lock_guard<std::mutex> lock(wake_mutex_);
      urgent_ = true;
    }
    wake_.notify_one();
  }
}

void CheckpointWriter::flush() { write_pending(); }

void CheckpointWriter::write_loop() {
  std::unique_lock<std::mutex> lock(wake_mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::duration<double>(flush_seconds_), [this] { return stop_ || urgent_; });
    if (stop_) break;
    urgent_ = false;
    lock.unlock();
    write_pending();
    lock.lock();
  }
}

void CheckpointWriter::write_pending() {
  std::lock_guard<std::mutex> file_lock(file_mutex_);
  // Swap each slot's bytes for an emptied buffer of the last round: buffers keep their capacity, so
  // a running sweep allocates (and page-faults) no new memory for its log, and computing threads wait
  // only for a swap, never for the copy or the disk.
  std::uint64_t size = 0, sum = kFnvBasis;
  for (std::size_t k = 0; k < kSlots; ++k) {
    {
      std::lock_guard<std::mutex> lock(slots_[k].mutex);
      std::swap(slots_[k].bytes, outgoing_[k]);
    }
    size += outgoing_[k].size();
    sum = fnv1a(outgoing_[k].data(), outgoing_[k].size(), sum);
  }
  pending_bytes_ -= static_cast<long long>(size);
  if (size > 0 && file_) {
    // One record, as write_record would lay it out from the concatenated buffers.
    std::fwrite(&size, sizeof size, 1, file_);
    std::fwrite(&sum, sizeof sum, 1, file_);
    for (const auto& bytes : outgoing_) std::fwrite(bytes.data(), 1, bytes.size(), file_);
    std::fflush(file_);
    fsync(fileno(file_));  // a batch is either whole on disk or detected as torn
  }
  for (auto& bytes : outgoing_) bytes.clear();
}

std::vector<std::string> checkpoint_files(const std::string& output_file) {
  std::vector<std::string> files;
  for (int rank = 0; rank < 1 << 20; ++rank) {
    const std::string path = output_file + ".ckpt." + std::to_string(rank);
    if (!std::filesystem::exists(path)) {
      // Ranks are numbered densely, but a run on fewer ranks may follow one on more: look a bit ahead.
      bool more = false;
      for (int ahead = 1; ahead <= 64 && !more; ++ahead)
        more = std::filesystem::exists(output_file + ".ckpt." + std::to_string(rank + ahead));
      if (!more) break;
      continue;
    }
    files.push_back(path);
  }
  return files;
}

CheckpointHeader read_checkpoint_header(const std::string& path) {
  std::uint64_t file_size = 0, at = 0;
  CheckpointHeader header;
  open_log(path, file_size, at, header);
  return header;
}

}  // namespace vibro
