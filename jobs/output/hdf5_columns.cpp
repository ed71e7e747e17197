#include "jobs/output/hdf5_columns.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "engine/core/input_error.hpp"
#include "jobs/output/safe_path.hpp"

namespace vibro::h5 {

namespace {

constexpr hsize_t kChunkElements = 1 << 16;
constexpr hsize_t kAppendChunkRows = 4096;

// rank 1: a column of `rows`; rank 2: `rows` x `width`.
H5::DataSpace space(int rank, hsize_t rows, hsize_t width) {
  const hsize_t dims[2] = {rows, width}, max[2] = {H5S_UNLIMITED, H5S_UNLIMITED};
  return H5::DataSpace(rank, dims, max);
}

// Chunks of up to kChunkElements, no taller than a known row count (a small sweep's file stays small);
// datasets that start empty and grow by appending get a modest chunk.
H5::DSetCreatPropList chunked(int rank, hsize_t rows, hsize_t width) {
  H5::DSetCreatPropList list;
  const hsize_t columns = std::max<hsize_t>(width, 1);
  const hsize_t tallest = std::max<hsize_t>(kChunkElements / columns, 1);
  const hsize_t chunk[2] = {std::min(tallest, rows > 0 ? rows : kAppendChunkRows), columns};
  list.setChunk(rank, chunk);
  list.setFletcher32();  // a damaged chunk fails to read instead of reading as other data
  return list;
}

// The dataset's rank, row count and width (1 for a column).
int shape(const H5::DataSet& set, hsize_t& rows, hsize_t& width) {
  const H5::DataSpace now = set.getSpace();
  hsize_t dims[2] = {0, 1};
  now.getSimpleExtentDims(dims);
  rows = dims[0];
  width = dims[1];
  return now.getSimpleExtentNdims();
}

void write_block(H5::DataSet& set, hsize_t first, hsize_t count, hsize_t width, const void* data,
                 const H5::DataType& type) {
  if (count == 0 || width == 0) return;  // nothing to write
  H5::DataSpace file = set.getSpace();
  const int rank = file.getSimpleExtentNdims();
  const hsize_t start[2] = {first, 0}, extent[2] = {count, width};
  file.selectHyperslab(H5S_SELECT_SET, extent, start);
  const H5::DataSpace memory(rank, extent);
  set.write(data, type, memory, file);
}

}  // namespace

namespace {
// Links stay compact (in the checksummed object header) up to HDF5's limit on their count.
constexpr unsigned kCompactLinks = 65535;
}  // namespace

H5::H5File create_file(const std::string& path) {
  H5::FileAccPropList access;
  access.setLibverBounds(H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  H5::FileCreatPropList creation;  // also the root group's creation list
  H5Pset_link_phase_change(creation.getId(), kCompactLinks, kCompactLinks);
  return H5::H5File(path, H5F_ACC_TRUNC, creation, access);
}

H5::Group create_group(H5::Group& parent, const std::string& path) {
  const hid_t list = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_link_phase_change(list, kCompactLinks, kCompactLinks);
  const hid_t id = H5Gcreate2(parent.getId(), path.c_str(), H5P_DEFAULT, list, H5P_DEFAULT);
  H5Pclose(list);
  if (id < 0) throw H5::GroupIException("create_group", "cannot create group " + path);
  H5::Group group(id);
  H5Gclose(id);  // the Group holds its own reference
  return group;
}

H5::Group create_group(H5::H5File& file, const std::string& path) {
  H5::Group root = file.openGroup("/");
  return create_group(root, path);
}

void attribute(H5::H5Object& where, const std::string& name, const std::string& value) {
  // Fixed length: the text lives in the (checksummed) object header, not the global heap.
  const H5::StrType type(H5::PredType::C_S1, value.size() + 1);
  where.createAttribute(name, type, H5::DataSpace(H5S_SCALAR)).write(type, value.c_str());
}

namespace {
H5::DSetCreatPropList compact() {
  H5::DSetCreatPropList list;
  list.setLayout(H5D_COMPACT);
  return list;
}
}  // namespace

H5::DataSet scalar(H5::Group& group, const std::string& name, double value) {
  H5::DataSet set = group.createDataSet(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(H5S_SCALAR), compact());
  set.write(&value, H5::PredType::NATIVE_DOUBLE);
  return set;
}

H5::DataSet scalar(H5::Group& group, const std::string& name, const std::string& value) {
  const H5::StrType type(H5::PredType::C_S1, value.size() + 1);
  H5::DataSet set = group.createDataSet(name, type, H5::DataSpace(H5S_SCALAR), compact());
  set.write(value.c_str(), type);
  return set;
}

void attribute(H5::H5Object& where, const std::string& name, double value) {
  where.createAttribute(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_DOUBLE, &value);
}

void attribute(H5::H5Object& where, const std::string& name, long long value) {
  where.createAttribute(name, H5::PredType::NATIVE_LLONG, H5::DataSpace(H5S_SCALAR))
      .write(H5::PredType::NATIVE_LLONG, &value);
}

template <> const H5::DataType& type_of<double>() { return H5::PredType::NATIVE_DOUBLE; }
template <> const H5::DataType& type_of<std::int64_t>() { return H5::PredType::NATIVE_INT64; }
template <> const H5::DataType& type_of<std::int32_t>() { return H5::PredType::NATIVE_INT32; }
template <> const H5::DataType& type_of<std::int8_t>() { return H5::PredType::NATIVE_INT8; }

bool fills_whole_chunks(hsize_t block_rows, hsize_t rows) {
  const hsize_t chunk_rows = std::min(kChunkElements, rows > 0 ? rows : kAppendChunkRows);  // chunked(1, rows, 1)'s
  return block_rows >= rows || block_rows % chunk_rows == 0;
}

template <class T>
H5::DataSet matrix_or_column(H5::Group& group, const std::string& name, int rank, hsize_t rows, hsize_t width, T fill,
                             ChunkCache cache = ChunkCache::Kept) {
  H5::DSetCreatPropList list = chunked(rank, rows, width);
  list.setFillValue(type_of<T>(), &fill);
  H5::DSetAccPropList access;
  if (cache == ChunkCache::Skipped) access.setChunkCache(H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, H5D_CHUNK_CACHE_W0_DEFAULT);
  return group.createDataSet(name, type_of<T>(), space(rank, rows, width), list, access);
}

template <class T>
H5::DataSet column(H5::Group& group, const std::string& name, hsize_t rows, T fill, ChunkCache cache) {
  return matrix_or_column(group, name, 1, rows, 1, fill, cache);
}

template <class T>
H5::DataSet matrix(H5::Group& group, const std::string& name, hsize_t rows, hsize_t width, T fill) {
  return matrix_or_column(group, name, 2, rows, width, fill);
}

template <class T>
void write_rows(H5::DataSet& set, hsize_t first, const T* values, std::size_t size, hsize_t width) {
  if (size == 0) return;
  hsize_t rows = 0, have = 1;
  const int rank = shape(set, rows, have);
  const hsize_t count = size / width;
  if (width > have || first + count > rows) {
    const hsize_t dims[2] = {std::max(rows, first + count), std::max(width, have)};
    set.extend(dims);
  }
  write_block(set, first, count, rank == 2 ? width : 1, values, type_of<T>());
}

template <class T>
void append_rows(H5::DataSet& set, const std::vector<T>& values, hsize_t width) {
  hsize_t rows = 0, have = 1;
  shape(set, rows, have);
  write_rows(set, rows, values, width);
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temporary_(path_ + ".partial") {
  // Created here, afresh and never through a link, so HDF5 (which opens by name) writes into a file
  // vibro made; a leftover .partial of a killed run is removed first.
  if (path_kind(temporary_) == PathKind::Regular) ::unlink(temporary_.c_str());
  struct stat made {};
  const int fd = open_regular(temporary_, O_WRONLY | O_CREAT | O_EXCL, 0644, "output");
  ::fstat(fd, &made);
  ::close(fd);
  device_ = made.st_dev;
  inode_ = made.st_ino;
}

AtomicFile::~AtomicFile() {
  if (!committed_) std::remove(temporary_.c_str());
}

void AtomicFile::commit() {
  struct stat now {};
  if (::lstat(temporary_.c_str(), &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != device_ || now.st_ino != inode_)
    throw std::runtime_error("'" + temporary_ + "' was replaced while vibro wrote it; " + path_ + " not written");
  const PathKind target = path_kind(path_);
  if (target != PathKind::Missing && target != PathKind::Regular) {
    committed_ = true;  // left for the user, as the message says
    throw InputError("'" + path_ + "' is now " + describe_path_kind(path_) + "; the output is left in " + temporary_);
  }
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error("cannot rename " + temporary_ + " to " + path_ + ": " + std::strerror(errno));
  committed_ = true;
}

void write_atomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  AtomicFile file(path);
  try {
    H5::Exception::dontPrint();
    write(file.temporary());
  } catch (const H5::Exception& e) {
    throw std::runtime_error("cannot write " + path + ": " + e.getDetailMsg());
  }
  file.commit();
}

template <class T>
std::vector<T> read_rows(const H5::DataSet& set, hsize_t first, hsize_t count) {
  std::vector<T> values(count);
  if (count == 0) return values;
  H5::DataSpace file = set.getSpace();
  file.selectHyperslab(H5S_SELECT_SET, &count, &first);
  const H5::DataSpace memory(1, &count);
  set.read(values.data(), type_of<T>(), memory, file);
  return values;
}

H5::DataSet create_strings(H5::Group& group, const std::string& name, hsize_t rows, std::size_t width) {
  const H5::StrType type(H5::PredType::C_S1, std::max<std::size_t>(width, 1));
  H5::DSetCreatPropList list = chunked(1, rows, 1);
  list.setDeflate(1);  // mostly padding: it compresses well
  return group.createDataSet(name, type, space(1, rows, 1), list);
}

void write_strings(H5::DataSet& set, hsize_t first, const std::vector<std::string>& values) {
  const std::size_t width = set.getStrType().getSize();
  std::vector<char> padded(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    std::memcpy(padded.data() + i * width, values[i].data(), std::min(width, values[i].size()));
  write_padded_strings(set, first, padded);
}

void write_padded_strings(H5::DataSet& set, hsize_t first, const std::vector<char>& padded) {
  const H5::StrType type = set.getStrType();
  write_block(set, first, padded.size() / type.getSize(), 1, padded.data(), type);
}

#define VIBRO_H5_COLUMN(T)                                                                              \
  template H5::DataSet column<T>(H5::Group&, const std::string&, hsize_t, T, ChunkCache);             \
  template H5::DataSet matrix<T>(H5::Group&, const std::string&, hsize_t, hsize_t, T);                \
  template void write_rows<T>(H5::DataSet&, hsize_t, const T*, std::size_t, hsize_t);                  \
  template void append_rows<T>(H5::DataSet&, const std::vector<T>&, hsize_t);                           \
  template std::vector<T> read_rows<T>(const H5::DataSet&, hsize_t, hsize_t);
VIBRO_H5_COLUMN(double)
VIBRO_H5_COLUMN(std::int64_t)
VIBRO_H5_COLUMN(std::int32_t)
VIBRO_H5_COLUMN(std::int8_t)
#undef VIBRO_H5_COLUMN

}  // namespace vibro::h5
