#include "jobs/output/safe_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/core/input_error.hpp"

namespace vibro {

PathKind path_kind(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return PathKind::Missing;
  if (S_ISREG(info.st_mode)) return PathKind::Regular;
  if (S_ISDIR(info.st_mode)) return PathKind::Directory;
  if (S_ISLNK(info.st_mode)) return PathKind::Symlink;
  return PathKind::Other;
}

std::string describe_path_kind(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return "nothing";
  if (S_ISREG(info.st_mode)) return "a regular file";
  if (S_ISDIR(info.st_mode)) return "a directory";
  if (S_ISLNK(info.st_mode)) return "a symbolic link";
  if (S_ISFIFO(info.st_mode)) return "a FIFO";
  if (S_ISSOCK(info.st_mode)) return "a socket";
  return "a device";
}

int open_regular(const std::string& path, int flags, mode_t mode, const std::string& what) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer or reader; it is refused below.
  const int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
  if (fd < 0) {
    const int error = errno;
    const PathKind kind = path_kind(path);
    if (kind == PathKind::Symlink || kind == PathKind::Directory || kind == PathKind::Other)
      throw InputError(what + " '" + path + "' is " + describe_path_kind(path) +
                       ", not a regular file; vibro writes and reads only regular files there (move it away)");
    throw InputError("cannot open " + what + " '" + path + "': " + std::strerror(error));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw InputError(what + " '" + path + "' is " + describe_path_kind(path) +
                     ", not a regular file; vibro writes and reads only regular files there (move it away)");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

namespace {

bool same_file(const std::string& a, const std::string& b) {
  struct stat x {}, y {};
  if (::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0) return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
  std::error_code error;
  const auto pa = std::filesystem::weakly_canonical(a, error);
  if (error) return false;
  const auto pb = std::filesystem::weakly_canonical(b, error);
  return !error && pa == pb;
}

}  // namespace

void check_output_target(const std::string& output, const std::string& sweep_file, bool overwrite) {
  const std::string key = "output.file = '" + output + "'";
  for (const char c : output)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw InputError("output.file contains a control character; use a file name of printable characters");
  const std::string name = std::filesystem::path(output).filename().string();
  if (output.empty() || name.empty() || name == "." || name == "..")
    throw InputError(key + " is not a file name; give a file such as results/sweep.h5");
  const PathKind kind = path_kind(output);
  if (kind != PathKind::Missing && kind != PathKind::Regular)
    throw InputError(key + " is " + describe_path_kind(output) +
                     "; the output must be a regular file or a new name (vibro never writes through links or into devices)");
  if (!sweep_file.empty() && same_file(output, sweep_file))
    throw InputError(key + " is the sweep file itself; choose another output name");
  if (kind == PathKind::Regular && !overwrite)
    throw InputError(key + " exists already; pass --output.overwrite=true (or set output.overwrite = true) to replace "
                     "it, or choose another output.file");
  const std::string partial = output + ".partial";
  const PathKind partial_kind = path_kind(partial);
  if (partial_kind != PathKind::Missing && partial_kind != PathKind::Regular)
    throw InputError("'" + partial + "' (where the output is written before its rename) is " +
                     describe_path_kind(partial) + "; move it away");
  std::string folder = std::filesystem::path(output).parent_path().string();
  if (folder.empty()) folder = ".";
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw InputError(key + ": the folder '" + folder + "' does not exist");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw InputError(key + " cannot be written: the folder '" + folder + "': " + std::strerror(errno));
}

}  // namespace vibro
