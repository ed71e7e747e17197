#include "jobs/output/sweep_file_writer.hpp"

#include <H5Cpp.h>
#include <omp.h>

#include <algorithm>
#include <ctime>
#include <stdexcept>
#include <vector>

#include "jobs/output/case_blocks.hpp"
#include "jobs/output/case_columns.hpp"
#include "jobs/output/grid_view.hpp"
#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/basins_writer.hpp"
#include "jobs/output/sweep_attractors.hpp"
#include "jobs/output/attractor_seeding.hpp"
#include "jobs/output/sweep_continuation.hpp"
#include "jobs/output/unsettled_extension.hpp"
#include "vibro/version.hpp"

namespace vibro {

std::string utc_now() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

void write_origin(H5::Group& root, const SweepSpec& spec, const std::string& format) {
  h5::attribute(root, "format", format);
  h5::attribute(root, "schema_version", static_cast<long long>(kSchemaVersion));
  h5::attribute(root, "vibro_version", std::string(kVersion));
  h5::attribute(root, "git_revision", std::string(kGitRevision));
  h5::attribute(root, "model", spec.model->name());
  h5::attribute(root, "sweep_file", spec.source_name);
  h5::attribute(root, "sweep_text", spec.source_text);
}

void write_fixed_parameters(H5::H5File& file, const SweepSpec& spec) {
  // The value of every parameter that is not swept (swept ones are in /axes, per case).
  H5::Group parameters = h5::create_group(file, "/parameters");
  const auto& specs = spec.model->parameters();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& p = specs[i];
    if (std::find(spec.axis_parameter.begin(), spec.axis_parameter.end(), static_cast<int>(i)) != spec.axis_parameter.end())
      continue;
    const double value = spec.base.at(static_cast<int>(i));
    H5::DataSet set = p.kind == ParameterKind::Choice ? h5::scalar(parameters, p.name, p.format_value(value))
                                                      : h5::scalar(parameters, p.name, value);
    h5::attribute(set, "unit", p.kind == ParameterKind::Choice ? std::string("-") : p.unit);
    h5::attribute(set, "description", p.description);
    if (p.kind == ParameterKind::Choice) h5::attribute(set, "choices", p.accepted_range());
  }
}

namespace {

using h5::attribute;

// Root attributes (provenance and run settings), /parameters and /axes.
void write_metadata(H5::H5File& file, const SweepSpec& spec, const Provenance& prov) {
  H5::Group root = file.openGroup("/");
  write_origin(root, spec, "vibro-sweep");
  attribute(root, "started_utc", prov.started_utc);
  attribute(root, "finished_utc", prov.finished_utc);
  attribute(root, "ranks", static_cast<long long>(prov.ranks));
  attribute(root, "threads", static_cast<long long>(prov.threads));
  attribute(root, "scheduler", prov.scheduler);
  attribute(root, "wall_seconds", prov.wall_seconds);
  attribute(root, "steady_state", std::string(steady_mode_name(spec.steady.mode)));
  attribute(root, "max_periods", static_cast<long long>(spec.steady.max_periods));
  attribute(root, "window_periods", static_cast<long long>(spec.steady.window_periods));
  attribute(root, "tol", spec.steady.tol);
  attribute(root, "adaptive_tol", spec.steady.adaptive_tol);
  attribute(root, "continuation",
            spec.continuation_axis < 0 ? std::string("none") : spec.axes[static_cast<std::size_t>(spec.continuation_axis)].name);
  attribute(root, "direction", std::string(spec.descending ? "down" : "up"));

  write_fixed_parameters(file, spec);
  const auto& specs = spec.model->parameters();

  H5::Group axes = h5::create_group(file, "/axes");
  std::string names;
  for (std::size_t a = 0; a < spec.axes.size(); ++a) {
    const auto& axis = spec.axes[a];
    H5::DataSet set = h5::column(axes, axis.name, axis.values.size(), 0.0);
    h5::write_rows(set, 0, axis.values);
    const auto& p = specs[static_cast<std::size_t>(spec.axis_parameter[a])];
    attribute(set, "unit", p.unit);
    attribute(set, "description", p.description);
    attribute(set, "expression", axis.expression);
    attribute(set, "order", static_cast<long long>(a));
    names += (a ? "," : "") + axis.name;
  }
  attribute(axes, "order", names);
}

// The sweep's threads (run.threads), which also decode its cases for the file.
int reading_threads(const SweepSpec& spec) { return spec.threads > 0 ? spec.threads : omp_get_max_threads(); }

SweepCensus write_file(const std::string& path, const SweepSpec& spec, CaseStore& store, const Provenance& prov,
                       const UnsettledExtension& extension) {
  H5::H5File file = h5::create_file(path);
  write_metadata(file, spec, prov);
  const long long n = spec.case_count();
  const int threads = reading_threads(spec);
  // Fixed-length strings need their width first: from the store, or one pass over the cases.
  std::size_t class_width = 1, reason_width = 1;
  if (const auto widest = store.widest_texts()) {
    class_width = std::max(class_width, widest->class_code);
    reason_width = std::max(reason_width, widest->reason);
  } else {
#pragma omp parallel for schedule(static, 256) reduction(max : class_width, reason_width) num_threads(threads)
    for (long long i = 0; i < n; ++i) {
      const CaseStore::TextSizes sizes = store.text_sizes(i);
      class_width = std::max(class_width, sizes.class_code);
      reason_width = std::max(reason_width, sizes.reason);
    }
  }
  CaseColumns columns(file, spec, class_width, reason_width);
  SweepCensus census;
  for_each_case_block(store, n, spec.block_cases, threads, [&](long long first, const std::vector<CaseResult>& block) {
    columns.write(static_cast<hsize_t>(first), block, census);
  });
  SweepAttractors attractors = label_sweep_attractors(spec, store, threads);
  const SeedTally seeds = seed_from_previous_points(spec, store, attractors);
  const SweepContinuation continuation = continue_sweep_attractors(spec, attractors);
  columns.finish(attractors, continuation);
  if (has_basins(spec, attractors)) write_basins(file, spec, attractors, continuation, seeds, extension);
  write_grid_view(file, spec);
  return census;
}

}  // namespace

SweepCensus write_sweep_file(const std::string& path, const SweepSpec& spec, CaseStore& cases, const Provenance& provenance,
                             const UnsettledExtension& extension) {
  SweepCensus census;
  h5::write_atomically(path, [&](const std::string& temporary) { census = write_file(temporary, spec, cases, provenance, extension); });
  return census;
}

}  // namespace vibro
