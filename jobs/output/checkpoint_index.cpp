#include "jobs/output/checkpoint_index.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/output/checkpoint_log.hpp"
#include "jobs/output/safe_path.hpp"
#include "jobs/sweep/case_result_codec.hpp"

namespace vibro {

CheckpointIndex::CheckpointIndex(const std::vector<std::string>& logs, const std::string& fingerprint,
                                 const std::string& settings, long long cases)
    : where_(static_cast<std::size_t>(cases), kMissing) {
  if (logs.size() >= (1u << (64 - kOffsetBits))) throw InputError("too many checkpoint logs to index");
  for (const std::string& path : logs) {
    const std::size_t log = logs_.size();
    const auto check = [&](const CheckpointHeader& header) {
      require_same_sweep(header, fingerprint, settings, path);
      return true;
    };
    std::vector<std::pair<long long, std::uint64_t>> batch;
    const auto take = [&](const std::vector<char>& payload, std::uint64_t offset) {
      batch.clear();
      try {
        for (std::size_t at = 0; at < payload.size();) {
          const std::size_t start = at;
          long long index = 0;
          CaseResult result;
          decode_case(payload.data(), payload.size(), at, index, result);
          if (index < 0 || index >= cases) throw std::runtime_error("index");
          batch.emplace_back(index, offset + start);
        }
      } catch (const std::runtime_error&) {
        return false;  // a batch that passed its checksum but does not decode: stop trusting this log
      }
      for (const auto& [index, at] : batch) {
        auto& slot = where_[static_cast<std::size_t>(index)];
        ++(slot == kMissing ? loaded_ : duplicates_);
        slot = (static_cast<std::uint64_t>(log) << kOffsetBits) | at;
      }
      return true;
    };
    CheckpointScan scan;
    try {
      scan = scan_checkpoint(path, check, take);
    } catch (const ForeignCheckpoint&) {
      ignored_.push_back(path);  // not vibro's: neither read nor, later, deleted
      continue;
    }
    logs_.push_back(path);
    sizes_.push_back(std::filesystem::file_size(path));
    damaged_ += scan.damaged;
    foreign_batches_ += scan.foreign;
  }
  windows_.resize(logs_.size());
}

CheckpointIndex::~CheckpointIndex() {
  for (const auto& window : windows_)
    if (window.fd >= 0) ::close(window.fd);
}

bool CheckpointIndex::decode_from(Window& window, std::uint64_t offset, long long index, CaseResult& result) const {
  if (offset < window.start || offset >= window.start + window.bytes.size()) return false;
  std::size_t at = static_cast<std::size_t>(offset - window.start);
  long long found = -1;
  try {
    decode_case(window.bytes.data(), window.bytes.size(), at, found, result);
  } catch (const std::runtime_error&) {
    return false;  // the record runs past the window
  }
  if (found != index) throw std::runtime_error("checkpoint index out of step with its logs (case " + std::to_string(index) + ")");
  return true;
}

void CheckpointIndex::refill(std::size_t log, std::uint64_t offset, std::size_t size) {
  Window& window = windows_[log];
  size = static_cast<std::size_t>(std::min<std::uint64_t>(size, sizes_[log] - offset));
  if (window.fd < 0) window.fd = open_regular(logs_[log], O_RDONLY, 0, "checkpoint");
  window.start = offset;
  window.bytes.resize(size);
  std::size_t got = 0;
  while (window.fd >= 0 && got < size) {
    const ssize_t n = ::pread(window.fd, window.bytes.data() + got, size - got, static_cast<off_t>(offset + got));
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got != size) throw std::runtime_error("cannot read checkpoint '" + logs_[log] + "'");
}

CaseResult CheckpointIndex::read(long long index) {
  CaseResult result;
  const std::uint64_t where = where_[static_cast<std::size_t>(index)];
  if (where == kMissing) return result;
  const auto log = static_cast<std::size_t>(where >> kOffsetBits);
  const std::uint64_t offset = where & ((std::uint64_t{1} << kOffsetBits) - 1);
  Window& window = windows_[log];
  if (decode_from(window, offset, index, result)) {
    window.next_size = std::min<std::size_t>(2 * window.next_size, 4u << 20);  // sequential: read ahead more
    return result;
  }
  // A miss: read from the record on, a small window after a jump, larger ones while reads stay sequential.
  const bool sequential = offset >= window.start && offset <= window.start + window.bytes.size();
  if (!sequential) window.next_size = 4096;
  for (std::size_t size = window.next_size;; size *= 2) {
    refill(log, offset, size);
    if (decode_from(window, offset, index, result)) return result;
    if (offset + window.bytes.size() >= sizes_[log])
      throw std::runtime_error("checkpoint '" + logs_[log] + "' ends inside case " + std::to_string(index));
  }
}

CompletedCases completed_cases(const SweepSpec& spec, CheckpointIndex& index) {
  CompletedCases completed;
  const long long n = index.case_count();
  completed.done.resize(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) {
    if (!index.has(i)) continue;
    completed.done[static_cast<std::size_t>(i)] = true;
    if (spec.continuation_axis < 0) continue;
    const CaseResult result = index.read(i);
    if (result.has_final_state) completed.final_state.emplace(i, result.final_state);
  }
  return completed;
}

}  // namespace vibro
