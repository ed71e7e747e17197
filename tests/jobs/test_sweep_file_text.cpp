// The sweep file as text: encodings, line ends and comment styles people use for INI files are
// accepted; what is not INI text is refused with the file name, and a bad line with its number.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using Catch::Matchers::Contains;

namespace {

const char* const kSweep = "model = conveyor\n[parameters]\nc_r = 0.5\n[axes]\na_hat = 40, 50\n";

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    vibro::parse_sweep(text, "file.ini", overrides);
  } catch (const vibro::InputError& e) {
    return e.what();
  }
  FAIL("accepted; expected an InputError");
  return {};
}

void require_same_sweep(const std::string& text) {
  const vibro::SweepSpec spec = vibro::parse_sweep(text, "file.ini", {});
  CHECK(spec.model->name() == "conveyor");
  CHECK(spec.base.get("c_r") == 0.5);
  CHECK(spec.case_count() == 2);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("sweep file text: BOM, CR LF, CR-only and semicolon comments are accepted", "[jobs][sweep_text]") {
  require_same_sweep(std::string("\xef\xbb\xbf") + kSweep);
  require_same_sweep(replaced(kSweep, "\n", "\r\n"));
  require_same_sweep(replaced(kSweep, "\n", "\r"));
  require_same_sweep(std::string("; written by hand\n  ; indented\n") + replaced(kSweep, "[axes]", "; the grid\n[axes]"));
}

TEST_CASE("sweep file text: a bad line names the file and its line number", "[jobs][sweep_text]") {
  CHECK_THAT(error_of("model = conveyor\n\n[parameters]\nc_r 0.5\n"), Contains("file.ini:4: invalid line 'c_r 0.5'"));
  CHECK_THAT(error_of("model = conveyor\r\nc_r 0.5\r\n"), Contains("file.ini:2: invalid line"));
  CHECK_THAT(error_of("model = conveyor\n= 5\n"), Contains("file.ini:2: no key before '='"));
  CHECK_THAT(error_of("model = conveyor\n[parameters\n"), Contains("file.ini:2: invalid section header '[parameters'"));
  CHECK_THAT(error_of("model = conveyor\n[]\n"), Contains("file.ini:2:"));
  // A long bad line is echoed cut, with its length.
  const std::string message = error_of("model = conveyor\n" + std::string(5000, 'x') + "\n");
  CHECK_THAT(message, Contains("... (5000 bytes)"));
  CHECK(message.size() < 400);
}

TEST_CASE("sweep file text: UTF-16, NUL and control bytes are refused as not INI text", "[jobs][sweep_text]") {
  std::string utf16 = "\xff\xfe";
  for (const char c : std::string(kSweep)) utf16 += std::string(1, c) + '\0';
  CHECK_THAT(error_of(utf16), Contains("file.ini: not a text INI file: it is UTF-16"));
  CHECK_THAT(error_of(utf16.substr(2)), Contains("file.ini:1: not a text INI file: byte \\0 at offset 1"));
  const std::string nul = std::string("model = conveyor\n[parameters]\nc_r = 0.5\0 tail", 44);
  const std::string message = error_of(nul);
  CHECK_THAT(message, Contains("file.ini:3: not a text INI file: byte \\0"));
  CHECK_THAT(message, Contains("expected UTF-8"));  // the NUL did not cut the message short
  CHECK_THAT(error_of("model = conveyor\n[parameters]\nc_r = \x1b[31m0.5\n"), Contains("file.ini:3: not a text INI file: byte \\x1b"));
}

TEST_CASE("sweep file text: echoed values are escaped and capped", "[jobs][sweep_text]") {
  CHECK_THAT(error_of("model = conveyor\n[parameters]\nc_r = 0.5\xff\n"), Contains("parameters.c_r = '0.5\\xff'"));
  const std::string huge = error_of("model = conveyor\n[parameters]\nc_r = " + std::string(1'000'000, '7') + "\n");
  CHECK_THAT(huge, Contains("parameters.c_r") && Contains("(1000000 bytes)"));
  CHECK(huge.size() < 300);
}

TEST_CASE("sweep file text: overrides with no key or a control character are refused", "[jobs][sweep_text]") {
  CHECK_THAT(error_of(kSweep, {"--=5"}), Contains("'--=5' has no key"));
  CHECK_THAT(error_of(kSweep, {"--parameters.c_r=0.5\ntouch x"}), Contains("--parameters.c_r holds a control character (\\n)"));
  CHECK_THAT(error_of(kSweep, {"--output.file=\r"}), Contains("output.file"));
  CHECK_THAT(error_of(kSweep, {"--output.file= "}), Contains("output.file = ' ' is empty"));
  CHECK_THAT(error_of(kSweep, {"--output.file="}), Contains("--output.file"));  // program_options' own refusal
  CHECK_THAT(error_of(std::string(kSweep) + "[output]\nfile =\n"), Contains("output.file = '' is empty"));
}
