#pragma once
// One subcommand's command line, read the same way by every subcommand: its own options
// (--name value or --name=value, or a bare flag), sweep-file overrides (--section.key value or
// --section.key=value, and --model), positional arguments and --help / -h. Anything else that starts
// with "-" is an error naming it, the closest accepted option and the list of them (vibro plot
// passes such options on to its script instead).
// One rule for values everywhere: an option that takes a value never takes the next word when that
// word starts with "--" (it is another option: `--partition --dry-run` is a missing partition, not a
// partition named "--dry-run"); a value that starts with "--" is written --name=VALUE.
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vibro::cli {

struct OptionSpec {
  std::string name;   // with its dashes: "--resume"
  bool takes_value;   // false: a flag
  bool repeatable = false;  // may be given more than once (each value kept); others are refused when repeated
};

struct CommandLine {
  bool help = false;                          // --help or -h anywhere
  std::vector<std::string> positional;
  std::map<std::string, std::string> options; // own options by name; a flag given holds "true"
  std::vector<std::pair<std::string, std::string>> given;  // own options in command-line order, repeats kept
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
// value (or another option where the value should be), a value given to a flag, an option or a
// sweep override given twice, or too many positional arguments.
CommandLine parse_command_line(const CommandGrammar& grammar, const std::vector<std::string>& args);

// The value of `option` given as the next word, args[i + 1] (`i` moves on to it): an InputError naming
// `option` and `who` ("vibro submit") when there is none or when that word starts with "--".
std::string next_value(const std::string& option, const std::vector<std::string>& args, std::size_t& i,
                       const std::string& who);

// Pulls every `--plugin FILE` and `--plugin=FILE` out of `args` (they may stand anywhere, before the
// command too) and returns the files; a --plugin without a file is an InputError.
std::vector<std::string> take_plugin_options(std::vector<std::string>& args);

}  // namespace vibro::cli
