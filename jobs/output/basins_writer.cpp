#include "jobs/output/basins_writer.hpp"

#include <algorithm>

#include "jobs/output/hdf5_columns.hpp"

namespace vibro {

namespace {

using h5::attribute;

template <class T>
void column_of(H5::Group& group, const std::string& name, const std::vector<T>& values, const std::string& meaning,
               const std::string& unit = "") {
  H5::DataSet set = h5::column<T>(group, name, values.size(), T{});
  h5::write_rows(set, 0, values);
  attribute(set, "meaning", meaning);
  if (!unit.empty()) attribute(set, "unit", unit);
}

void strings_of(H5::Group& group, const std::string& name, const std::vector<std::string>& values, const std::string& meaning) {
  std::size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size());
  H5::DataSet set = h5::create_strings(group, name, values.size(), width);
  if (!values.empty()) h5::write_strings(set, 0, values);
  attribute(set, "meaning", meaning);
}

std::string joined_names(const SweepSpec& spec, const std::vector<std::size_t>& axes) {
  std::string out;
  for (const auto a : axes) out += (out.empty() ? "" : ",") + spec.axes[a].name;
  return out.empty() ? "none" : out;
}

// Per point: cases, settled cases, attractor count, entropies.
void write_point_columns(H5::Group& basins, const SweepAttractors& attractors) {
  std::vector<std::int64_t> cases_run, settled, unsettled, boxes, boundary_boxes;
  std::vector<std::int32_t> count;
  std::vector<double> entropy, boundary_entropy, unsettled_fraction, unsettled_error;
  for (std::size_t p = 0; p < attractors.points.size(); ++p) {
    const PointAttractors& point = attractors.points[p];
    long long reached = 0;
    for (const auto& a : point.attractors) reached += a.cases;
    cases_run.push_back(point.cases_run);
    settled.push_back(reached);
    unsettled.push_back(point.cases_unsettled);
    const BasinFraction f = basin_fraction(point.cases_unsettled, point.cases_run, reached);
    unsettled_fraction.push_back(f.fraction);
    unsettled_error.push_back(f.standard_error);
    count.push_back(static_cast<std::int32_t>(point.attractors.size()));
    entropy.push_back(attractors.entropy[p].entropy);
    boundary_entropy.push_back(attractors.entropy[p].boundary_entropy);
    boxes.push_back(attractors.entropy[p].boxes);
    boundary_boxes.push_back(attractors.entropy[p].boundary_boxes);
  }
  column_of(basins, "cases_run", cases_run, "initial conditions of the point, whatever their outcome");
  column_of(basins, "cases_settled", settled, "initial conditions that reached an attractor (the rest: no steady state)");
  column_of(basins, "cases_unsettled", unsettled,
            "initial conditions that ran to their budget without a steady state: members of no attractor");
  column_of(basins, "unsettled_fraction", unsettled_fraction, "cases_unsettled / cases_run");
  column_of(basins, "unsettled_fraction_error", unsettled_error,
            "binomial standard error of the unsettled fraction: sqrt(f (1 - f) / cases_run)");
  column_of(basins, "attractor_count", count, "attractors found at the point");
  column_of(basins, "basin_entropy", entropy, "S_b: mean Gibbs entropy of the outcomes over the boxes; NaN: no whole box");
  column_of(basins, "boundary_basin_entropy", boundary_entropy, "S_bb: mean over the boxes with more than one outcome; 0: none");
  column_of(basins, "entropy_boxes", boxes, "boxes of the basin entropy");
  column_of(basins, "boundary_boxes", boundary_boxes, "boxes with more than one outcome");
}

// One row per attractor per point; rows of point p: offsets[p] .. offsets[p+1]-1.
void write_attractor_rows(H5::Group& basins, const SweepAttractors& attractors, const SweepContinuation& continuation) {
  std::vector<std::int64_t> offsets{0}, cases;
  std::vector<std::int32_t> label, global_id, period;
  std::vector<std::int8_t> beside_window;
  std::vector<std::string> class_code;
  std::vector<double> fraction, error, stability, multiplier, floquet;
  for (std::size_t p = 0; p < attractors.points.size(); ++p) {
    const PointAttractors& point = attractors.points[p];
    long long reached = 0;
    for (const auto& a : point.attractors) reached += a.cases;
    for (std::size_t k = 0; k < point.attractors.size(); ++k) {
      const PointAttractor& a = point.attractors[k];
      const BasinFraction f = basin_fraction(a.cases, point.cases_run, reached);
      label.push_back(static_cast<std::int32_t>(k));
      global_id.push_back(continuation.ids.empty() ? -1 : continuation.ids[p][k]);
      class_code.push_back(a.class_code);
      period.push_back(a.periodic ? a.period : 0);
      cases.push_back(a.cases);
      fraction.push_back(f.fraction);
      error.push_back(f.standard_error);
      stability.push_back(f.stability);
      multiplier.push_back(a.multiplier);
      floquet.push_back(a.floquet_multiplier);
      beside_window.push_back(holds_window(point, k) ? 1 : 0);
    }
    offsets.push_back(static_cast<std::int64_t>(label.size()));
  }
  H5::Group rows = basins.createGroup("attractors");
  column_of(rows, "offsets", offsets, "attractors of parameter point p are rows offsets[p] .. offsets[p+1]-1");
  column_of(rows, "label", label, "the attractor's label within its point (/cases/attractor)");
  column_of(rows, "global_id", global_id, "the attractor's id along the continuation axis; -1 without global continuation");
  strings_of(rows, "class", class_code, "the model's class code of the attractor");
  column_of(rows, "period", period, "period in forcing periods; 0: not periodic");
  column_of(rows, "cases", cases, "initial conditions that reached it");
  column_of(rows, "fraction", fraction, "basin fraction: cases / cases_run of its point");
  column_of(rows, "fraction_error", error, "binomial standard error of the fraction: sqrt(f (1 - f) / cases_run)");
  column_of(rows, "basin_stability", stability, "cases / cases_settled of its point (Menck et al. 2013)");
  column_of(rows, "multiplier_estimate", multiplier,
            "its multiplier from the members still closing in on it near a flip (median); NaN: none");
  column_of(rows, "floquet_multiplier", floquet,
            "a periodic attractor's Floquet multiplier of largest modulus, from its first settled member's orbit "
            "(models with Jacobians); NaN: none, or complex");
  column_of(rows, "beside_window", beside_window,
            "1: an irregular attractor that holds a periodic window of its own point (an orbit whose points span "
            "its region): its cases may be a chaotic transient on the way to that window, which only running "
            "them on (run.extend_unsettled) tells; 0 otherwise");
}

void write_events(H5::Group& basins, const SweepContinuation& continuation) {
  std::vector<std::string> kind;
  std::vector<std::int64_t> point;
  std::vector<std::int32_t> id, partner;
  std::vector<double> from, to;
  for (const auto& e : continuation.events) {
    kind.push_back(attractor_event_name(e.kind));
    point.push_back(e.point);
    id.push_back(e.id);
    partner.push_back(e.partner);
    from.push_back(e.from);
    to.push_back(e.to);
  }
  H5::Group events = basins.createGroup("events");
  strings_of(events, "kind", kind,
             "birth, death, merger, split, period_doubling, period_halving, period_change (another period, not twice "
             "or half), extent_change (an irregular set that lies within the old one or holds it), vanished (not found "
             "at the later point, "
             "found again further on) or return (found again)");
  column_of(events, "point", point, "the parameter point where the change is first seen (the interval's upper end)");
  column_of(events, "global_id", id,
            "birth, split: the new attractor; death, merger, vanished: the attractor that ends or goes missing; "
            "period_doubling, period_halving, period_change, extent_change, return: the attractor that continues");
  column_of(events, "partner", partner, "merger: the id it merged into; split: the id it split from; -1 otherwise");
  column_of(events, "parameter_from", from, "the interval in which it happens: the last point before it");
  column_of(events, "parameter_to", to, "the first point after it");
}

}  // namespace

