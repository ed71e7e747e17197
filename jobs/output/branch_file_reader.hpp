#pragma once
// Reads back what a branch file (jobs/output/branch_file_writer) needs to switch branches from it: the
// sweep it came from (its text and where it lay), the branch's parameter, range and period, and each
// event with the orbit there. The file is checked first (jobs/output/result_file_check): a foreign,
// damaged or too old file is refused naming the file and what is accepted, before any work.
#include <string>
#include <utility>
#include <vector>

#include "analysis/orbit_continuation.hpp"

namespace vibro {

struct StoredBranch {
  std::string path;
  std::string model;
  std::string sweep_name;  // as given to vibro continue (relative to where it ran)
  std::string sweep_path;  // absolute; empty in files written before it was recorded
  std::string sweep_text;  // with the command-line overrides as trailing comment lines
  std::string parameter;
  double from = 0, to = 0;
  int periods = 1;
  bool has_modes = false;  // /events/mode present (files written before it lack it)
  // /parameters: name and value as text (a choice parameter by its name).
  std::vector<std::pair<std::string, std::string>> parameters;
  // The events with their orbits (orbit.converged false where the file has none); points are not read.
  Branch branch;
};

// Throws InputError naming `path` when it is not a readable branch file with the event orbits.
StoredBranch read_branch_file(const std::string& path);

// The sweep text without its command-line overrides, and those overrides ("--key=value"), as
// SweepSpec::source_text records them.
std::pair<std::string, std::vector<std::string>> split_recorded_overrides(const std::string& sweep_text);

}  // namespace vibro
