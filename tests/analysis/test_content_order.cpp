// order_by_contents (analysis/content_order.hpp) gives exactly std::sort's order by (contents, index):
// items with equal contents in index order, -0.0 equal to 0.0, hashes that read only a prefix.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/content_order.hpp"

using namespace vibro;

namespace {

using Point = std::array<double, 3>;

struct Item {
  std::string code;
  int period = 0;
  std::vector<Point> points;
};

// Few distinct values, so that many items share their contents wholly or in long prefixes.
std::vector<Item> random_items(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  const std::vector<double> values{-1.0, -0.0, 0.0, 0.5, 2.0};
  std::vector<Item> items(n);
  for (Item& item : items) {
    item.code = random() % 2 ? "S" : "H1";
    item.period = static_cast<int>(random() % 2) + 1;
    item.points.resize(3 + random() % 2);
    for (Point& p : item.points)
      for (double& v : p) v = random() % 8 == 0 ? values[random() % values.size()] : 0.5;  // mostly equal
  }
  return items;
}

}  // namespace

TEST_CASE("order_by_contents orders as std::sort by contents then index", "[analysis][content_order]") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const std::vector<Item> items = random_items(300, seed);
    using Key = std::tuple<const std::string&, const int&, const std::vector<Point>&>;
    const auto key = [&](std::size_t i) { return Key(items[i].code, items[i].period, items[i].points); };
    const auto hash = [&](std::size_t i) {
      ContentHash h;
      h.add(items[i].code);
      h.add(static_cast<std::uint64_t>(items[i].period));
      h.add_first(items[i].points, 2);  // a prefix only: items differing later share a hash
      return h.value();
    };
    // Every other item, shuffled: the order must not depend on the order the items come in.
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < items.size(); i += 2) members.push_back(i);
    std::shuffle(members.begin(), members.end(), std::mt19937(seed));
    std::vector<std::size_t> expected = members;
    std::sort(expected.begin(), expected.end(),
              [&](std::size_t a, std::size_t b) { return std::tuple_cat(key(a), std::tie(a)) < std::tuple_cat(key(b), std::tie(b)); });
    CHECK(order_by_contents(members, key, hash) == expected);
    // The draw gives items with equal contents (the grouped path), -0.0 against 0.0 among them.
    std::size_t equal_neighbours = 0;
    for (std::size_t k = 1; k < expected.size(); ++k) equal_neighbours += key(expected[k - 1]) == key(expected[k]) ? 1 : 0;
    CHECK(equal_neighbours > 0);
  }
}

TEST_CASE("contents equal under == hash alike: -0.0 and 0.0", "[analysis][content_order]") {
  ContentHash a, b, c;
  a.add(0.0);
  b.add(-0.0);
  c.add(1e-300);
  CHECK(a.value() == b.value());
  CHECK(a.value() != c.value());
}
