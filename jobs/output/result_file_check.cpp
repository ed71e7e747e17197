#include "jobs/output/result_file_check.hpp"

#include <H5Cpp.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "engine/core/input_error.hpp"
#include "jobs/output/curve_file_writer.hpp"
#include "jobs/output/safe_path.hpp"
#include "jobs/output/sweep_file_writer.hpp"

namespace vibro {

namespace {

constexpr int kOldestReadableSchema = 2;  // variable-length strings, no checksums: still read

// A failed check: the message says what, the caller adds the file.
struct Malformed {
  std::string what;
};

std::vector<hsize_t> dims_of(const H5::DataSet& set) {
  const H5::DataSpace space = set.getSpace();
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(space.getSimpleExtentNdims(), 0)));
  if (!dims.empty()) space.getSimpleExtentDims(dims.data());
  return dims;
}

// The dataset at `name` with rank `rank` (and `rows` rows unless negative); returns its dims.
std::vector<hsize_t> require(H5::H5File& file, const std::string& name, int rank, long long rows) {
  if (!file.nameExists(name)) throw Malformed{"no dataset " + name};
  const std::vector<hsize_t> dims = dims_of(file.openDataSet(name));
  if (static_cast<int>(dims.size()) != rank || (rows >= 0 && dims[0] != static_cast<hsize_t>(rows)))
    throw Malformed{"dataset " + name + " has the wrong shape (expected " + std::to_string(rank) + "-D with " +
                    (rows >= 0 ? std::to_string(rows) : std::string("any number of")) + " rows)"};
  return dims;
}

// Every dataset of a group, directly in it, with `rows` rows.
void require_columns(H5::H5File& file, const std::string& group, long long rows) {
  if (!file.nameExists(group)) throw Malformed{"no group " + group};
  const H5::Group g = file.openGroup(group);
  for (hsize_t i = 0; i < g.getNumObjs(); ++i) require(file, group + "/" + g.getObjnameByIdx(i), 1, rows);
}

// /basins: point columns of one length, attractor rows of one length (offsets one more than points),
// events of one length.
void check_basins(H5::H5File& file) {
  const auto points = static_cast<long long>(require(file, "/basins/cases_run", 1, -1)[0]);
  for (const char* column : {"cases_settled", "attractor_count", "basin_entropy", "boundary_basin_entropy", "entropy_boxes",
                             "boundary_boxes"})
    require(file, std::string("/basins/") + column, 1, points);
  require(file, "/basins/attractors/offsets", 1, points + 1);
  const auto rows = static_cast<long long>(require(file, "/basins/attractors/label", 1, -1)[0]);
  for (const char* column : {"global_id", "class", "period", "cases", "fraction", "fraction_error", "basin_stability"})
    require(file, std::string("/basins/attractors/") + column, 1, rows);
  if (file.nameExists("/basins/events")) require_columns(file, "/basins/events", static_cast<long long>(require(file, "/basins/events/kind", 1, -1)[0]));
}

void check_sweep(H5::H5File& file) {
  if (!file.nameExists("/parameters")) throw Malformed{"no group /parameters"};
  if (!file.nameExists("/axes")) throw Malformed{"no group /axes"};
  const H5::Group axes = file.openGroup("/axes");
  std::string order;
  const H5::Attribute attribute = axes.openAttribute("order");
  attribute.read(attribute.getStrType(), order);
  long long n = 1;
  for (std::size_t from = 0; from < order.size();) {
    const std::size_t comma = std::min(order.find(',', from), order.size());
    const std::string name = order.substr(from, comma - from);
    if (!name.empty()) n *= static_cast<long long>(require(file, "/axes/" + name, 1, -1)[0]);
    from = comma + 1;
  }
  for (const char* column : {"status", "reason", "class", "periodicity", "period", "periods_run", "window_periods", "jumps",
                             "stopped_early", "wall_seconds"})
    require(file, std::string("/cases/") + column, 1, n);
  require_columns(file, "/cases/observables", n);
  require_columns(file, "/cases/counters", n);
  require_columns(file, "/cases/window_counters", n);
  if (file.nameExists("/cases/attractor")) require(file, "/cases/attractor", 1, n);
  if (file.nameExists("/cases/global_attractor")) require(file, "/cases/global_attractor", 1, n);
  if (file.nameExists("/basins")) check_basins(file);
  if (file.nameExists("/cases/strobe")) {
    require(file, "/cases/strobe/offsets", 1, n + 1);
    const auto points = static_cast<long long>(require(file, "/cases/strobe/values", 2, -1)[0]);
    require(file, "/cases/strobe/drift_position", 1, points);
    require(file, "/cases/strobe/mode", 1, points);
  }
}

