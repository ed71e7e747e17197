#pragma once
// One subcommand's command line, read the same way by every subcommand: its own options
// (--name value or --name=value, or a bare flag), sweep-file overrides (--section.key value or
// --section.key=value, and --model), positional arguments and --help / -h. Anything else that starts
// with "-" is an error naming it, the closest accepted option and the list of them (vibro plot
// passes such options on to its script instead).
#include <map>
#include <string>
#include <vector>

namespace vibro::cli {

struct OptionSpec {
  std::string name;   // with its dashes: "--resume"
  bool takes_value;   // false: a flag
};

struct CommandLine {
  bool help = false;                          // --help or -h anywhere
  std::vector<std::string> positional;
  std::map<std::string, std::string> options; // own options by name; a flag given holds "true"
  std::vector<std::string> overrides;         // each as "--section.key=value"
  std::vector<std::string> passed_on;         // unknown options, when the command passes them on
  bool has(const std::string& name) const { return options.count(name) > 0; }
};

struct CommandGrammar {
  std::string command;              // "run": named in messages as "vibro run"
  std::vector<OptionSpec> options;  // its own options
  bool overrides = false;           // takes --section.key=value sweep overrides
  bool pass_unknown = false;        // hands unknown options on (vibro plot: to the plotting script)
  std::size_t max_positional = 1;
};

// Throws InputError for an unknown option (with "did you mean" and the accepted list), a missing
// value, a value given to a flag, or too many positional arguments.
CommandLine parse_command_line(const CommandGrammar& grammar, const std::vector<std::string>& args);

}  // namespace vibro::cli
