#include "jobs/output/grid_view.hpp"

#include <hdf5_hl.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/legend_writer.hpp"

namespace vibro {

namespace {

std::string text_attribute(const H5::H5Object& where, const std::string& name) {
  if (!where.attrExists(name)) return "";
  const H5::Attribute a = where.openAttribute(name);
  if (a.getTypeClass() != H5T_STRING) return "";
  std::string value;
  a.read(a.getStrType(), value);
  return value.c_str();  // fixed-length: up to the terminating null
}

// Every attribute of `from` (fixed-size values: what vibro writes) onto `to`.
void copy_attributes(const H5::H5Object& from, H5::H5Object& to) {
  for (int i = 0; i < from.getNumAttrs(); ++i) {
    const H5::Attribute a = from.openAttribute(static_cast<unsigned>(i));
    const H5::DataType type = a.getDataType();
    const H5::DataSpace space = a.getSpace();
    std::vector<char> bytes(type.getSize() * static_cast<std::size_t>(std::max<hssize_t>(space.getSimpleExtentNpoints(), 1)));
    a.read(type, bytes.data());
    to.createAttribute(a.getName(), type, space).write(type, bytes.data());
  }
}

// CF's names beside vibro's: `units` from `unit`, `long_name` from `description` (else `meaning`).
void add_cf_names(H5::H5Object& where) {
  const std::string unit = text_attribute(where, "unit");
  if (!unit.empty() && !where.attrExists("units")) h5::attribute(where, "units", unit);
  std::string name = text_attribute(where, "description");
  if (name.empty()) name = text_attribute(where, "meaning");
  if (!name.empty()) h5::attribute(where, "long_name", name);
}

// CF flags from a `meaning` that lists codes, "0 ok, 1 infeasible, 2 failed, 3 not run": each item an
// integer and a name of at most three words (a longer meaning is a sentence, left to long_name).
void add_flags(H5::DataSet& view) {
  if (view.getTypeClass() != H5T_INTEGER || view.attrExists("flag_values")) return;
  const std::string meaning = text_attribute(view, "meaning");
  std::vector<long long> values;
  std::string words;
  std::size_t start = 0;
  while (start <= meaning.size()) {
    const std::size_t comma = std::min(meaning.find(',', start), meaning.size());
    std::string item = meaning.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(' '));
    std::size_t digits = 0;
    if (!item.empty() && item[0] == '-') ++digits;
    while (digits < item.size() && std::isdigit(static_cast<unsigned char>(item[digits]))) ++digits;
    const std::string name = digits < item.size() && item[digits] == ' ' ? item.substr(digits + 1) : "";
    if (name.empty() || std::count(name.begin(), name.end(), ' ') > 2) return;
    values.push_back(std::stoll(item.substr(0, digits)));
    words += (words.empty() ? "" : " ") + flag_word(name);
    start = comma + 1;
  }
  const hsize_t count = values.size();
  const H5::DataType type = view.getDataType();  // CF: flag_values of the variable's own type
  view.createAttribute("flag_values", type, H5::DataSpace(1, &count)).write(H5::PredType::NATIVE_LLONG, values.data());
  h5::attribute(view, "flag_meanings", words);
}

// The axis' values again, at the root, as the dimension scale of the grid's views.
H5::DataSet write_dimension(H5::Group& root, H5::DataSet& axis, const std::string& name) {
  const hsize_t n = static_cast<hsize_t>(axis.getSpace().getSimpleExtentNpoints());
  std::vector<double> values(n);
  axis.read(values.data(), H5::PredType::NATIVE_DOUBLE);
  H5::DSetCreatPropList list;
  const hsize_t chunk = std::max<hsize_t>(std::min<hsize_t>(n, 1 << 16), 1);
  list.setChunk(1, &chunk);
  list.setFletcher32();
  H5::DataSet scale = root.createDataSet(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(1, &n), list);  // fixed size: not UNLIMITED in netCDF
  if (n > 0) scale.write(values.data(), H5::PredType::NATIVE_DOUBLE);
  copy_attributes(axis, scale);
  add_cf_names(scale);
  H5DSset_scale(scale.getId(), name.c_str());
  return scale;
}

struct GridView {
  H5::Group root;
  std::vector<hsize_t> shape;
  hsize_t cases;
  std::vector<H5::DataSet> scales;

  // `column` (N,) as a virtual dataset NAME shaped like the grid: case i is the grid point that
  // np.unravel_index(i, shape) names, which is how HDF5 lays out a selection in C order.
  void view(const H5::DataSet& column, std::string name) {
    if (root.nameExists(name)) name = "cases_" + name;  // e.g. an observable named as an axis
    const H5::DataType type = column.getDataType();
    const H5::DataSpace grid(static_cast<int>(shape.size()), shape.data());
    const H5::DataSpace source(1, &cases);
    H5::DSetCreatPropList list;
    std::vector<char> fill(type.getSize());
    const H5::DSetCreatPropList source_list = column.getCreatePlist();
    source_list.getFillValue(type, fill.data());
    list.setFillValue(type, fill.data());
    H5Pset_virtual(list.getId(), grid.getId(), ".", column.getObjName().c_str(), source.getId());
    H5::DataSet set = root.createDataSet(name, type, grid, list);
    copy_attributes(column, set);
    add_cf_names(set);
    add_flags(set);
    for (std::size_t d = 0; d < scales.size(); ++d) H5DSattach_scale(set.getId(), scales[d].getId(), static_cast<unsigned>(d));
  }

  // Every (N,) number column of `group`, named as vibro.open names them: /cases/x -> x,
  // observables/x -> x, counters/x -> counters_x, floquet/max_modulus -> floquet_max_modulus.
  void walk(const H5::Group& group, const std::string& prefix) {
    for (hsize_t i = 0; i < group.getNumObjs(); ++i) {
      const std::string key = group.getObjnameByIdx(i);
      if (group.childObjType(key) == H5O_TYPE_GROUP) {
        if (key != "strobe") walk(group.openGroup(key), key == "observables" && prefix.empty() ? "" : prefix + key + "_");
        continue;
      }
      const H5::DataSet column = group.openDataSet(key);
      const H5::DataSpace space = column.getSpace();
      hsize_t rows = 0;
      if (column.getTypeClass() == H5T_STRING || space.getSimpleExtentNdims() != 1) continue;  // strings, tables
      space.getSimpleExtentDims(&rows);
      if (rows == cases) view(column, prefix + key);
    }
  }
};

}  // namespace

void write_grid_view(H5::H5File& file, const SweepSpec& spec) {
  if (spec.axes.empty()) return;
  GridView grid{file.openGroup("/"), {}, static_cast<hsize_t>(spec.case_count()), {}};
  H5::Group axes = file.openGroup("/axes");
  for (const auto& axis : spec.axes) {
    H5::DataSet values = axes.openDataSet(axis.name);
    grid.scales.push_back(write_dimension(grid.root, values, axis.name));
    grid.shape.push_back(static_cast<hsize_t>(axis.values.size()));
  }
  grid.walk(file.openGroup("/cases"), "");
  h5::attribute(grid.root, "Conventions", std::string("CF-1.8"));
}

}  // namespace vibro
