#pragma once
// A file's bytes mapped read-only (the checkpoint logs): reading a record is a memory access, with no
// copy into a buffer and no system call. The pages are the kernel's page cache, not this process's
// heap. Move-only; unmapped with the owner.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace vibro {

class MappedFile {
 public:
  MappedFile() = default;
  // The first `size` bytes of the open file `fd` (which may be closed after: the mapping keeps the file).
  MappedFile(int fd, std::uint64_t size, const std::string& path) : size_(size) {
    if (size == 0) return;
    void* bytes = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (bytes == MAP_FAILED) throw std::runtime_error("cannot map '" + path + "' into memory");
    bytes_ = static_cast<const char*>(bytes);
  }
  MappedFile(MappedFile&& other) noexcept
      : bytes_(std::exchange(other.bytes_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  MappedFile& operator=(MappedFile&& other) noexcept {
    std::swap(bytes_, other.bytes_);
    std::swap(size_, other.size_);
    return *this;
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (bytes_) ::munmap(const_cast<char*>(bytes_), static_cast<std::size_t>(size_));
  }
  // Unmaps the pages of bytes [from, to) read so far from this process (they stay in the page cache;
  // a later read maps them again): a mapping read whole would otherwise count the whole file as
  // resident memory. Whole pages only: the range is shrunk to them.
  void release(std::uint64_t from, std::uint64_t to) const {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    from = (from + page - 1) / page * page;
    to = std::min(to, size_) / page * page;
    if (bytes_ && from < to) ::madvise(const_cast<char*>(bytes_) + from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
  }
  void release() const { release(0, size_); }
  const char* data() const { return bytes_; }
  std::uint64_t size() const { return size_; }

 private:
  const char* bytes_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace vibro
