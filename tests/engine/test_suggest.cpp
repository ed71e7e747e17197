// "Did you mean": the edit distance counts a swap of neighbours as one typo, and a suggestion is
// offered only for a plausible typo, never for an unrelated word or a one-letter one.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/core/suggest.hpp"

using namespace vibro;

TEST_CASE("edit distance: insertions, deletions, substitutions and swaps cost one each", "[suggest]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("run", "run") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("rn", "run") == 1);
  CHECK(edit_distance("runn", "run") == 1);
  CHECK(edit_distance("ruc", "run") == 1);
  CHECK(edit_distance("plto", "plot") == 1);  // a swap, not two substitutions
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("abc", "xyz") == 3);
}

TEST_CASE("closest name: the nearest plausible typo or nothing", "[suggest]") {
  const std::vector<std::string> commands = {"run", "continue", "plot", "submit", "models", "describe", "examples"};
  CHECK(closest_name("rnu", commands) == "run");
  CHECK(closest_name("desribe", commands) == "describe");
  CHECK(closest_name("modles", commands) == "models");
  CHECK(closest_name("frobnicate", commands).empty());
  CHECK(closest_name("x", {"t"}).empty());     // one letter: anything is one edit away
  CHECK(closest_name("run", commands).empty());  // an exact name is not a typo
  // The closer of two candidates; ties go to the first.
  CHECK(closest_name("run.max_perods", {"run.max_period", "run.max_periods"}) == "run.max_periods");
  CHECK(closest_name("ab", {"ax", "ay"}) == "ax");
  CHECK(did_you_mean("alwys", {"auto", "always", "never"}) == "; did you mean 'always'?");
  CHECK(did_you_mean("sometimes", {"auto", "always", "never"}).empty());
}
