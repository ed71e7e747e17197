// Every example sweep file parses (model, keys, ranges, axes) as shipped: a broken example fails here.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jobs/sweep/sweep_spec.hpp"

using namespace vibro;

TEST_CASE("every examples/*.ini parses and has cases", "[jobs]") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(VIBRO_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".ini") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    INFO(entry.path().filename().string());
    SweepSpec spec = parse_sweep(text.str(), entry.path().filename().string(), {});
    CHECK(spec.case_count() >= 1);
    ++files;
  }
  CHECK(files >= 10);
}
