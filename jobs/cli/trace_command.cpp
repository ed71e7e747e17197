// vibro trace: one case of a sweep, its continuous time history, events and stroboscopic samples.
#include <iostream>
#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/cli/arguments.hpp"
#include "jobs/cli/commands.hpp"
#include "jobs/cli/usage_text.hpp"
#include "jobs/output/safe_path.hpp"
#include "jobs/output/trace_file_writer.hpp"
#include "jobs/sweep/sweep_spec.hpp"
#include "jobs/trace/case_trace.hpp"

namespace vibro::cli {

namespace {

// A whole number in [lo, hi] from an option's text, or an InputError naming the option.
long long whole_number(const std::string& option, const std::string& text, long long lo, long long hi) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < lo || value > hi)
    throw InputError(option + " = '" + echoed(text) + "' is not accepted; expected a whole number from " +
                     std::to_string(lo) + " to " + std::to_string(hi));
  return value;
}

long long option_or(const CommandLine& line, const std::string& option, long long fallback, long long lo, long long hi) {
  return line.has(option) ? whole_number(option, line.options.at(option), lo, hi) : fallback;
}

// OUT.h5 -> OUT.trace<I>.h5 (or .csv): beside the sweep's output, one file per traced case.
std::string default_name(const std::string& output, long long index, const std::string& extension) {
  const bool h5 = output.size() > 3 && output.compare(output.size() - 3, 3, ".h5") == 0;
  return (h5 ? output.substr(0, output.size() - 3) : output) + ".trace" + std::to_string(index) + extension;
}

std::string csv_name_for(const std::string& h5_path) {
  const bool h5 = h5_path.size() > 3 && h5_path.compare(h5_path.size() - 3, 3, ".h5") == 0;
  return (h5 ? h5_path.substr(0, h5_path.size() - 3) : h5_path) + ".csv";
}

}  // namespace

int trace_command(const std::vector<std::string>& args) {
  const CommandLine line = parse_command_line({"trace",
                                               {{"--case", true},
                                                {"--periods", true},
                                                {"--samples-per-period", true},
                                                {"--out", true},
                                                {"--csv", false}},
                                               true,
                                               false,
                                               1},
                                              args);
  if (printed_help(line.help, "trace")) return 0;
  if (line.positional.empty())
    throw InputError("vibro trace needs a sweep file: vibro trace SWEEP.ini [--case I] [--periods N] (vibro trace --help)");
  const std::string path = line.positional.front();
  const SweepSpec spec = parse_sweep(read_sweep_file(path), path, line.overrides);
  const long long index = option_or(line, "--case", 0, 0, spec.case_count() - 1);
  TraceRequest request;
  request.periods = static_cast<int>(option_or(line, "--periods", request.periods, 1, 1000000));
  request.samples_per_period = static_cast<int>(option_or(line, "--samples-per-period", request.samples_per_period, 1, 100000));
  const std::string out = line.has("--out") ? line.options.at("--out") : default_name(spec.output_file, index, ".h5");
  if (out.empty()) throw InputError("--out = '' is empty; expected a file name");
  // Every target is checked (and the request's size) before the case runs.
  check_output_target(out, path, spec.overwrite);
  const std::string csv = csv_name_for(out);
  if (line.has("--csv")) {
    check_output_target(csv, path, spec.overwrite);
    check_output_target(trace_events_csv(csv), path, spec.overwrite);
  }
  const ParameterSet values = spec.case_parameters(index);
  CaseTrace trace;
  try {
    trace = trace_case(*spec.model, values, request);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {  // InfeasibleCase, CaseFailure: the case itself
    throw std::runtime_error("case " + std::to_string(index) + " of " + path + ": " + e.what());
  }
  write_trace_file(out, {&spec, index, values, request}, trace);
  std::cout << "case " << index << " of " << spec.case_count() << " (model " << spec.model->name() << "): "
            << trace.time.size() << " states over " << trace.strobe.size() << " periods, " << trace.events.size()
            << " events\nwrote " << out << "\n";
  if (line.has("--csv")) std::cout << "wrote " << csv << " and " << write_trace_csv(csv, trace) << "\n";
  return 0;
}

}  // namespace vibro::cli
