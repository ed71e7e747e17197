#pragma once
// "Did you mean ...?" for a mistyped name (command, model, key, choice): the closest accepted name
// by edit distance, offered only when it is close enough to be a typo rather than another word.
#include <string>
#include <vector>

namespace vibro {

// Edit distance (optimal string alignment: insertions, deletions, substitutions and swaps of neighbours; each costs 1).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word` if it is a plausible typo (distance at most a third of the longer
// name, at least 1; none for a one-letter word; ties to the first), else "".
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates);

// "; did you mean 'NAME'?" for closest_name, or "" when there is none.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace vibro
