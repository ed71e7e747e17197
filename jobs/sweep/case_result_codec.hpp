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
// The index, failure reason and class code of the record at data[at] alone (they come first): what
// the HDF5 writer's pass that sizes its string columns needs. Throws as decode_case.
void decode_case_texts(const char* data, std::size_t size, std::size_t at, long long& index, std::string& reason,
                       std::string& class_code);

}  // namespace vibro
