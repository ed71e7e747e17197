#pragma once
// Where a sweep key's value came from, for error messages: a command-line override (which takes
// precedence) or a line of the sweep file. A user who typed the bad value on the command line is
// not sent to look for it in the file, and vice versa.
#include <map>
#include <string>
#include <vector>

namespace vibro {

class KeyOrigins {
 public:
  // `text`: the sweep file as read (its line numbers are the user's); `overrides`: "--key=value".
  KeyOrigins(const std::string& text, const std::string& source_name, const std::vector<std::string>& overrides);
  // "command-line override --run.tol=x", "sweep.ini:12", or "" when the key is given nowhere.
  std::string of(const std::string& key) const;
  // A key set twice by the overrides or twice in the file (`plugin`, which may repeat, aside), as an
  // error message that names both places; "" when none is. The file's value and an override of it are
  // no repetition: the override is how a file's value is changed.
  std::string repeated_key() const;

 private:
  std::string source_name_;
  std::map<std::string, std::vector<int>> lines_;                // key -> its lines in the file
  std::map<std::string, std::vector<std::string>> overrides_;  // key -> the overrides that set it
};

// `message` with the origin of the key it starts with ("run.tol = ..." or "axes.a_hat: ...", or
// "unknown model" for the model key) put in front; unchanged when it names no key given anywhere.
std::string with_key_origin(const std::string& message, const KeyOrigins& origins);

}  // namespace vibro
