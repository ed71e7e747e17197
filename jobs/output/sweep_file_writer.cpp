#include "jobs/output/sweep_file_writer.hpp"

#include <H5Cpp.h>

#include <algorithm>
#include <ctime>
#include <vector>

#include "jobs/output/case_blocks.hpp"
#include "jobs/output/case_rows.hpp"
#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/sweep_file_builder.hpp"
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

SweepCensus write_sweep_file(const std::string& path, const SweepSpec& spec, CaseStore& store, const Provenance& provenance,
                             const UnsettledExtension& extension) {
  SweepCensus census;
  h5::write_atomically(path, [&](const std::string& temporary) {
    SweepFileBuilder file(temporary, spec, spec.file_block_cases(false));
    CaseRows rows;
    const std::size_t observables = spec.model->observables().size();
    for_each_case_block(store, spec.case_count(), spec.file_block_cases(false), file_threads(spec),
                        [&](long long first, const std::vector<CaseResult>& block) {
                          rows.resize(block.size(), observables);
                          for (std::size_t k = 0; k < block.size(); ++k) rows.set(k, block[k]);
                          file.write(static_cast<hsize_t>(first), rows);
                          if (file.needs_results()) file.write_results(static_cast<hsize_t>(first), block);
                        });
    census = file.finish(provenance, &store, extension);
  });
  return census;
}

}  // namespace vibro
