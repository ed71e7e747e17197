#pragma once
// A store's cases handed to one writing thread a block at a time, in case order, while other threads
// decode the blocks ahead of it: the HDF5 writes take one thread, and decoding a case from its
// checkpoint record costs as much again, so the two overlap instead of taking turns.
#include <functional>
#include <vector>

#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/case_store.hpp"

namespace vibro {

// Calls `write(first, block)` on the calling thread for cases [first, first + block.size()) of the
// store's first `n`, blocks of `block_size` in order. The cases are decoded on `threads` threads in
// all, the caller's included (it decodes while it has no block to write); two blocks are held at a
// time. The helper threads wait on a condition variable, never spinning: OpenMP's threads, waiting at
// a barrier for each block's write, spun through it (a third of the file phase's CPU on a 10^6-case
// map). After each write, `store.release_pages()`. Rethrows the first exception of a decode or a
// write once every thread has stopped.
void for_each_case_block(const CaseStore& store, long long n, long long block_size, int threads,
                         const std::function<void(long long first, const std::vector<CaseResult>& block)>& write);

}  // namespace vibro
