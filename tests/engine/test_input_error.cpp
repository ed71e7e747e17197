// InputError messages reach a terminal: whatever bytes a user's value holds, the message is one line
// of printable text, whole, and short.
#include <catch2/catch.hpp>

#include <string>

#include "engine/core/input_error.hpp"

using vibro::echoed;
using vibro::printable;

TEST_CASE("input error: control bytes are escaped, UTF-8 is kept", "[engine][input_error]") {
  CHECK(printable("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(printable(std::string("x\0y", 3)) == "x\\0y");
  CHECK(printable("\x1b[31m\x7f") == "\\x1b[31m\\x7f");
  CHECK(printable("d\xc3\xbcse \xe2\x82\xac") == "d\xc3\xbcse \xe2\x82\xac");        // ü and € as they are
  CHECK(printable("\xff\xc3(") == "\\xff\\xc3(");                                     // not UTF-8
  CHECK(printable("\xc2\x9b" "2J") == "\\xc2\\x9b2J");                                // C1 CSI: acts on terminals
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");                              // a surrogate
}

TEST_CASE("input error: a long value is cut with its length", "[engine][input_error]") {
  CHECK(echoed("short") == "short");
  CHECK(echoed(std::string(100, 'x')) == std::string(60, 'x') + "... (100 bytes)");
  // Not inside a UTF-8 character: 59 x and a 2-byte ü would be cut at byte 60.
  CHECK(echoed(std::string(59, 'x') + "\xc3\xbc" + std::string(10, 'y')) == std::string(59, 'x') + "... (71 bytes)");
}

TEST_CASE("input error: the message is escaped, whole past a NUL, and bounded", "[engine][input_error]") {
  const vibro::InputError with_nul("key = '" + std::string("a\0b", 3) + "' is not accepted");
  CHECK(std::string(with_nul.what()) == "key = 'a\\0b' is not accepted");
  const vibro::InputError huge("key = '" + std::string(10'000'000, '7') + "'");
  CHECK(std::string(huge.what()).size() < 4100);
  CHECK_THAT(huge.what(), Catch::Matchers::Contains("(10000008 bytes)"));
  CHECK(vibro::first_control_character("plain name") == "");
  CHECK(vibro::first_control_character("two\nlines") == "\\n");
}
