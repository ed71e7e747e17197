#pragma once
// Where every case of a sweep lies in its checkpoint logs: built by one streaming pass over the logs
// (one batch in memory at a time), it answers "is case i done" for a resumed run and reads any case
// back on demand, so the HDF5 file is written from the logs a block at a time and no rank ever
// holds the sweep's results in memory (8 bytes per case). Indexing reads each record's head alone
// (case_result_codec.hpp): a case is decoded only when it is read.
#include <cstdint>
#include <string>
#include <vector>

#include "jobs/output/mapped_file.hpp"
#include "jobs/sweep/case_store.hpp"
#include "jobs/sweep/sweep_runner.hpp"

namespace vibro {

class CheckpointIndex : public CaseStore {
 public:
  // Throws InputError naming the file and the first differing setting when a log was written by
  // another sweep (fingerprint, settings: SweepSpec's), or when a name holds a link, FIFO or folder.
  // A file that is not a vibro log at all is left alone (ignored()).
  CheckpointIndex(const std::vector<std::string>& logs, const std::string& fingerprint, const std::string& settings,
                  long long cases);
  CheckpointIndex(const CheckpointIndex&) = delete;
  CheckpointIndex& operator=(const CheckpointIndex&) = delete;
  long long case_count() const override { return static_cast<long long>(where_.size()); }
  bool has(long long index) const { return where_[static_cast<std::size_t>(index)] != kMissing; }
  CaseResult read(long long index) const override;  // thread-safe
  void read_into(long long index, CaseResult& out) const override;  // thread-safe
  void release_pages() const override;  // the logs' pages read so far leave this process's memory

  long long loaded() const { return loaded_; }          // distinct cases available
  long long duplicates() const { return duplicates_; }  // cases found more than once (the last one counts)
  int damaged() const { return damaged_; }              // damaged or torn stretches dropped (each one batch)
  int foreign_batches() const { return foreign_batches_; }  // intact batches of another run, ignored
  const std::vector<std::string>& logs() const { return logs_; }        // the logs read: this sweep's
  const std::vector<std::string>& ignored() const { return ignored_; }  // files that are no vibro log

 private:
  static constexpr std::uint64_t kMissing = ~std::uint64_t{0};
  static constexpr int kOffsetBits = 48;  // (log << 48) | byte offset of the case's record
  // Runs decode(bytes, size, at) -> the index it found, on case `index`'s record; false when the case
  // is missing. Throws std::runtime_error naming the log when the record is cut or out of step.
  template <class Decode>
  bool decode_record(long long index, Decode decode) const;
  std::vector<std::string> logs_, ignored_;
  std::vector<std::uint64_t> where_;
  std::vector<MappedFile> mappings_;  // each log's bytes, as indexed (the logs only grow)
  long long loaded_ = 0, duplicates_ = 0;
  int damaged_ = 0, foreign_batches_ = 0;
};

// The cases a resumed run need not compute, with the final states continuation lines restart from.
CompletedCases completed_cases(const SweepSpec& spec, CheckpointIndex& index);

}  // namespace vibro
