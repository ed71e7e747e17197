#pragma once
// The `vibro` subcommands; each returns the process exit code.
#include <string>
#include <vector>

namespace vibro::cli {

int run_command(const std::vector<std::string>& args);
int models_command();
int describe_command(const std::string& model);
std::string usage();

}  // namespace vibro::cli
