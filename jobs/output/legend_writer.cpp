#include "jobs/output/legend_writer.hpp"

#include <cctype>
#include <string>

#include "jobs/output/hdf5_columns.hpp"

namespace vibro {

namespace {

const std::string& at_or(const std::vector<std::string>& list, std::size_t i, const std::string& fallback) {
  return i < list.size() ? list[i] : fallback;
}

H5::Group legend_group(H5::H5File& file) {
  if (!file.nameExists("/legend")) {
    H5::Group legend = h5::create_group(file, "/legend");
    h5::attribute(legend, "meaning", std::string("what the model's codes and names mean: classes (codes or patterns, "
                                                 "<k> a positive integer, [~] an optional ~), states, modes"));
    return legend;
  }
  return file.openGroup("/legend");
}

}  // namespace

void write_class_legend(H5::H5File& file, const Model& model) {
  H5::Group legend = legend_group(file);
  H5::Group classes = h5::create_group(legend, "classes");
  for (const ClassCode& c : model.class_legend()) h5::attribute(classes, c.code, c.meaning);
}

std::string mode_index_meaning(const StrobeLayout& layout) {
  std::string text;
  for (std::size_t m = 0; m < layout.mode_names.size(); ++m)
    text += (m ? ", " : "") + std::to_string(m) + " " + layout.mode_names[m];
  return text.empty() ? std::string("the model declares no modes") : text;
}

void write_layout_legend(H5::H5File& file, const StrobeLayout& layout) {
  H5::Group legend = legend_group(file);
  H5::Group states = h5::create_group(legend, "states");
  const std::string unknown = "(not stated by the model)";
  for (std::size_t d = 0; d < layout.state_names.size(); ++d)
    h5::attribute(states, layout.state_names[d], "[" + at_or(layout.state_units, d, unknown) + "]");
  H5::Group modes = h5::create_group(legend, "modes");
  for (std::size_t m = 0; m < layout.mode_names.size(); ++m)
    h5::attribute(modes, layout.mode_names[m], std::to_string(m) + ": " + at_or(layout.mode_meanings, m, unknown));
  h5::attribute(legend, "drift_position", layout.drift_meaning + " [" + layout.drift_unit + "]");
}

std::string flag_word(const std::string& code) {
  std::string word;
  for (const char c : code) {
    if (c == '~') word += "_slow";
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' || c == '@' || c == '-')
      word += c;
    else word += '_';
  }
  std::string squeezed;
  for (const char c : word)
    if (c != '_' || (!squeezed.empty() && squeezed.back() != '_')) squeezed += c;
  while (!squeezed.empty() && squeezed.back() == '_') squeezed.pop_back();
  return squeezed;
}

void write_class_flags(H5::DataSet& index, const std::vector<std::string>& codes) {
  if (codes.empty()) return;  // no case has a class
  std::vector<std::int32_t> values(codes.size());
  std::string words, verbatim;
  for (std::size_t k = 0; k < codes.size(); ++k) {
    values[k] = static_cast<std::int32_t>(k);
    words += (k ? " " : "") + flag_word(codes[k]);
    verbatim += (k ? "," : "") + codes[k];
  }
  const hsize_t count = codes.size();
  index.createAttribute("flag_values", H5::PredType::STD_I32LE, H5::DataSpace(1, &count))
      .write(H5::PredType::NATIVE_INT32, values.data());
  h5::attribute(index, "flag_meanings", words);
  h5::attribute(index, "codes", verbatim);
}

}  // namespace vibro
