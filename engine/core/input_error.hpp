#pragma once
// Errors in what the user wrote (sweep file, command line, parameter values). They are reported
// before any work starts, as one message that names the key and what it accepts.
#include <stdexcept>
#include <string>

namespace vibro {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace vibro
