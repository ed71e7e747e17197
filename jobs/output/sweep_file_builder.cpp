#include "jobs/output/sweep_file_builder.hpp"

#include <omp.h>

#include <algorithm>

#include "jobs/output/attractor_seeding.hpp"
#include "jobs/output/basins_writer.hpp"
#include "jobs/output/grid_view.hpp"
#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_attractors.hpp"
#include "jobs/output/sweep_continuation.hpp"

namespace vibro {

int file_threads(const SweepSpec& spec) { return spec.threads > 0 ? spec.threads : omp_get_max_threads(); }

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

}  // namespace

SweepFileBuilder::SweepFileBuilder(const std::string& path, const SweepSpec& spec, long long block_rows)
    : spec_(spec), file_(h5::create_file(path)), columns_(file_, spec, block_rows) {}

SweepCensus SweepFileBuilder::finish(const Provenance& provenance, CaseStore* store, const UnsettledExtension& extension) {
  write_metadata(file_, spec_, provenance);
  const int threads = file_threads(spec_);
  SweepAttractors attractors = store ? label_sweep_attractors(spec_, *store, threads) : SweepAttractors{};
  const SeedTally seeds = store ? seed_from_previous_points(spec_, *store, attractors) : SeedTally{};
  const SweepContinuation continuation = continue_sweep_attractors(spec_, attractors);
  columns_.finish(attractors, continuation);
  if (has_basins(spec_, attractors)) write_basins(file_, spec_, attractors, continuation, seeds, extension);
  write_grid_view(file_, spec_);
  return columns_.census();
}

}  // namespace vibro