bool has_basins(const SweepSpec& spec, const SweepAttractors& attractors) {
  return !attractors.points.empty() && (!attractors.initial_axes.empty() || spec.global_continuation_axis >= 0);
}

void write_basins(H5::H5File& file, const SweepSpec& spec, const SweepAttractors& attractors,
                  const SweepContinuation& continuation, const SeedTally& seeds, const UnsettledExtension& extension) {
  H5::Group basins = file.createGroup("/basins");
  attribute(basins, "layout", std::string("per parameter point: C order over the parameter axes (parameter_axes)"));
  attribute(basins, "parameter_axes", joined_names(spec, attractors.parameter_axes));
  std::string initial;
  for (const auto& a : attractors.initial_axes) initial += (initial.empty() ? "" : ",") + a;
  attribute(basins, "initial_condition_axes", initial.empty() ? std::string("none") : initial);
  attribute(basins, "entropy_box", static_cast<long long>(kBasinEntropyBox));
  const bool continued = spec.global_continuation_axis >= 0;
  attribute(basins, "continuation_axis",
            continued ? spec.axes[static_cast<std::size_t>(spec.global_continuation_axis)].name : std::string("none"));
  attribute(basins, "match_by", std::string(match_method_name(spec.match.method)));
  attribute(basins, "match_distance", spec.match.distance);
  attribute(basins, "match_across_classes", static_cast<long long>(spec.match.across_kinds));
  attribute(basins, "match_period_doublings", static_cast<long long>(spec.match.period_doublings));
  attribute(basins, "match_period_changes", static_cast<long long>(spec.match.period_changes));
  attribute(basins, "match_extent_changes", static_cast<long long>(spec.match.extent_changes));
  attribute(basins, "match_vanished", static_cast<long long>(spec.match.vanished));
  attribute(basins, "match_windows", static_cast<long long>(spec.match.windows));
  attribute(basins, "global_ids", static_cast<long long>(continuation.count));
  attribute(basins, "seed_from_previous", static_cast<long long>(spec.seed_from_previous));
  attribute(basins, "seed_directions", std::string(spec.seed_both_directions ? "both" : "forward"));
  attribute(basins, "seed_cases", seeds.cases);
  attribute(basins, "seed_rounds", static_cast<long long>(seeds.rounds));
  attribute(basins, "seeded_attractors", seeds.found);
  attribute(basins, "extend_unsettled", static_cast<long long>(spec.extend_unsettled));
  attribute(basins, "extended_cases", extension.cases);
  attribute(basins, "extension_runs", extension.reruns);
  write_point_columns(basins, attractors);
  write_attractor_rows(basins, attractors, continuation);
  if (continued) write_events(basins, continuation);
}

}  // namespace vibro
