#include "jobs/parallel/slurm_time.hpp"

#include <regex>

#include "engine/core/input_error.hpp"

namespace vibro {

namespace {

constexpr long kMaxSeconds = 365L * 24 * 3600;

[[noreturn]] void refuse(const std::string& text, const std::string& why) {
  throw InputError("--time = '" + echoed(text) + "' is not accepted" + (why.empty() ? "" : " (" + why + ")") +
                   "; expected a Slurm time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS "
                   "(minutes and seconds below 60 after hours, hours below 24 after days), from 1 s to 365 days");
}

long field(const std::string& text, const std::ssub_match& digits, long below, const char* name) {
  if (!digits.matched) return 0;
  const long v = std::stol(digits.str());
  if (below > 0 && v >= below) refuse(text, std::string(name) + " " + digits.str() + " is not below " + std::to_string(below));
  return v;
}

}  // namespace

std::string checked_slurm_time(const std::string& text) {
  // At most 7 digits a field: no overflow, and anything longer is out of range anyway.
  static const std::regex with_days(R"((\d{1,7})-(\d{1,7})(?::(\d{1,7})(?::(\d{1,7}))?)?)");
  static const std::regex without_days(R"((\d{1,7})(?::(\d{1,7})(?::(\d{1,7}))?)?)");
  std::smatch m;
  long seconds = 0;
  if (std::regex_match(text, m, with_days)) {
    seconds = field(text, m[1], 0, "days") * 86400 + field(text, m[2], 24, "hours") * 3600 +
              field(text, m[3], 60, "minutes") * 60 + field(text, m[4], 60, "seconds");
  } else if (std::regex_match(text, m, without_days)) {
    if (m[3].matched)  // HH:MM:SS
      seconds = field(text, m[1], 0, "hours") * 3600 + field(text, m[2], 60, "minutes") * 60 + field(text, m[3], 60, "seconds");
    else  // MM or MM:SS
      seconds = field(text, m[1], 0, "minutes") * 60 + field(text, m[2], 60, "seconds");
  } else {
    refuse(text, "");
  }
  if (seconds < 1) refuse(text, "a limit of zero");
  if (seconds > kMaxSeconds) refuse(text, "more than 365 days");
  return text;
}

}  // namespace vibro
