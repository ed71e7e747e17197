#pragma once
// A sweep as the user wrote it: the model, its fixed parameter values, the grid axes, the run
// control (budget, steady-state detection, threads) and the output. Parsed and fully validated
// before any case runs.
#include <string>
#include <vector>

#include "analysis/attractor_continuation.hpp"
#include "analysis/steady_state.hpp"
#include "engine/core/case_budget.hpp"
#include "engine/core/model.hpp"
#include "engine/core/parameter_spec.hpp"
#include "jobs/sweep/axis.hpp"
#include "jobs/sweep/strobe_points.hpp"

namespace vibro {

// The progress line on stderr: on a terminal only (auto), always (e.g. a batch log followed with
// tail -f; under mpirun stderr is not a terminal), or never.
enum class ProgressMode { Auto, Always, Never };

// What steps the cases: one at a time per thread (cpu), many at a time through the model's
// host-and-device kernel on CPU threads (batched; the same results bit for bit), on a GPU (cuda), or
// nowhere (null: a benchmark of the host's side of a GPU run, engine/batch/null_batch.hpp; its
// results are not the cases').
enum class Backend { Cpu, Batched, Cuda, Null };
const char* backend_name(Backend backend);

struct SweepSpec {
  const Model* model = nullptr;
  ParameterSet base{nullptr};      // every parameter; axis parameters are overwritten per case
  std::vector<Axis> axes;          // grid order: the first axis varies slowest
  std::vector<int> axis_parameter; // index of each axis' parameter in `base`
  SteadyStateSettings steady;
  CaseLimits limits;               // per-case budget: a case past it is recorded as failed
  int threads = 0;                 // 0: OpenMP's default
  Backend backend = Backend::Cpu;
  int batch_cases = 0;             // cases a batched back end steps together (0: the back end's default)
  int batch_periods = 0;           // periods a batched back end's cases advance per launch (0: kBatchPeriods)
  double null_group_seconds = 0;   // null back end: what one group's launches take in all, s
  // Continuation: cases along this axis run in sequence, each from the previous one's final state
  // (-1: none). descending runs the axis from its last value to its first.
  int continuation_axis = -1;
  bool descending = false;
  StrobePoints strobe_points = StrobePoints::Window;  // which stroboscopic points a case stores
  bool floquet = false;            // Floquet multipliers of every converged periodic case
  bool shooting = false;           // refine each (near-)periodic case by Newton shooting (implies floquet)
  int lyapunov_periods = 0;        // Lyapunov exponents of every case over this many periods (0: none)
  ProgressMode progress = ProgressMode::Auto;
  double progress_seconds = 30;    // off a terminal: one progress line per this many seconds
  // Global continuation of attractors along this parameter axis (-1: none): a pass over the per-point
  // attractors when the file is written; changes no case, so a checkpoint resumes under any value.
  int global_continuation_axis = -1;
  MatchSettings match;              // how the attractors of neighbouring points are matched
  bool seed_from_previous = false;    // also run each point from the attractors found at its neighbours
  bool seed_both_directions = true;   // seeds from the point before and the point after (false: before only)
  int extend_unsettled = 0;  // run unsettled cases on, up to this many periods in all, when writing (0: no)
  std::string output_file;
  std::string source_text;         // the sweep file as read (plus overrides), for provenance
  std::string source_name;

  bool record_strobe() const { return strobe_points != StrobePoints::None; }
  // Whether a case's final state (where it ended) is ever used after it finished: a continuation line
  // starts its next case there, and the passes over stored stroboscopic points (attractors' Floquet
  // multipliers, seeding, the unsettled extension) restart cases from it. The checkpoint log keeps it
  // only then.
  bool keeps_final_states() const { return continuation_axis >= 0 || record_strobe(); }
  long long case_count() const;
  // One "key = value" line per result-changing key of sweep_keys() (canonical values, defaults
  // included): what a checkpoint must match to be resumed, and the text it names a difference in.
  std::string result_settings() const;
  // Hash of result_settings(): checkpoints carry it.
  std::string fingerprint() const;
  bool overwrite = false;          // output.overwrite: replace an existing output file
  double checkpoint_seconds = 5;   // flush interval of the checkpoint logs
  // Cases per HDF5 write block (the writer holds one block). 8192, not 65536: a block of results is
  // 1.8 KB a case, and 65536 of them (115 MB, first touched and refilled each block) made writing a
  // 10^6-case conveyor file 2.35/2.75 s against 1.38/1.51 s (10^5 cases with strobe points: 1.48/1.70
  // against 0.50/0.65 s); files identical.
  long long block_cases = 0;      // output.block_cases; 0: the writer's own (file_block_cases)
  // Cases per block of the file's writer: output.block_cases, else 8192 for a file written from the
  // logs (it holds two blocks of whole results), 65536 for one written while the cases run (a whole
  // chunk of every column: HDF5 writes it without first filling the chunk with the fill value).
  long long file_block_cases(bool streamed) const { return block_cases > 0 ? block_cases : streamed ? 65536 : 8192; }
  bool keep_checkpoints = false;   // keep the logs after the file is written (debugging, tests)
  bool stream_cases = true;        // the file's /cases written while the sweep runs, where a run allows it
  // The parameter values of case `index` (flattened grid, C order).
  ParameterSet case_parameters(long long index) const;
  // The same into `values`, whose memory is reused: a batched group's 10^5 parameter sets, made
  // anew, were three heap calls each.
  void fill_case_parameters(long long index, ParameterSet& values) const;
  std::vector<int> grid_indices(long long index) const;
};

// Whether a key of the sweep file changes the results: result-changing keys are fingerprinted (a
// checkpoint written under another value is refused on resume, naming the key); the others (file
// names, threads, progress, flush intervals) may differ between a run and its resume.
enum class KeyEffect { ChangesResults, NoEffectOnResults };
struct SweepKey {
  std::string name;
  KeyEffect effect;
};
// Every key a sweep file for `model` accepts, classified: model, the model's parameters
// ([parameters], [initial], [numerics]) and axes.<parameter> (all result-changing: they define the
// cases), then run.* and output.* as their table classifies them. The parser accepts exactly these.
std::vector<SweepKey> sweep_keys(const Model& model);

// Parses INI text; `overrides` are "--section.key=value" arguments that take precedence over the
// file. Throws InputError with a message naming the offending key and what it accepts.
SweepSpec parse_sweep(const std::string& ini_text, const std::string& source_name,
                      const std::vector<std::string>& overrides);

// The keys of [run] and [output] with their meaning, for `vibro --help`.
std::string sweep_file_help();

}  // namespace vibro
