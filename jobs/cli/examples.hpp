#pragma once
// The shipped example sweeps: the conveyor's Fig. 6 study compiled into the binary (it runs
// anywhere), and the repository's examples/*.ini where that folder is found (VIBRO_EXAMPLES, else
// the source tree the binary was built from).
#include <string>
#include <vector>

namespace vibro::cli {

struct Example {
  std::string name;         // "conveyor_fig6"
  std::string source_name;  // "conveyor_fig6.ini": outputs are named after it, in the working folder
  std::string text;         // the sweep file
};

// The example compiled into the binary: "conveyor_fig6".
std::string built_in_example();
// Every example's name, sorted; the built-in one always.
std::vector<std::string> example_names();
// Throws InputError naming NAME, the closest name and `vibro examples`.
Example load_example(const std::string& name);
// vibro examples: one line per example with the first line of its comment.
int examples_command();

}  // namespace vibro::cli
