#include "jobs/output/branch_file_writer.hpp"

#include <H5Cpp.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_file_writer.hpp"

namespace vibro {

namespace {

using h5::attribute;

void write_file(const std::string& path, const SweepSpec& spec, const std::string& parameter, double from, double to,
                int periods, const Branch& branch) {
  H5::H5File file = h5::create_file(path);
  H5::Group root = file.openGroup("/");
  write_origin(root, spec, "vibro-branch");
  attribute(root, "created_utc", utc_now());
  // Where the sweep file lay (absolute): its plugins and model files are found from there when the
  // branch is switched from this file (vibro continue BRANCH.h5 --switch ...).
  attribute(root, "sweep_path", std::filesystem::absolute(spec.source_name).lexically_normal().string());
  attribute(root, "parameter", parameter);
  attribute(root, "from", from);
  attribute(root, "to", to);
  attribute(root, "periods", static_cast<long long>(periods));
  attribute(root, "end", branch.end);
  attribute(root, "method", branch.method);
  write_fixed_parameters(file, spec);

  const auto n = static_cast<hsize_t>(branch.points.size());
  const auto layout = spec.model->start(spec.base)->layout();
  const std::size_t dims = layout.state_names.size();
  std::vector<double> values, state, real, imag, modulus, residual, uncertainty, least_force;
  std::vector<std::int8_t> stable, admissible, symmetric;
  std::vector<std::int64_t> impacts;
  std::vector<std::int32_t> iterations;
  std::size_t width = 0;
  for (const auto& p : branch.points) width = std::max(width, p.orbit.multipliers.size());
  for (const auto& p : branch.points) {
    values.push_back(p.parameter);
    state.insert(state.end(), p.orbit.state.state.begin(), p.orbit.state.state.begin() + static_cast<long>(dims));
    double largest = 0;
    for (std::size_t k = 0; k < width; ++k) {
      const bool has = k < p.orbit.multipliers.size();
      real.push_back(has ? p.orbit.multipliers[k].real() : std::nan(""));
      imag.push_back(has ? p.orbit.multipliers[k].imag() : std::nan(""));
      if (has) largest = std::max(largest, std::abs(p.orbit.multipliers[k]));
    }
    modulus.push_back(largest);
    stable.push_back(p.orbit.stable() ? 1 : 0);
    impacts.push_back(p.orbit.events);
    iterations.push_back(p.orbit.iterations);
    residual.push_back(p.orbit.residual);
    uncertainty.push_back(p.orbit.uncertainty);
    symmetric.push_back(p.orbit.symmetric ? 1 : 0);
    least_force.push_back(p.admissibility.min_contact_force);
    admissible.push_back(!p.admissibility.measured ? -1 : p.admissibility.admissible ? 1 : 0);
  }
  H5::Group points = h5::create_group(file, "/branch");
  auto set = h5::column<double>(points, "parameter", n, 0.0);
  h5::write_rows(set, 0, values);
  attribute(set, "name", parameter);
  set = h5::matrix<double>(points, "state", n, dims, 0.0);
  h5::write_rows(set, 0, state, dims);
  std::string columns, units;  // the units as the sweep file's strobe table gives them (plots label the axes)
  for (std::size_t d = 0; d < dims; ++d) {
    columns += (d ? "," : "") + layout.state_names[d];
    units += (d ? "," : "") + (d < layout.state_units.size() ? layout.state_units[d] : std::string("?"));
  }
  attribute(set, "columns", columns);
  attribute(set, "units", units);
  set = h5::matrix<double>(points, "multipliers_real", n, width, 0.0);
  h5::write_rows(set, 0, real, width);
  set = h5::matrix<double>(points, "multipliers_imag", n, width, 0.0);
  h5::write_rows(set, 0, imag, width);
  set = h5::column<double>(points, "max_modulus", n, 0.0);
  h5::write_rows(set, 0, modulus);
  set = h5::column<std::int8_t>(points, "stable", n, 0);
  h5::write_rows(set, 0, stable);
  set = h5::column<std::int64_t>(points, "impacts", n, 0);
  h5::write_rows(set, 0, impacts);
  attribute(set, "meaning", std::string("impacts along the orbit's period"));
  set = h5::column<std::int32_t>(points, "iterations", n, 0);
  h5::write_rows(set, 0, iterations);
  set = h5::column<double>(points, "residual", n, 0.0);
  h5::write_rows(set, 0, residual);
  set = h5::column<double>(points, "uncertainty", n, 0.0);
  h5::write_rows(set, 0, uncertainty);
  attribute(set, "meaning", std::string("how far the orbit may lie from its state (layout scales): the accepted residual "
                                        "over the smallest singular value of the system solved; beyond 1e-6 its impacts and "
                                        "mode changes are not to be trusted; 0: not estimated"));
  set = h5::column<std::int8_t>(points, "symmetric", n, 0);
  h5::write_rows(set, 0, symmetric);
  attribute(set, "meaning", std::string("1: solved as a symmetric orbit, a fixed point of the mirrored half-period map "
                                        "(the model's half-period symmetry; residual and uncertainty are that map's); "
                                        "0: of the full-period map"));
  set = h5::column<std::int8_t>(points, "admissible", n, -1);
  h5::write_rows(set, 0, admissible);
  attribute(set, "meaning", std::string("1: the orbit's contact forces are physical, 0: the contact pulls (tensile), "
                                        "-1: the model does not check them"));
  set = h5::column<double>(points, "min_contact_force", n, std::nan(""));
  h5::write_rows(set, 0, least_force);
  attribute(set, "unit", std::string("N"));
  attribute(set, "meaning", std::string("smallest force a compliant contact transmits along the orbit (< 0: tensile); "
                                        "NaN: no compliant contact phase"));

  H5::Group events = h5::create_group(file, "/events");
  const auto m = static_cast<hsize_t>(branch.events.size());
  std::vector<std::string> kinds, details;
  std::vector<double> where, mu_real, mu_imag;
  for (const auto& e : branch.events) {
    kinds.push_back(e.kind);
    details.push_back(e.detail);
    where.push_back(e.parameter);
    mu_real.push_back(e.multiplier.real());
    mu_imag.push_back(e.multiplier.imag());
  }
  const auto widest = [](const std::vector<std::string>& texts) {
    std::size_t widest_text = 1;
    for (const auto& t : texts) widest_text = std::max(widest_text, t.size());
    return widest_text;
  };
  auto kind = h5::create_strings(events, "kind", m, widest(kinds));
  h5::write_strings(kind, 0, kinds);
  set = h5::column<double>(events, "parameter", m, 0.0);
  h5::write_rows(set, 0, where);
  auto detail = h5::create_strings(events, "detail", m, widest(details));
  h5::write_strings(detail, 0, details);
  set = h5::column<double>(events, "multiplier_real", m, 0.0);
  h5::write_rows(set, 0, mu_real);
  attribute(set, "meaning", std::string("the multiplier that crosses the unit circle, at the event (NaN for a grazing)"));
  set = h5::column<double>(events, "multiplier_imag", m, 0.0);
  h5::write_rows(set, 0, mu_imag);

  // The orbit at each event: its state on the section and all its multipliers (NaN where none was
  // found at the located parameter value).
  // As wide as /branch/multipliers_*: readers share the multiplier dimension between the two.
  std::size_t event_width = std::max<std::size_t>(width, 1);
  for (const auto& e : branch.events) event_width = std::max(event_width, e.orbit.multipliers.size());
  std::vector<double> event_state, all_real, all_imag;
  std::vector<std::int32_t> event_mode;
  for (const auto& e : branch.events) {
    const bool found = e.orbit.converged && e.orbit.state.state.size() >= dims;
    event_mode.push_back(found ? e.orbit.state.mode : -1);
    for (std::size_t d = 0; d < dims; ++d) event_state.push_back(found ? e.orbit.state.state[d] : std::nan(""));
    for (std::size_t k = 0; k < event_width; ++k) {
      const bool has = found && k < e.orbit.multipliers.size();
      all_real.push_back(has ? e.orbit.multipliers[k].real() : std::nan(""));
      all_imag.push_back(has ? e.orbit.multipliers[k].imag() : std::nan(""));
    }
  }
  set = h5::matrix<double>(events, "state", m, dims, 0.0);
  h5::write_rows(set, 0, event_state, dims);
  attribute(set, "columns", columns);
  attribute(set, "meaning", std::string("the orbit at the event on the section t = k T (at a grazing: the orbit with "
                                        "fewer impacts, which touches the surface there)"));
  set = h5::column<std::int32_t>(events, "mode", m, -1);
  h5::write_rows(set, 0, event_mode);
  attribute(set, "meaning", std::string("the model's mode at that state (as /legend/modes of sweep files; -1 where no "
                                        "orbit was found): with the state, where a branch switch starts"));
  set = h5::matrix<double>(events, "multipliers_real", m, event_width, 0.0);
  h5::write_rows(set, 0, all_real, event_width);
  set = h5::matrix<double>(events, "multipliers_imag", m, event_width, 0.0);
  h5::write_rows(set, 0, all_imag, event_width);
}

}  // namespace

void write_branch_file(const std::string& path, const SweepSpec& spec, const std::string& parameter, double from,
                       double to, int periods, const Branch& branch) {
  h5::write_atomically(path, [&](const std::string& temporary) {
    write_file(temporary, spec, parameter, from, to, periods, branch);
  });
}

}  // namespace vibro
