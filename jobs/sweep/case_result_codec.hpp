#pragma once
// Byte encoding of case results: the records of the checkpoint logs.
#include <cstdint>
#include <string>
#include <vector>

#include "jobs/sweep/case_result.hpp"

namespace vibro {

// Appends (index, result) to `bytes`.
void encode_case(long long index, const CaseResult& result, std::vector<char>& bytes);
// Decodes the one (index, result) that starts at data[at]; leaves `at` after it. Throws
// std::runtime_error when the record is malformed or does not end within `size` bytes.
void decode_case(const char* data, std::size_t size, std::size_t& at, long long& index, CaseResult& result);

}  // namespace vibro