// A trace file (vibro trace): the grid and one column per component, the events, the samples.
void check_trace(H5::H5File& file) {
  const auto n = static_cast<long long>(require(file, "/trace/time", 1, -1)[0]);
  require(file, "/trace/mode", 1, n);
  const auto m = static_cast<long long>(require(file, "/events/time", 1, -1)[0]);
  require(file, "/events/kind", 1, m);
  require(file, "/events/before", 2, m);
  require(file, "/events/after", 2, m);
  const auto k = static_cast<long long>(require(file, "/strobe/time", 1, -1)[0]);
  require(file, "/strobe/state", 2, k);
}

void check_branch(H5::H5File& file) {
  const auto n = static_cast<long long>(require(file, "/branch/parameter", 1, -1)[0]);
  require(file, "/branch/state", 2, n);
  require(file, "/branch/multipliers_real", 2, n);
  require(file, "/branch/multipliers_imag", 2, n);
  for (const char* column : {"max_modulus", "stable", "impacts", "iterations", "residual"})
    require(file, std::string("/branch/") + column, 1, n);
  const auto m = static_cast<long long>(require(file, "/events/kind", 1, -1)[0]);
  for (const char* column : {"parameter", "detail", "multiplier_real", "multiplier_imag"})
    require(file, std::string("/events/") + column, 1, m);
}

void check_curve(H5::H5File& file) {
  const auto n = static_cast<long long>(require(file, "/curve/parameter_1", 1, -1)[0]);
  require(file, "/curve/parameter_2", 1, n);
  require(file, "/curve/state", 2, n);
  require(file, "/curve/multipliers_real", 2, n);
  require(file, "/curve/multipliers_imag", 2, n);
  require(file, "/curve/impacts", 1, n);
}

// Reads a dataset in blocks of rows (memory stays bounded): each chunk's checksum is verified.
void read_all(const H5::DataSet& set) {
  std::vector<hsize_t> dims = dims_of(set);
  if (dims.empty() && set.getSpace().getSimpleExtentType() == H5S_SCALAR) {  // a /parameters value (schema 4)
    std::vector<char> buffer(set.getInMemDataSize() + 16);
    set.read(buffer.data(), set.getDataType());
    return;
  }
  if (dims.empty() || dims.size() > 2) throw Malformed{"a dataset of rank " + std::to_string(dims.size())};
  const H5::DataType type = set.getDataType();
  const bool variable = type.getClass() == H5T_STRING && set.getStrType().isVariableStr();
  const H5::DataType memory = variable ? H5::DataType(set.getStrType()) : type;
  const hsize_t width = dims.size() == 2 ? dims[1] : 1;
  const std::size_t size = variable ? sizeof(char*) : memory.getSize();
  const hsize_t block = std::max<hsize_t>(1, (1u << 22) / std::max<std::size_t>(size * width, 1));
  std::vector<char> buffer;
  for (hsize_t first = 0; first < dims[0] && width > 0; first += block) {
    const hsize_t count[2] = {std::min(block, dims[0] - first), width}, start[2] = {first, 0};
    H5::DataSpace file_space = set.getSpace();
    file_space.selectHyperslab(H5S_SELECT_SET, count, start);
    const H5::DataSpace memory_space(static_cast<int>(dims.size()), count);
    buffer.assign(count[0] * width * size, 0);
    set.read(buffer.data(), memory, memory_space, file_space);
    if (variable) H5Dvlen_reclaim(memory.getId(), memory_space.getId(), H5P_DEFAULT, buffer.data());
  }
}

