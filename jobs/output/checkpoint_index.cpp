#include "jobs/output/checkpoint_index.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/output/checkpoint_log.hpp"
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
    const auto take = [&](const char* payload, std::size_t size, std::uint64_t offset) {
      batch.clear();
      try {
        // Each record's head says where the next starts: indexing decodes no result.
        for (std::size_t at = 0; at < size;) {
          const CaseHead head = read_case_head(payload, size, at);
          if (head.index < 0 || head.index >= cases) throw std::runtime_error("index");
          batch.emplace_back(head.index, offset + at);
          at = head.next;
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
    // Mapped once: scanned here, then read from while the file is written (cases come back in index
    // order while the sweep finished them out of order, so reads jump all over the logs).
    MappedFile mapped = map_checkpoint(path);
    CheckpointScan scan;
    try {
      scan = scan_checkpoint(mapped, path, check, take);
    } catch (const ForeignCheckpoint&) {
      ignored_.push_back(path);  // not vibro's: neither read nor, later, deleted
      continue;
    }
    logs_.push_back(path);
    mappings_.push_back(std::move(mapped));
    damaged_ += scan.damaged;
    foreign_batches_ += scan.foreign;
  }
}

template <class Decode>
bool CheckpointIndex::decode_record(long long index, Decode decode) const {
  const std::uint64_t where = where_[static_cast<std::size_t>(index)];
  if (where == kMissing) return false;
  const auto log = static_cast<std::size_t>(where >> kOffsetBits);
  const auto at = static_cast<std::size_t>(where & ((std::uint64_t{1} << kOffsetBits) - 1));
  const MappedFile& m = mappings_[log];
  long long found = -1;
  try {
    found = decode(m.data(), static_cast<std::size_t>(m.size()), at);
  } catch (const std::runtime_error&) {
    throw std::runtime_error("checkpoint '" + logs_[log] + "' ends inside case " + std::to_string(index));
  }
  if (found != index) throw std::runtime_error("checkpoint index out of step with its logs (case " + std::to_string(index) + ")");
  return true;
}

void CheckpointIndex::release_pages() const {
  for (const MappedFile& m : mappings_) m.release();
}

CaseResult CheckpointIndex::read(long long index) const {
  CaseResult result;
  read_into(index, result);
  return result;
}

void CheckpointIndex::read_into(long long index, CaseResult& out) const {
  // decode_case overwrites every field of `out` (a case the index lacks is a NotRun result).
  const bool found_record = decode_record(index, [&](const char* bytes, std::size_t size, std::size_t at) {
    long long found = -1;
    decode_case(bytes, size, at, found, out);
    return found;
  });
  if (!found_record) out = CaseResult{};
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
