#pragma once
// The --time of vibro submit, checked as Slurm reads it, so that a typo is refused before the
// job reaches the queue instead of being taken for another limit (or rejected by sbatch later).
#include <string>

namespace vibro {

// Accepts Slurm's formats MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM and D-HH:MM:SS with seconds and
// minutes below 60 where hours follow them, hours below 24 after days, and a limit of at least one
// second and at most 365 days. Returns `text`; throws InputError naming --time and the formats.
std::string checked_slurm_time(const std::string& text);

}  // namespace vibro