void read_attributes(const H5::H5Object& object) {
  for (int i = 0; i < object.getNumAttrs(); ++i) {
    const H5::Attribute attribute = object.openAttribute(static_cast<unsigned>(i));
    const H5::DataType type = attribute.getDataType();
    if (type.getClass() == H5T_STRING) {
      std::string text;
      attribute.read(attribute.getStrType(), text);
    } else {
      std::vector<char> buffer(attribute.getInMemDataSize() + 16);
      attribute.read(type, buffer.data());
    }
  }
}

// Every object below `group`: its attributes, and every dataset read in full. Not the datasets
// directly in the root group: a sweep file's grid view (schema 6), which vibro's readers never use.
// Its dimension lists and virtual-dataset mappings lie in HDF5's global heap, which has no checksum,
// and HDF5 1.10 reads a damaged heap object past its end (a segmentation fault, not an error).
void read_everything(const H5::Group& group, bool root = true) {
  read_attributes(group);
  for (hsize_t i = 0; i < group.getNumObjs(); ++i) {
    const std::string name = group.getObjnameByIdx(i);
    switch (group.childObjType(name)) {
      case H5O_TYPE_GROUP:
        read_everything(group.openGroup(name), false);
        break;
      case H5O_TYPE_DATASET: {
        if (root) break;  // the grid view
        const H5::DataSet set = group.openDataSet(name);
        read_attributes(set);
        read_all(set);
        break;
      }
      default:
        throw Malformed{"an object of unexpected type at " + name};
    }
  }
}

}  // namespace

std::string check_result_file(const std::string& path) {
  const PathKind kind = path_kind(path);
  if (kind == PathKind::Missing) throw InputError("cannot read '" + path + "': no such file");
  if (!std::filesystem::is_regular_file(path)) throw InputError("cannot read '" + path + "': not a regular file");
  H5::Exception::dontPrint();
  std::string format;
  try {
    H5::H5File file(path, H5F_ACC_RDONLY);
    const H5::Group root = file.openGroup("/");
    if (!root.attrExists("format")) throw Malformed{"no root attribute 'format'"};
    const H5::Attribute attribute = root.openAttribute("format");
    attribute.read(attribute.getStrType(), format);
    if (format != "vibro-sweep" && format != "vibro-branch" && format != "vibro-curve" && format != "vibro-trace")
      throw Malformed{"format = '" + format + "' (expected vibro-sweep, vibro-branch, vibro-curve or vibro-trace)"};
    if (!root.attrExists("schema_version")) throw Malformed{"no root attribute 'schema_version'"};
    const H5::Attribute version_attribute = root.openAttribute("schema_version");
    if (version_attribute.getDataType().getClass() != H5T_INTEGER) throw Malformed{"schema_version is not an integer"};
    long long version = 0;
    version_attribute.read(H5::PredType::NATIVE_LLONG, &version);
    // Curve files count their own versions (jobs/output/curve_file_writer.hpp); the others share the sweep's.
    const bool curve = format == "vibro-curve";
    const long long oldest = curve ? 1 : kOldestReadableSchema, newest = curve ? kCurveSchemaVersion : kSchemaVersion;
    if (version < oldest || version > newest)
      throw Malformed{"schema_version " + std::to_string(version) + " is not one this vibro reads (" +
                      std::to_string(oldest) + " to " + std::to_string(newest) + ")"};
    if (format == "vibro-sweep") check_sweep(file);
    else if (format == "vibro-trace") check_trace(file);
    else if (format == "vibro-curve") check_curve(file);
    else check_branch(file);
    read_everything(root);
  } catch (const Malformed& m) {
    throw InputError("'" + path + "' is not a readable vibro file: " + m.what);
  } catch (const H5::Exception& e) {
    throw InputError("'" + path + "' is not a vibro sweep, branch, curve or trace file (HDF5 with format = "
                     "vibro-sweep, vibro-branch, vibro-curve or vibro-trace), or it is damaged: " + e.getFuncName() + ": " + e.getDetailMsg());
  }
  return format;
}

}  // namespace vibro
