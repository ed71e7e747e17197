#pragma once
// Random access to the results of a sweep by case index: what the HDF5 writer reads from. The
// checkpoint logs are the store of a real run (checkpoint_index.hpp); a vector is one for a sweep
// held in memory.
#include <vector>

#include "jobs/sweep/case_result.hpp"

namespace vibro {

class CaseStore {
 public:
  virtual ~CaseStore() = default;
  virtual long long case_count() const = 0;
  // The result of case `index` (status NotRun when the store has none). Thread-safe: the writer
  // decodes a block of cases on all threads.
  virtual CaseResult read(long long index) const = 0;
  // The same into `out`, every field overwritten: a store that decodes in place saves the writer a
  // result's construction and copy a case (1.8 KB each, 10^6 times for a large map).
  virtual void read_into(long long index, CaseResult& out) const { out = read(index); }
  // The writer is done with the cases read so far: a store that maps files drops their pages from
  // this process (so that its resident memory does not grow with the sweep).
  virtual void release_pages() const {}
};

class MemoryCaseStore : public CaseStore {
 public:
  explicit MemoryCaseStore(const std::vector<CaseResult>& cases) : cases_(cases) {}
  long long case_count() const override { return static_cast<long long>(cases_.size()); }
  CaseResult read(long long index) const override { return cases_[static_cast<std::size_t>(index)]; }

 private:
  const std::vector<CaseResult>& cases_;
};

}  // namespace vibro
