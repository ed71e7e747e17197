#include "jobs/cli/usage_text.hpp"

#include <iostream>
#include <map>

#include "jobs/sweep/sweep_spec.hpp"

namespace vibro::cli {

namespace {

const std::map<std::string, std::string>& texts() {
  static const std::map<std::string, std::string> t = {
      {"run",
       "vibro run SWEEP.ini [--section.key=value | --section.key value ...]\n"
       "  Runs every case of a sweep and writes OUT.h5 (output.file). A rerun of a killed or interrupted\n"
       "  sweep resumes from its checkpoints OUT.h5.ckpt.<rank>. Ctrl-C, SIGTERM or SIGUSR1 (what Slurm\n"
       "  sends before a time limit) stop it after the cases in progress, with every finished case saved:\n"
       "  exit code 128 + the signal's number (130, 143, 138); rerun the same command to resume.\n"
       "vibro run --example NAME [--section.key=value ...]\n"
       "  Runs a shipped example (vibro examples lists them; conveyor_fig6 is built in).\n"
       "vibro run --resume OUT.h5 [--output.overwrite=true]\n"
       "  Resumes a killed sweep from its checkpoints alone (they carry the sweep file and overrides).\n"
       "vibro run SWEEP.ini --resume OUT.h5\n"
       "  Resumes OUT.h5's checkpoints, or starts SWEEP.ini into OUT.h5 when none was saved yet.\n"
       "options:\n"
       "  --example NAME        a shipped example instead of SWEEP.ini\n"
       "  --resume OUT.h5       resume from the checkpoints of OUT.h5\n"
       "  --section.key=value   override a key of the sweep file (vibro --help lists run.* and output.*,\n"
       "                        vibro describe MODEL the model's keys)\n"
       "  -h, --help            this text\n"},
      {"continue",
       "vibro continue SWEEP.ini --parameter NAME --to VALUE [options] [--section.key=value ...]\n"
       "vibro continue BRANCH.h5 --switch PDn|Gn [--cascade K] [--to VALUE] [--step S] [--max-step S]\n"
       "               [--method natural|arclength]\n"
       "  Follows the periodic orbit that the sweep file's one case settles on (Newton shooting) from its\n"
       "  value of NAME to VALUE, locating grazings and stability changes; a step that does not continue\n"
       "  the orbit is halved, and the branch stops, saying why, rather than jump. Writes OUT.branch.h5.\n"
       "  Given a branch file (written by vibro continue), switches at one of its events with the orbit and\n"
       "  sweep the file records (VALUE default: the file's own end) and writes BRANCH.pdn.branch.h5 or\n"
       "  BRANCH.gn.branch.h5 beside it (BRANCH: the file's name without .branch.h5).\n"
       "options:\n"
       "  --parameter NAME      the numeric model parameter to follow (vibro describe MODEL)\n"
       "  --to VALUE            where the branch should end\n"
       "  --step S              first parameter step (default: the range / 50)\n"
       "  --max-step S          largest step, >= --step (default: the range / 20, so a branch that reaches\n"
       "                        VALUE has at least 21 points in any unit); the range: |VALUE - the case's\n"
       "                        value of NAME|, for a switched branch |VALUE - its event's value|\n"
       "  --periods K           shoot for a period-K orbit (default: the period the case settles on)\n"
       "  --method natural|arclength   parameter steps, or pseudo-arclength round folds (default natural);\n"
       "                        with --switch also for each new branch\n"
       "  --switch PDn          also continue the branch of twice the period born at the branch's n-th\n"
       "                        period doubling (PD1, PD2, ...) towards VALUE; writes OUT.pdn.branch.h5\n"
       "  --switch Gn           also continue the branch with more impacts born at the branch's n-th\n"
       "                        grazing (G1, ...) towards VALUE; writes OUT.gn.branch.h5\n"
       "  --cascade K           with --switch PDn: K period doublings in all, each next one at the new\n"
       "                        branch's first (OUT.pdn.pd1.branch.h5, ...); stops, saying why, at a\n"
       "                        branch without one\n"
       "  --curve KIND[n]       also trace the curve in two parameters of the branch's n-th event of KIND\n"
       "                        (grazing, period_doubling or fold; n default 1); needs --parameters and\n"
       "                        --curve-to; writes OUT.KINDn.curve.h5\n"
       "  --parameters P1,P2    the curve's parameters: P1 the branch's (--parameter), P2 the second\n"
       "  --curve-to V2         where P2 should end (from the sweep file's value of P2, up or down)\n"
       "  --section.key=value   override a key of the sweep file\n"
       "  -h, --help            this text\n"},
      {"trace",
       "vibro trace SWEEP.ini [--case I] [--periods N] [--samples-per-period M] [--out FILE.h5] [--csv]\n"
       "  One case of a sweep from t = 0: its state on a grid of M points per forcing period (from the\n"
       "  integrator's dense output or the model's closed form, the orbit a sweep computes), every event\n"
       "  (time, kind, state before and after) and the stroboscopic samples; written to HDF5.\n"
       "  vibro plot FILE.h5 --kind trace draws it. A case of a continuation sweep starts here from its own\n"
       "  initial state, not from its neighbour's final state.\n"
       "options:\n"
       "  --case I              the case's index in the sweep's grid (C order, first axis slowest; default 0)\n"
       "  --periods N           forcing periods to trace (default 10)\n"
       "  --samples-per-period M   grid points per period (default 200)\n"
       "  --out FILE.h5         the trace file (default: OUT.trace<I>.h5 beside output.file)\n"
       "  --csv                 also FILE.csv (states) and FILE_events.csv (events), units in the headers\n"
       "  --section.key=value   override a key of the sweep file\n"
       "  -h, --help            this text\n"},
      {"plot",
       "vibro plot FILE.h5 [--kind bifurcation|basin|drift|timeseries|branch|fractions|trace|regimes]\n"
       "           [--overlay CURVE.h5 ...] [--out PNG] [script options]\n"
       "  A PNG of a sweep file (default kind: bifurcation), a branch file (kind branch) or a trace file\n"
       "  (kind trace), drawn by scripts/plot_*.py (python3 with matplotlib and h5py; VIBRO_SCRIPTS\n"
       "  points elsewhere).\n"
       "options:\n"
       "  --kind KIND           bifurcation, basin, drift, timeseries, branch, fractions (basin\n"
       "                        fractions along analysis.global_continuation), trace or regimes (the\n"
       "                        class of most cases per cell over two swept parameters; --class CODE:\n"
       "                        the cells where a case reached CODE)\n"
       "  --overlay CURVE.h5    a two-parameter curve (vibro continue --curve) drawn over the regime map\n"
       "                        (repeatable; implies --kind regimes)\n"
       "  --out PNG             the image (default: FILE_KIND.png next to FILE.h5)\n"
       "  other options         passed to the script, e.g. --obs NAME, --x AXIS, --case I\n"
       "                        (python3 scripts/plot_KIND.py --help lists them)\n"
       "  -h, --help            this text\n"},
      {"submit",
       "vibro submit SWEEP.ini --nodes N --ntasks-per-node M --cpus-per-task T --time LIMIT [options]\n"
       "  Writes an sbatch script (srun, MPI x OpenMP, requeue near the time limit) and submits it.\n"
       "options:\n"
       "  --nodes N, --ntasks-per-node M, --cpus-per-task T   the allocation (default 1 each)\n"
       "  --time LIMIT          MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (default 01:00:00)\n"
       "  --partition P         the partition (default: the cluster's)\n"
       "  --account A, --qos Q  the account and quality of service to charge\n"
       "  --mem SIZE            memory per node, e.g. 4000 (MB), 16G\n"
       "  --constraint FEATURES node features, e.g. 'intel&ib'\n"
       "  --gpus-per-task N     GPUs per rank (N or TYPE:N), for run.backend = cuda\n"
       "  --mpi TYPE            srun's MPI plugin (default pmix): one srun --mpi=list names\n"
       "  --sbatch-line=OPTION  any other sbatch option, e.g. --sbatch-line=--exclusive (repeatable;\n"
       "                        a value that starts with -- always follows '=')\n"
       "  --setup FILE          shell lines (module loads, exports) copied into the script before srun\n"
       "  --script FILE         where the script goes (default OUT.h5.sbatch)\n"
       "  --dry-run             write the script, do not submit it (sbatch is never run)\n"
       "  --section.key=value   override a key of the sweep file\n"
       "  -h, --help            this text\n"},
      {"models", "vibro models\n  Lists the registered models with a one-line summary.\noptions:\n  -h, --help  this text\n"},
      {"describe",
       "vibro describe MODEL\n"
       "  A model's keys (section, unit, default, accepted values, meaning), its observables, state\n"
       "  components, modes and counters.\n"
       "options:\n  -h, --help  this text\n"},
      {"new-model",
       "vibro new-model NAME [DIR] [--from FILE.vibro]\n"
       "  Writes a model plugin project (CMake, the model, a sweep file, a Catch2 test) into DIR\n"
       "  (default NAME).\n"
       "options:\n  --from FILE  the model is the model file's, written in C++ (docs/model_files.md)\n"
       "  -h, --help  this text\n"},
      {"examples",
       "vibro examples\n"
       "  Lists the shipped example sweeps (vibro run --example NAME runs one).\n"
       "options:\n  -h, --help  this text\n"},
  };
  return t;
}

}  // namespace

const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = {"run",    "continue", "trace",    "plot",     "submit",
                                                   "models", "describe", "examples", "new-model"};
  return names;
}

std::string command_usage(const std::string& command) {
  const auto it = texts().find(command);
  return it == texts().end() ? "" : it->second;
}

bool printed_help(bool asked, const std::string& command) {
  if (asked) std::cout << command_usage(command);
  return asked;
}

std::string usage() {
  std::string text = "vibro: sweeps of impact and friction systems to their steady states\n\n"
                     "usage (vibro COMMAND --help for one command):\n";
  for (const auto& name : command_names()) text += command_usage(name) + "\n";
  return text + "every command: --plugin FILE (repeatable) loads a model plugin; so do plugin = FILE in a sweep file\n"
                "and every *.so in the folders of VIBRO_PLUGIN_PATH (separated by ':')\n"
                "vibro --help | --version\n\n" + sweep_file_help();
}

}  // namespace vibro::cli
