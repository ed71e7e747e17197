#include "jobs/output/branch_file_reader.hpp"

#include <H5Cpp.h>

#include <cmath>
#include <cstdio>

#include "engine/core/input_error.hpp"
#include "jobs/output/result_file_check.hpp"

namespace vibro {

namespace {

constexpr const char* kOverridesMark = "\n# command-line overrides:\n";

std::string text_attribute(const H5::Group& root, const std::string& name) {
  std::string text;
  if (!root.attrExists(name)) return text;
  const H5::Attribute attribute = root.openAttribute(name);
  attribute.read(attribute.getStrType(), text);
  return text;
}

double number_attribute(const H5::Group& root, const std::string& name) {
  double value = std::nan("");
  if (root.attrExists(name)) root.openAttribute(name).read(H5::PredType::NATIVE_DOUBLE, &value);
  return value;
}

std::vector<hsize_t> dims_of(const H5::DataSet& set) {
  const H5::DataSpace space = set.getSpace();
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(space.getSimpleExtentNdims(), 0)));
  if (!dims.empty()) space.getSimpleExtentDims(dims.data());
  return dims;
}

// A numeric dataset as doubles, row-major, with its dims.
std::vector<double> doubles(H5::H5File& file, const std::string& name, std::vector<hsize_t>& dims) {
  const H5::DataSet set = file.openDataSet(name);
  dims = dims_of(set);
  hsize_t size = 1;
  for (const hsize_t d : dims) size *= d;
  std::vector<double> values(size);
  if (size > 0) set.read(values.data(), H5::PredType::NATIVE_DOUBLE);
  return values;
}

// A column of strings, fixed-length (schema 3 on) or variable-length.
std::vector<std::string> strings(H5::H5File& file, const std::string& name) {
  const H5::DataSet set = file.openDataSet(name);
  const hsize_t rows = dims_of(set).at(0);
  const H5::StrType type = set.getStrType();
  std::vector<std::string> out;
  if (rows == 0) return out;
  if (type.isVariableStr()) {
    std::vector<char*> pointers(rows, nullptr);
    set.read(pointers.data(), type);
    for (char* p : pointers) out.emplace_back(p ? p : "");
    H5Dvlen_reclaim(type.getId(), set.getSpace().getId(), H5P_DEFAULT, pointers.data());
    return out;
  }
  const std::size_t width = type.getSize();
  std::vector<char> buffer(rows * width);
  set.read(buffer.data(), type);
  for (hsize_t i = 0; i < rows; ++i) {
    std::string s(buffer.data() + i * width, width);
    s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
    out.push_back(s);
  }
  return out;
}

}  // namespace

std::pair<std::string, std::vector<std::string>> split_recorded_overrides(const std::string& sweep_text) {
  const std::size_t mark = sweep_text.rfind(kOverridesMark);
  if (mark == std::string::npos) return {sweep_text, {}};
  std::vector<std::string> overrides;
  std::size_t at = mark + std::string(kOverridesMark).size();
  while (at < sweep_text.size()) {
    const std::size_t end = std::min(sweep_text.find('\n', at), sweep_text.size());
    const std::string line = sweep_text.substr(at, end - at);
    if (line.rfind("# ", 0) == 0) overrides.push_back(line.substr(2));
    at = end + 1;
  }
  return {sweep_text.substr(0, mark), overrides};
}

