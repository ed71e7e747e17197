#include "engine/core/suggest.hpp"

#include <algorithm>

#include "engine/core/input_error.hpp"

namespace vibro {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // The full table (names are short): d[i][j] is the distance between a's first i and b's first j
  // characters; a swap of two neighbours costs 1, as the commonest typo ("plto") should.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    // A third of the longer name ("plto" -> "plot", "run.max_period" -> "run.max_periods"); a
    // one-letter word may be anything, so it is offered nothing.
    const std::size_t allowed = word.size() < 2 ? 0 : std::max<std::size_t>(1, std::max(word.size(), c.size()) / 3);
    if (d == 0 || d > allowed) continue;
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string best = closest_name(word, candidates);
  return best.empty() ? "" : "; did you mean '" + echoed(best) + "'?";
}

}  // namespace vibro
