#pragma once
// The part of a result file that says what its codes and names mean (schema version 4): /legend with
// the model's class codes, and the units and meanings of the stroboscopic state, its modes and the
// drift coordinate (docs/hdf5_schema.md).
#include <H5Cpp.h>

#include "engine/core/model.hpp"

namespace vibro {

// /legend/classes: one attribute per class code or pattern (engine/core/model_legend.hpp) -> meaning.
void write_class_legend(H5::H5File& file, const Model& model);

// /legend/states and /legend/modes (name -> unit and meaning; name -> meaning, with its index), from
// the layout of a case that ran.
void write_layout_legend(H5::H5File& file, const StrobeLayout& layout);

// "0 flight, 1 coupled": the mode indices as the /cases/strobe/mode column stores them.
std::string mode_index_meaning(const StrobeLayout& layout);

}  // namespace vibro
