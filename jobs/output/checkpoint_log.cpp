#include "jobs/output/checkpoint_log.hpp"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/case_result_codec.hpp"

namespace vibro {

namespace {

constexpr char kMagic[] = "VIBRO-CHECKPOINT-1\n";
constexpr std::size_t kMagicSize = sizeof(kMagic) - 1;

std::uint64_t fnv1a(const char* data, std::size_t size) {
  std::uint64_t hash = 1469598103934665603ULL;
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

// Reads the next complete, intact record; false at the end or at a torn/corrupt tail.
bool read_record(const std::vector<char>& bytes, std::size_t& at, std::vector<char>& payload) {
  std::uint64_t size = 0, sum = 0;
  if (at + sizeof size + sizeof sum > bytes.size()) return false;
  std::memcpy(&size, bytes.data() + at, sizeof size);
  std::memcpy(&sum, bytes.data() + at + sizeof size, sizeof sum);
  const std::size_t start = at + sizeof size + sizeof sum;
  if (size > bytes.size() - start) return false;
  if (fnv1a(bytes.data() + start, size) != sum) return false;
  payload.assign(bytes.data() + start, bytes.data() + start + size);
  at = start + size;
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

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read checkpoint '" + path + "'");
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

// Parses magic and header; leaves `at` at the first case record.
CheckpointHeader parse_header(const std::vector<char>& bytes, const std::string& path, std::size_t& at) {
  if (bytes.size() < kMagicSize || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    throw InputError("'" + path + "' is not a vibro checkpoint (bad magic)");
  at = kMagicSize;
  std::vector<char> payload;
  if (!read_record(bytes, at, payload)) throw InputError("checkpoint '" + path + "' has a damaged header");
  CheckpointHeader header;
  try {
    std::size_t p = 0;
    header.fingerprint = get_string(payload, p);
    header.source_name = get_string(payload, p);
    header.sweep_text = get_string(payload, p);
    while (p < payload.size()) header.overrides.push_back(get_string(payload, p));
  } catch (const std::runtime_error&) {
    throw InputError("checkpoint '" + path + "' has a damaged header");
  }
  return header;
}

}  // namespace

// The length of the valid prefix of an existing log (0 if its header is damaged): a kill during a
// write leaves a torn last batch, and a batch appended after it would never be read.
static std::uintmax_t valid_prefix(const std::string& path) {
  const auto bytes = read_bytes(path);
  std::size_t at = 0;
  try {
    parse_header(bytes, path, at);
  } catch (const InputError&) {
    return 0;
  }
  std::vector<char> payload;
  while (read_record(bytes, at, payload)) {
  }
  return at;
}

CheckpointWriter::CheckpointWriter(const std::string& path, const CheckpointHeader& header, double flush_seconds)
    : path_(path), flush_seconds_(flush_seconds), last_flush_(std::chrono::steady_clock::now()) {
  bool exists = std::filesystem::exists(path);
  if (exists) {
    const auto keep = valid_prefix(path);
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
}

CheckpointWriter::~CheckpointWriter() {
  flush();
  if (file_) std::fclose(file_);
}

void CheckpointWriter::finished(long long index, const CaseResult& result) {
  std::lock_guard<std::mutex> lock(mutex_);
  encode_case(index, result, pending_);
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_flush_).count() >= flush_seconds_) flush_locked();
}

void CheckpointWriter::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  flush_locked();
}

void CheckpointWriter::flush_locked() {
  last_flush_ = std::chrono::steady_clock::now();
  if (pending_.empty() || !file_) return;
  write_record(file_, pending_);
  std::fflush(file_);
  fsync(fileno(file_));  // a batch is either whole on disk or detected as torn
  pending_.clear();
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
  const auto bytes = read_bytes(path);
  std::size_t at = 0;
  return parse_header(bytes, path, at);
}

CheckpointLoad load_checkpoints(const std::vector<std::string>& paths, const std::string& fingerprint,
                                std::vector<CaseResult>& cases) {
  CheckpointLoad load;
  for (const auto& path : paths) {
    const auto bytes = read_bytes(path);
    std::size_t at = 0;
    const CheckpointHeader header = parse_header(bytes, path, at);
    if (header.fingerprint != fingerprint)
      throw InputError("checkpoint '" + path + "' was written by a different sweep (" + header.source_name +
                       "); resume it with the same sweep file and settings, or delete it to start afresh");
    std::vector<char> payload;
    while (read_record(bytes, at, payload)) {
      std::vector<std::pair<long long, CaseResult>> batch;
      try {
        decode_each(payload, [&](long long index, CaseResult&& r) {
          if (index < 0 || index >= static_cast<long long>(cases.size())) throw std::runtime_error("index");
          batch.emplace_back(index, std::move(r));
        });
      } catch (const std::runtime_error&) {
        break;  // a batch that passed its checksum but does not decode: stop trusting this log
      }
      for (auto& [index, r] : batch) {
        auto& slot = cases[static_cast<std::size_t>(index)];
        ++(slot.status == CaseStatus::NotRun ? load.loaded : load.duplicates);
        slot = std::move(r);
      }
    }
    if (at != bytes.size()) ++load.torn;
  }
  return load;
}

}  // namespace vibro
