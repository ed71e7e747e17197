#pragma once
// The stroboscopic state as a model's default case lays it out (a case with other choices, e.g.
// another initial mode, has the same layout): what `vibro describe` prints and vibro.describe returns.
#include <optional>
#include <string>

#include "engine/core/model.hpp"

namespace vibro::cli {

struct DefaultLayout {
  std::optional<StrobeLayout> layout;  // empty when the default case does not start
  std::string why_none;                // then: why not, as one sentence
};

DefaultLayout default_layout(const Model& model);

}  // namespace vibro::cli
