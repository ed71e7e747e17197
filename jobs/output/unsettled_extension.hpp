#pragma once
// run.extend_unsettled: a case that ran to its budget without a steady state (analysis/attractor_labels:
// unsettled), whose window is irregular (chaotic or a chaotic transient) or still slowly converging
// (see case_extended), is run on from where it stopped, another run.max_periods periods at a time,
// until it settles on a periodic or quasi-periodic orbit or has run run.extend_unsettled periods in all.
// Only those cases run again: a point's settled periodic and quasi-periodic cases keep their results,
// and the unsettled share left is what /basins reports.
//
// Runs after every rank's grid is in, before the file is written, over the writing rank's threads:
// each rerun depends only on its case's gathered result, so the answer does not depend on ranks or
// threads. Reruns are checkpointed (jobs/output/extension_checkpoint.hpp): a run stopped while
// extending resumes from its last flushed reruns with the same results.
#include <functional>
#include <map>
#include <string>

#include "jobs/output/checkpoint_log.hpp"
#include "jobs/sweep/case_store.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

// A store with some cases' results replaced (the extended ones) over the sweep's own.
class ExtendedCaseStore : public CaseStore {
 public:
  explicit ExtendedCaseStore(CaseStore& base) : base_(base) {}
  long long case_count() const override { return base_.case_count(); }
  CaseResult read(long long index) const override;
  void read_into(long long index, CaseResult& out) const override;
  void release_pages() const override { base_.release_pages(); }
  void replace(long long index, CaseResult result) { replaced_[index] = std::move(result); }

 private:
  CaseStore& base_;
  std::map<long long, CaseResult> replaced_;
};

struct UnsettledExtension {
  long long reruns = 0;  // case runs added (a case extended twice counts twice), loaded ones included
  long long cases = 0;   // cases extended at least once
  int rounds = 0;        // the most reruns of one case
  long long loaded = 0;  // reruns loaded from the log rather than run
  int damaged = 0;       // damaged or torn batches of the log dropped
  bool interrupted = false;  // stopped before every case was done (the log holds what was done)
};

// Where the reruns are saved: `path` (empty: nowhere), its header, the flush interval, and when to
// hurry the flushes and stop starting reruns (a stop signal).
struct ExtensionLog {
  std::string path;
  CheckpointHeader header;
  double flush_seconds = 5;
  std::function<bool()> stop;
};

// Extends the unsettled cases of `cases` (spec.extend_unsettled periods in all; 0: none) into `out`,
// after loading the reruns `log` holds.
UnsettledExtension extend_unsettled_cases(const SweepSpec& spec, ExtendedCaseStore& out, int threads,
                                          const ExtensionLog& log = {});

// Whether the extension runs a case on: unsettled, irregular at all (a window without a period that
// is not quasi-periodic), or still slowly converging to a period (the "~" mark). A steady irregular
// window cannot tell a chaotic attractor from a chaotic transient that outlasts the budget (near a
// boundary crisis the transient escapes later), and a slowly converging window cannot always tell the
// period it is going to (period 4 from 8 next to a doubling), so with the extension on these run on
// too; settled periodic and quasi-periodic ones keep their results.
bool case_extended(const CaseResult& c);

}  // namespace vibro
