#pragma once
// Opening the files vibro writes (the output, its .partial, the checkpoint logs) without ever
// following a symbolic link or blocking on a FIFO: on a shared scratch file system a link planted at
// one of these names would otherwise make vibro truncate or fill the link's target.
#include <sys/types.h>

#include <string>

namespace vibro {

// What lies at a path, by lstat (a symbolic link is never followed).
enum class PathKind { Missing, Regular, Directory, Symlink, Other };
PathKind path_kind(const std::string& path);
// "a directory", "a symbolic link", "a FIFO", "a device", "a socket", for messages.
std::string describe_path_kind(const std::string& path);

// Opens a regular file with open(2) `flags` plus O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, checks by fstat
// that it is a regular file, then clears O_NONBLOCK. Throws InputError naming `what` and the path when
// the path is a link, a FIFO, a device or a directory, or cannot be opened.
int open_regular(const std::string& path, int flags, mode_t mode, const std::string& what);

// The output target of a run, checked before any case runs: `output` must be a regular file or
// nothing, not the sweep file `sweep_file` (compared by device and inode, and by path), its name a
// file name (not "", "/", ".", "..", no control characters), its folder existing and writable; an
// existing output is replaced only when `overwrite`; OUT.partial, when present, must be a regular
// file. Throws InputError naming the key and how to proceed.
void check_output_target(const std::string& output, const std::string& sweep_file, bool overwrite);

}  // namespace vibro
