#pragma once
// What `vibro --help` and `vibro COMMAND --help` print: one usage text per subcommand.
#include <string>
#include <vector>

namespace vibro::cli {

// The subcommands, in the order the overall usage lists them.
const std::vector<std::string>& command_names();
// COMMAND's usage and options; "" for a name that is not a subcommand.
std::string command_usage(const std::string& command);
// Prints COMMAND's usage on stdout when `asked` (its --help or -h); returns `asked`.
bool printed_help(bool asked, const std::string& command);
// Every subcommand's usage, then the sweep file's keys.
std::string usage();

}  // namespace vibro::cli
