#pragma once
// Orders items by their contents, then by index, exactly as std::sort with the comparator
// tie(key(a), a) < tie(key(b), b) would, but compares items whose contents are equal only once, as a
// group. Why: a parameter point's cases often share their contents bit for bit (cases that stick to
// the conveyor's plate have one orbit and one window of 51 points), and every comparison of two equal
// windows read all of their doubles: sorting a point's cases took 29 % of the time to write a real
// 90,000-case conveyor map's file with stored points (69 % with the null back end's replayed cases).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

namespace vibro {

// A hash of contents built piece by piece; numbers equal under == hash alike (-0.0 as 0.0).
class ContentHash {
 public:
  void add(std::uint64_t x) { value_ ^= x + 0x9e3779b97f4a7c15ULL + (value_ << 6) + (value_ >> 2); }
  void add(double v) {
    if (v == 0) v = 0;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    add(bits);
  }
  void add(const std::string& s) { add(static_cast<std::uint64_t>(std::hash<std::string>{}(s))); }
  // The first `count` points of `points` (and how many there are): enough to tell most contents apart.
  template <class Point>
  void add_first(const std::vector<Point>& points, std::size_t count) {
    add(static_cast<std::uint64_t>(points.size()));
    for (std::size_t k = 0; k < std::min(count, points.size()); ++k)
      for (const double v : points[k]) add(v);
  }
  std::uint64_t value() const { return value_; }

 private:
  std::uint64_t value_ = 0xcbf29ce484222325ULL;
};

// `key(i)`: a tuple of item i's contents, compared with < and ==, where == holds exactly when neither
// is less (numbers that are not NaN). `hash(i)`: equal for items with equal keys (it may read only part
// of them). Returns `items` in order.
template <class Key, class Hash>
std::vector<std::size_t> order_by_contents(std::vector<std::size_t> items, Key key, Hash hash) {
  std::sort(items.begin(), items.end());
  std::vector<std::vector<std::size_t>> groups;  // items with equal keys, in index order
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> groups_of_hash;
  for (const std::size_t i : items) {
    std::vector<std::size_t>& candidates = groups_of_hash[hash(i)];
    const auto same = std::find_if(candidates.begin(), candidates.end(),
                                   [&](std::size_t g) { return key(groups[g].front()) == key(i); });
    if (same != candidates.end()) {
      groups[*same].push_back(i);
    } else {
      candidates.push_back(groups.size());
      groups.push_back({i});
    }
  }
  std::vector<std::size_t> by_key(groups.size());
  std::iota(by_key.begin(), by_key.end(), std::size_t{0});
  std::sort(by_key.begin(), by_key.end(), [&](std::size_t g, std::size_t h) {
    const std::size_t a = groups[g].front(), b = groups[h].front();
    if (key(a) < key(b)) return true;
    if (key(b) < key(a)) return false;
    return a < b;
  });
  std::vector<std::size_t> ordered;
  ordered.reserve(items.size());
  for (const std::size_t g : by_key) ordered.insert(ordered.end(), groups[g].begin(), groups[g].end());
  return ordered;
}

}  // namespace vibro
