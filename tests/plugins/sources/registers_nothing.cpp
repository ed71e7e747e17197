// A model plugin's source that forgets its registration (no static vibro::RegisterModel<M>).
#include "engine/core/model.hpp"

namespace {

class Unregistered : public vibro::Model {};

}  // namespace
