#pragma once
// Checks a vibro HDF5 file (sweep, branch, curve or trace) before anything reads it: the format and a known schema
// version, every dataset the plots need present with the shape the schema gives it, and every
// dataset and attribute read back in full, so a damaged chunk or metadata block (their checksums)
// is reported here as a clear error instead of reaching a plotting script.
#include <string>

namespace vibro {

// The file's format ("vibro-sweep", "vibro-branch", "vibro-curve" or "vibro-trace"). Throws InputError naming the file and what is wrong.
std::string check_result_file(const std::string& path);

}  // namespace vibro