StoredBranch read_branch_file(const std::string& path) {
  std::string format;
  try {
    format = check_result_file(path);  // refuses foreign and damaged files, naming them
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + "; vibro continue reads a sweep file (INI) or a branch file (format "
                     "vibro-branch, written by vibro continue)");
  }
  if (format != "vibro-branch")
    throw InputError("'" + path + "' is a " + format + " file; vibro continue reads a sweep file (INI) or a branch file "
                     "(format vibro-branch, written by vibro continue) to switch branches from");
  StoredBranch stored;
  stored.path = path;
  const auto refuse = [&](const std::string& what) {
    throw InputError("'" + path + "' cannot be switched from: it " + what + " (written by an older vibro); rerun vibro "
                     "continue on its sweep file with --switch");
  };
  try {
    H5::H5File file(path, H5F_ACC_RDONLY);
    const H5::Group root = file.openGroup("/");
    stored.model = text_attribute(root, "model");
    stored.sweep_name = text_attribute(root, "sweep_file");
    stored.sweep_path = text_attribute(root, "sweep_path");
    stored.sweep_text = text_attribute(root, "sweep_text");
    stored.parameter = text_attribute(root, "parameter");
    stored.from = number_attribute(root, "from");
    stored.to = number_attribute(root, "to");
    long long periods = 0;
    if (root.attrExists("periods")) root.openAttribute("periods").read(H5::PredType::NATIVE_LLONG, &periods);
    stored.periods = static_cast<int>(periods);
    if (stored.sweep_text.empty() || stored.parameter.empty() || stored.periods < 1 || !std::isfinite(stored.to))
      refuse("lacks the sweep text, parameter, range or period of its branch");
    if (!file.nameExists("/events/state")) refuse("lacks the orbits at its events (/events/state)");
    if (file.nameExists("/parameters")) {
      const H5::Group group = file.openGroup("/parameters");
      for (hsize_t i = 0; i < group.getNumObjs(); ++i) {
        const std::string name = group.getObjnameByIdx(i);
        if (group.childObjType(name) != H5O_TYPE_DATASET) continue;
        const H5::DataSet set = group.openDataSet(name);
        if (set.getDataType().getClass() == H5T_STRING) {
          std::string text;
          set.read(text, set.getStrType());
          stored.parameters.emplace_back(name, text.c_str());
        } else {
          double value = 0;
          set.read(&value, H5::PredType::NATIVE_DOUBLE);
          char buffer[40];
          std::snprintf(buffer, sizeof buffer, "%.17g", value);
          stored.parameters.emplace_back(name, buffer);
        }
      }
    }
    const std::vector<std::string> kinds = strings(file, "/events/kind"), details = strings(file, "/events/detail");
    std::vector<hsize_t> dims, state_dims, mu_dims;
    const std::vector<double> where = doubles(file, "/events/parameter", dims);
    const std::vector<double> mu_real = doubles(file, "/events/multiplier_real", dims);
    const std::vector<double> mu_imag = doubles(file, "/events/multiplier_imag", dims);
    const std::vector<double> state = doubles(file, "/events/state", state_dims);
    std::vector<double> all_real, all_imag;
    if (file.nameExists("/events/multipliers_real")) {
      all_real = doubles(file, "/events/multipliers_real", mu_dims);
      all_imag = doubles(file, "/events/multipliers_imag", mu_dims);
    }
    std::vector<int> modes(kinds.size(), 0);
    stored.has_modes = file.nameExists("/events/mode");
    if (stored.has_modes) {
      const H5::DataSet set = file.openDataSet("/events/mode");
      if (dims_of(set).at(0) != kinds.size()) refuse("has an /events/mode of the wrong length");
      if (!modes.empty()) set.read(modes.data(), H5::PredType::NATIVE_INT);
    }
    const std::size_t m = state_dims.size() == 2 ? state_dims[1] : 0;
    if (state_dims.empty() || state_dims[0] != kinds.size() || m > kMaxStrobeDims)
      refuse("has an /events/state of the wrong shape");
    for (std::size_t e = 0; e < kinds.size(); ++e) {
      BranchEvent event;
      event.kind = kinds[e];
      event.detail = e < details.size() ? details[e] : "";
      event.parameter = where[e];
      event.multiplier = {mu_real[e], mu_imag[e]};
      PeriodicOrbit& orbit = event.orbit;
      orbit.periods = stored.periods;
      orbit.converged = m > 0;
      for (std::size_t d = 0; d < m; ++d) {
        orbit.state.state[d] = state[e * m + d];
        if (!std::isfinite(orbit.state.state[d])) orbit.converged = false;
      }
      orbit.state.mode = modes[e];
      if (orbit.state.mode < 0) orbit.converged = false;
      const std::size_t w = mu_dims.size() == 2 ? mu_dims[1] : 0;
      for (std::size_t k = 0; k < w; ++k)
        if (std::isfinite(all_real[e * w + k])) orbit.multipliers.emplace_back(all_real[e * w + k], all_imag[e * w + k]);
      stored.branch.events.push_back(event);
    }
  } catch (const H5::Exception& e) {
    throw InputError("'" + path + "' is not a readable vibro branch file: " + e.getFuncName() + ": " + e.getDetailMsg());
  }
  return stored;
}

}  // namespace vibro
