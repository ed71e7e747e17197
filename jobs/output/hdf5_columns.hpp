#pragma once
// HDF5 datasets written a block of cases at a time: per-case columns over the flattened grid,
// per-case rows whose width grows as wider ones arrive (padded with a fill value), and ragged point
// sets appended in case order. Chunked storage with fill values, so what is never written reads
// back as the padding the schema documents. Integrity: files are created in the latest file format
// (every metadata block carries a checksum), every dataset chunk passes the fletcher32 filter, and
// strings are fixed-length (kept in the checksummed chunks and object headers, not in the global
// heap, which has no checksum): a flipped bit is an error on reading, never different data.
#include <H5Cpp.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vibro::h5 {

// A new file (truncating PATH) in the latest file format.
H5::H5File create_file(const std::string& path);

// A new group at `path` (relative to `parent` or absolute). This group and the root group keep their
// links in their object header however many there are (HDF5 moves a group of more than 8 links to a
// fractal heap by default): a flipped bit there fails the header's checksum, while in the heap HDF5
// 1.10 crashed releasing the half-read link table (free(): invalid pointer) when the group was listed.
H5::Group create_group(H5::Group& parent, const std::string& path);
H5::Group create_group(H5::H5File& file, const std::string& path);

void attribute(H5::H5Object& where, const std::string& name, const std::string& value);
void attribute(H5::H5Object& where, const std::string& name, double value);
void attribute(H5::H5Object& where, const std::string& name, long long value);

template <class T>
const H5::DataType& type_of();

// A scalar dataset holding one number or string, in compact layout: the value lies in the
// (checksummed) object header, so a flipped bit fails to read as it does in a chunk.
H5::DataSet scalar(H5::Group& group, const std::string& name, double value);
H5::DataSet scalar(H5::Group& group, const std::string& name, const std::string& value);

// Whether a dataset keeps HDF5's chunk cache. A column written a whole chunk at a time needs none:
// each write goes through the checksum filter straight to the file, where through the cache every
// chunk was copied into a fresh buffer, cleared and flushed (on a 10^6-case file written while its
// sweep ran, a third of the run's CPU time). Partial chunks written without the cache would each be
// read back, checked and rewritten: keep it for those.
enum class ChunkCache : bool { Kept, Skipped };
// Whether writes of `block_rows` consecutive rows at a time, from row 0, fill whole chunks of a
// `rows`-row column (the last chunk ends with the column).
bool fills_whole_chunks(hsize_t block_rows, hsize_t rows);

// A column of `rows` values, or a matrix of `rows` x `width`, every element `fill` until written.
// Both extents may grow later.
template <class T>
H5::DataSet column(H5::Group& group, const std::string& name, hsize_t rows, T fill, ChunkCache cache = ChunkCache::Kept);
template <class T>
H5::DataSet matrix(H5::Group& group, const std::string& name, hsize_t rows, hsize_t width, T fill);

// Writes rows [first, first + values.size() / width) (width 1 for a column); a matrix is widened
// first when `width` exceeds its width (the new columns of earlier rows read as the fill value).
template <class T>
void write_rows(H5::DataSet& set, hsize_t first, const T* values, std::size_t count, hsize_t width = 1);
template <class T, class Allocator>
void write_rows(H5::DataSet& set, hsize_t first, const std::vector<T, Allocator>& values, hsize_t width = 1) {
  write_rows(set, first, values.data(), values.size(), width);
}

// Reads rows [first, first + count) of a column.
template <class T>
std::vector<T> read_rows(const H5::DataSet& set, hsize_t first, hsize_t count);

// Appends rows at the end.
template <class T>
void append_rows(H5::DataSet& set, const std::vector<T>& values, hsize_t width = 1);

// A file written as PATH.partial and renamed to PATH once whole (commit), so a crash never leaves a
// half-written file under the final name. PATH.partial is created afresh (O_EXCL, never through a
// link; a leftover regular file is removed first) and checked to be that same file before the
// rename. Removed unless committed.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  const std::string& temporary() const { return temporary_; }
  void commit();  // every handle to the temporary file closed

 private:
  std::string path_, temporary_;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  bool committed_ = false;
};

// Writes a file as an AtomicFile through `write` (given the temporary name). HDF5 errors become
// std::runtime_error naming the file.
void write_atomically(const std::string& path, const std::function<void(const std::string&)>& write);

// Fixed-length strings of up to `width` bytes, one per row (longer ones are cut).
H5::DataSet create_strings(H5::Group& group, const std::string& name, hsize_t rows, std::size_t width);
void write_strings(H5::DataSet& set, hsize_t first, const std::vector<std::string>& values);
// The same from rows already padded to the dataset's width (`padded.size() / width` rows).
void write_padded_strings(H5::DataSet& set, hsize_t first, const std::vector<char>& padded);

}  // namespace vibro::h5
