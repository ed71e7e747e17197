#pragma once
// A sweep file's [model] section: a model file's text (docs/model_files.md) written inside the sweep
// file, from the line after `[model]` to the next `[section]` line or the end of the file. The sweep
// and the model are split by blanking lines, so every message keeps the sweep file's line numbers.
#include <string>

namespace vibro {

struct InlineModel {
  bool present = false;
  int header_line = 0;     // the `[model]` line
  std::string sweep_text;  // the sweep file with the section's lines blank
  std::string model_text;  // the section's lines, every other line blank
};

InlineModel split_inline_model(const std::string& sweep_text);

}  // namespace vibro
