// Error messages say where a bad key or value came from: the command-line override that set it
// (overrides take precedence over the file) or the sweep file's line, counted as the user sees it.
#include <catch2/catch.hpp>

#include <string>

#include "engine/core/input_error.hpp"
#include "jobs/sweep/key_origin.hpp"
#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

TEST_CASE("key origin: file line or command-line override", "[jobs][key_origin]") {
  // CR LF and lone CR end lines too; a comment or blank line still counts.
  const std::string text = "model = conveyor\r\n# comment\n\n[parameters]\rc_r = 0.6\n[run]\n  tol = 1e-5  \n";
  const KeyOrigins origins(text, "s.ini", {"--run.tol=2", "--run.tol=3", "--axes.a_hat=1,2"});
  CHECK(origins.of("model") == "s.ini:1");
  CHECK(origins.of("parameters.c_r") == "s.ini:5");
  CHECK(origins.of("run.tol") == "command-line override --run.tol=2");  // the first override counts
  CHECK(origins.of("axes.a_hat") == "command-line override --axes.a_hat=1,2");
  CHECK(origins.of("run.max_periods").empty());
  CHECK(with_key_origin("parameters.c_r = 'x' is not a number", origins) == "s.ini:5: parameters.c_r = 'x' is not a number");
  CHECK(with_key_origin("axes.a_hat: bad", origins) == "command-line override --axes.a_hat=1,2: axes.a_hat: bad");
  CHECK(with_key_origin("unknown model 'x'", origins) == "s.ini:1: unknown model 'x'");
  CHECK(with_key_origin("the grid has too many cases", origins) == "the grid has too many cases");
}

TEST_CASE("parse_sweep blames a bad value on where it was set", "[jobs][key_origin]") {
  auto message = [](const std::string& ini, const std::vector<std::string>& overrides) {
    try {
      parse_sweep(ini, "study.ini", overrides);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string ini = "model = conveyor\n[run]\nprogress = sometimes\n";
  CHECK(message(ini, {}).rfind("study.ini:3: run.progress = 'sometimes'", 0) == 0);
  CHECK(message("model = conveyor\n", {"--run.progress=alwayz"}).rfind("command-line override --run.progress=alwayz: ", 0) == 0);
  CHECK(message("model = conveyor\n", {"--run.progress=alwayz"}).find("did you mean 'always'") != std::string::npos);
  const std::string unknown = message("model = conveyor\n[run]\nmax_perods = 3\n", {});
  CHECK(unknown.rfind("study.ini:3: unknown key 'run.max_perods'", 0) == 0);
  CHECK(unknown.find("did you mean 'run.max_periods'") != std::string::npos);
}

TEST_CASE("key origin: a key given twice is named with both places", "[jobs][key_origin]") {
  const std::string text = "model = conveyor\n[run]\ntol = 1e-5\nmax_periods = 50\n[run]\ntol = 1e-6\n";
  CHECK(KeyOrigins(text, "s.ini", {}).repeated_key() == "s.ini:3 and s.ini:6: run.tol is given twice; give each key once");
  CHECK(KeyOrigins("model = conveyor\n", "s.ini", {"--output.file=a.h5", "--output.file=b.h5"}).repeated_key() ==
        "command-line overrides --output.file=a.h5 and --output.file=b.h5: output.file is given twice; give it once");
  // An override of the file's value is how a value is changed, and plugin lines may repeat.
  CHECK(KeyOrigins("model = conveyor\n[run]\ntol = 1e-5\n", "s.ini", {"--run.tol=2"}).repeated_key().empty());
  CHECK(KeyOrigins("plugin = a.so\nplugin = b.so\n", "s.ini", {"--plugin=c.so", "--plugin=d.so"}).repeated_key().empty());
  // parse_sweep refuses it before reading any value, naming both lines (not "malformed sweep file").
  try {
    parse_sweep(text, "s.ini", {});
    FAIL("a repeated key was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "s.ini:3 and s.ini:6: run.tol is given twice; give each key once");
  }
}
