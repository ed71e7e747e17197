#include "jobs/output/curve_file_writer.hpp"

#include <H5Cpp.h>

#include <cmath>
#include <cstdint>

#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_file_writer.hpp"
#include "vibro/version.hpp"

namespace vibro {

namespace {

using h5::attribute;

void write_file(const std::string& path, const SweepSpec& spec, int periods, const Curve& curve) {
  H5::H5File file = h5::create_file(path);
  H5::Group root = file.openGroup("/");
  attribute(root, "format", std::string("vibro-curve"));
  attribute(root, "schema_version", static_cast<long long>(kCurveSchemaVersion));
  attribute(root, "vibro_version", std::string(kVersion));
  attribute(root, "git_revision", std::string(kGitRevision));
  attribute(root, "model", spec.model->name());
  attribute(root, "sweep_file", spec.source_name);
  attribute(root, "sweep_text", spec.source_text);
  attribute(root, "created_utc", utc_now());
  attribute(root, "kind", curve.kind);
  attribute(root, "parameters", curve.parameter_1 + "," + curve.parameter_2);
  attribute(root, "end", curve.end);
  attribute(root, "periods", static_cast<long long>(periods));
  attribute(root, "meeting_impacts", static_cast<long long>(curve.meeting_impacts));
  attribute(root, "meeting_points", static_cast<long long>(curve.meetings));
  // Where a fold or period-doubling curve ran into a grazing curve (a codimension-two point).
  const bool meets = curve.end_kind == "meets_grazing";
  attribute(root, "end_kind", curve.end_kind.empty() ? std::string("other") : curve.end_kind);
  attribute(root, "meets_grazing_parameter_1", meets ? curve.meets.parameter_1 : std::nan(""));
  attribute(root, "meets_grazing_parameter_2", meets ? curve.meets.parameter_2 : std::nan(""));
  attribute(root, "meets_grazing_distance", meets ? curve.meets_distance : std::nan(""));

  SweepSpec at_start = spec;  // /parameters: the two curve parameters at the curve's first point
  if (!curve.points.empty()) {
    at_start.base.set(curve.parameter_1, curve.points.front().parameter_1);
    at_start.base.set(curve.parameter_2, curve.points.front().parameter_2);
  }
  write_fixed_parameters(file, at_start);

  const auto n = static_cast<hsize_t>(curve.points.size());
  const auto layout = spec.model->start(spec.base)->layout();
  const std::size_t dims = layout.state_names.size();
  std::size_t width = 0;
  for (const auto& p : curve.points) width = std::max(width, p.orbit.multipliers.size());
  std::vector<double> first, second, state, real, imag;
  std::vector<std::int64_t> impacts;
  for (const auto& p : curve.points) {
    first.push_back(p.parameter_1);
    second.push_back(p.parameter_2);
    state.insert(state.end(), p.orbit.state.state.begin(), p.orbit.state.state.begin() + static_cast<long>(dims));
    for (std::size_t k = 0; k < width; ++k) {
      const bool has = k < p.orbit.multipliers.size();
      real.push_back(has ? p.orbit.multipliers[k].real() : std::nan(""));
      imag.push_back(has ? p.orbit.multipliers[k].imag() : std::nan(""));
    }
    impacts.push_back(p.orbit.events);
  }
  const auto& specs = spec.model->parameters();
  H5::Group points = h5::create_group(file, "/curve");
  const auto parameter_column = [&](const char* dataset, const std::string& name, const std::vector<double>& values) {
    auto set = h5::column<double>(points, dataset, n, 0.0);
    h5::write_rows(set, 0, values);
    attribute(set, "name", name);
    attribute(set, "unit", specs[static_cast<std::size_t>(spec.base.index_of(name))].unit);
  };
  parameter_column("parameter_1", curve.parameter_1, first);
  parameter_column("parameter_2", curve.parameter_2, second);
  auto set = h5::matrix<double>(points, "state", n, dims, 0.0);
  h5::write_rows(set, 0, state, dims);
  std::string columns, units;
  for (std::size_t d = 0; d < dims; ++d) {
    columns += (d ? "," : "") + layout.state_names[d];
    units += (d ? "," : "") + (d < layout.state_units.size() ? layout.state_units[d] : std::string("?"));
  }
  attribute(set, "columns", columns);
  attribute(set, "units", units);
  attribute(set, "meaning", std::string("the orbit at the point on the section t = k T (at a grazing: the orbit with "
                                        "fewer impacts, which touches the surface there)"));
  set = h5::matrix<double>(points, "multipliers_real", n, width, 0.0);
  h5::write_rows(set, 0, real, width);
  set = h5::matrix<double>(points, "multipliers_imag", n, width, 0.0);
  h5::write_rows(set, 0, imag, width);
  set = h5::column<std::int64_t>(points, "impacts", n, 0);
  h5::write_rows(set, 0, impacts);
  attribute(set, "meaning", std::string("impacts along the period of the orbit at the point (at a grazing: the orbit "
                                        "with fewer impacts)"));
}

}  // namespace

void write_curve_file(const std::string& path, const SweepSpec& spec, int periods, const Curve& curve) {
  h5::write_atomically(path, [&](const std::string& temporary) { write_file(temporary, spec, periods, curve); });
}

}  // namespace vibro
