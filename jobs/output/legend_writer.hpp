#pragma once
// The part of a result file that says what its codes and names mean (schema version 4): /legend with
// the model's class codes, and the units and meanings of the stroboscopic state, its modes and the
// drift coordinate (docs/hdf5_schema.md).
#include <H5Cpp.h>

#include <string>
#include <vector>

#include "engine/core/model.hpp"

namespace vibro {

// /legend/classes: one attribute per class code or pattern (engine/core/model_legend.hpp) -> meaning.
void write_class_legend(H5::H5File& file, const Model& model);

// /legend/states and /legend/modes (name -> unit and meaning; name -> meaning, with its index), from
// the layout of a case that ran.
void write_layout_legend(H5::H5File& file, const StrobeLayout& layout);

// "0 flight, 1 coupled": the mode indices as the /cases/strobe/mode column stores them.
std::string mode_index_meaning(const StrobeLayout& layout);

// A class code as a CF flag_meanings word (letters, digits and _ . + @ -): "~" (slowly converging)
// becomes "_slow", any other character "_", a run of "_" one and none at the end: "M2~" ->
// "M2_slow", "(3,1)~" -> "3_1_slow".
std::string flag_word(const std::string& code);

// CF flags on /cases/class_index: flag_values 0, 1, ..., flag_meanings the codes as flag words, and
// `codes` the codes as they are, comma-separated (code k is the class of the cases with index k).
void write_class_flags(H5::DataSet& index, const std::vector<std::string>& codes);

}  // namespace vibro
