#pragma once
// Checkpoint of the extension phase (run.extend_unsettled): every rerun of a case is appended to
// OUT.h5.ckpt.extension (the grid's log format, jobs/output/checkpoint_log.hpp), each round flushed
// before the next starts, so that a case's records lie in the order of its reruns. A run killed or
// interrupted while extending loads them on the next run of the same sweep and runs on only what is
// left: every case then ends as an uninterrupted run would have left it.
#include <map>
#include <string>

#include "jobs/output/checkpoint_log.hpp"
#include "jobs/sweep/case_result.hpp"
#include "jobs/sweep/sweep_spec.hpp"

namespace vibro {

std::string extension_log_path(const std::string& output_file);

// The log's header: the grid's sweep and settings, with the extension's budget among them (a log of
// another budget is refused, naming run.extend_unsettled).
CheckpointHeader extension_log_header(const SweepSpec& spec, CheckpointHeader grid_header);

// Throws InputError naming the log and the first differing setting when a log at `path` was written
// by another sweep or budget (nothing there, or an empty file: fine).
void check_extension_log(const std::string& path, const SweepSpec& spec);

// What a log holds, per case: its latest rerun that ran (status ok; a failed rerun leaves the case
// as it was and ends its extension), how many reruns it had, and whether the last one failed.
struct SavedExtension {
  std::map<long long, CaseResult> latest;
  std::map<long long, int> runs;
  std::map<long long, bool> failed;
  int damaged = 0;  // damaged or torn batches dropped (their reruns run again)
};

// The log at `path` (none: nothing saved). Throws InputError when it was written by another sweep or
// budget, ForeignCheckpoint when it is no vibro log.
SavedExtension load_extension_log(const std::string& path, const SweepSpec& spec);

}  // namespace vibro
