#pragma once
// The forcing phase as a hybrid model's vector field sees it (hybrid_description.hpp).

namespace vibro {

// cos(w t), sin(w t), in the field's scalar type (double, a jet, a traced value).
template <class T>
struct Drive {
  T cos, sin;
};

}  // namespace vibro
