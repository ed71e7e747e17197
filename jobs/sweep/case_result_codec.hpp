#pragma once
// Byte encoding of case results: the records of the checkpoint logs. A record is its body's size
// (4 bytes) and the body: the case index, then the result's fields.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/summary_case.hpp"

namespace vibro {

// Whether a record holds the case's final state: a log drops it where the sweep never uses it
// (SweepSpec::keeps_final_states), and the record then decodes with has_final_state false.
enum class FinalState : bool { Dropped = false, Kept = true };

// The record of (index, result), in a buffer of the calling thread's that its next record reuses.
std::string_view case_record(long long index, const CaseResult& result, FinalState final_state = FinalState::Kept);
// The record of a case finished as a summary: the bytes case_record makes of its CaseResult
// (record_summary_case), which is never made.
std::string_view summary_record(const SummaryCase& summary);
// Appends (index, result)'s record to `bytes`.
void encode_case(long long index, const CaseResult& result, std::vector<char>& bytes,
                 FinalState final_state = FinalState::Kept);
// Decodes the one (index, result) that starts at data[at]; leaves `at` after it. Throws
// std::runtime_error when the record is malformed or does not end within `size` bytes.
void decode_case(const char* data, std::size_t size, std::size_t& at, long long& index, CaseResult& result);
// What the record at data[at] says of itself without being decoded (its size and first fields come
// first): where the next record starts, its case index and the lengths of its failure reason and
// class code. Indexing a log and sizing the HDF5 file's string columns need no more. Throws as
// decode_case when the head is malformed or the record does not end within `size` bytes.
struct CaseHead {
  long long index = -1;
  std::size_t next = 0;
  std::size_t reason_size = 0, class_size = 0;
};
CaseHead read_case_head(const char* data, std::size_t size, std::size_t at);

}  // namespace vibro
