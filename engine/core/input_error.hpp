#pragma once
// Errors in what the user wrote (sweep file, command line, parameter values). They are reported
// before any work starts, as one message that names the key and what it accepts.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vibro {

class InputError : public std::runtime_error {
 public:
  // The message is made printable (see printable) and bounded: whatever a user's value held, the
  // message reaches the terminal as one line of text, whole (a NUL byte no longer cuts it).
  explicit InputError(const std::string& message);
};

// `text` with every byte a terminal would act on or garble written as an escape: \n, \r, \t, \0,
// \xHH for the other control bytes, DEL, C1 code points and bytes that are not valid UTF-8;
// valid UTF-8 (non-ASCII names included) is kept as it is.
std::string printable(std::string_view text);

// A user's value as a message echoes it: printable, and at most `limit` bytes of it followed by
// "... (N bytes)" when it is longer (a 10 MB value gives a short message).
std::string echoed(std::string_view text, std::size_t limit = 60);

// The first control character (< 0x20 or 0x7f) of `text` as printable writes it, or "" if none:
// for refusing values that can reach a file name or a generated script.
std::string first_control_character(std::string_view text);

}  // namespace vibro
