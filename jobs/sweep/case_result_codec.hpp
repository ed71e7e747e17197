#pragma once
// Byte encoding of case results, to move them between MPI ranks (and, later, into checkpoints).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "jobs/sweep/case_result.hpp"

namespace vibro {

// Appends (index, result) to `bytes`.
void encode_case(long long index, const CaseResult& result, std::vector<char>& bytes);
// Decodes every (index, result) in `bytes`, in order, handing each to `take`; throws
// std::runtime_error on a malformed buffer.
void decode_each(const std::vector<char>& bytes, const std::function<void(long long, CaseResult&&)>& take);
// Decodes into cases[index]; an index outside `cases` is a malformed buffer.
void decode_cases(const std::vector<char>& bytes, std::vector<CaseResult>& cases);

}  // namespace vibro
