#include "jobs/output/case_columns.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

#include "jobs/output/hdf5_columns.hpp"
#include "jobs/output/legend_writer.hpp"

namespace vibro {

using h5::attribute;

CaseColumns::CaseColumns(H5::H5File& file, const SweepSpec& spec, long long block_rows)
    : file_(file),
      spec_(spec),
      n_(static_cast<hsize_t>(spec.case_count())),
      rows_cache_(h5::fills_whole_chunks(static_cast<hsize_t>(block_rows), n_) ? h5::ChunkCache::Skipped
                                                                               : h5::ChunkCache::Kept) {
  cases_ = h5::create_group(file, "/cases");
  attribute(cases_, "layout", std::string("flattened grid, C order over /axes 'order' (first axis slowest)"));
  status_ = h5::column<std::int8_t>(cases_, "status", n_, 3, rows_cache_);
  attribute(status_, "meaning", std::string("0 ok, 1 infeasible, 2 failed, 3 not run"));
  write_class_legend(file, *spec.model);
  class_index_ = h5::column<std::int32_t>(cases_, "class_index", n_, -1, rows_cache_);
  attribute(class_index_, "meaning", std::string("the class as a number: k is the k-th code of the attribute 'codes' "
                                                 "(CF flag_values, flag_meanings); -1 no class (status not 0)"));
  periodicity_ = h5::column<std::int8_t>(cases_, "periodicity", n_, 0, rows_cache_);
  attribute(periodicity_, "meaning", std::string("0 periodic, 1 slowly converging, 2 not converged, 3 quasi-periodic"));
  period_ = h5::column<std::int32_t>(cases_, "period", n_, 0, rows_cache_);
  attribute(period_, "unit", std::string("forcing periods"));
  attribute(period_, "meaning", std::string("period k of the steady orbit of the stroboscopic map; 0: none found"));
  periods_run_ = h5::column<std::int32_t>(cases_, "periods_run", n_, 0, rows_cache_);
  attribute(periods_run_, "unit", std::string("forcing periods"));
  attribute(periods_run_, "meaning", std::string("periods simulated until the steady state (or the budget)"));
  window_periods_ = h5::column<std::int32_t>(cases_, "window_periods", n_, 0, rows_cache_);
  attribute(window_periods_, "unit", std::string("forcing periods"));
  attribute(window_periods_, "meaning", std::string("length of the steady window the class and observables read"));
  jumps_ = h5::column<std::int32_t>(cases_, "jumps", n_, 0, rows_cache_);
  attribute(jumps_, "meaning", std::string("transient jumps: restarts from an extrapolated limit of a geometrically "
                                           "converging transient"));
  stopped_early_ = h5::column<std::int8_t>(cases_, "stopped_early", n_, 0, rows_cache_);
  attribute(stopped_early_, "meaning", std::string("1 the case stopped before its period budget (steady state "
                                                   "found), 0 it ran the whole budget"));
  wall_ = h5::column<double>(cases_, "wall_seconds", n_, 0.0, rows_cache_);
  attribute(wall_, "unit", std::string("s"));
  H5::Group observables = h5::create_group(file, "/cases/observables");
  for (const auto& o : spec.model->observables()) {
    observables_.push_back(h5::column<double>(observables, o.name, n_, std::nan(""), rows_cache_));
    attribute(observables_.back(), "unit", o.unit);
    attribute(observables_.back(), "description", o.description);
  }
  counters_group_ = h5::create_group(file, "/cases/counters");
  window_counters_group_ = h5::create_group(file, "/cases/window_counters");
  if (spec.floquet) {
    // Multipliers per case, padded with NaN; max_modulus < 1: the orbit is stable.
    H5::Group floquet = h5::create_group(file, "/cases/floquet");
    floquet_real_ = h5::matrix<double>(floquet, "real", n_, 0, std::nan(""));
    floquet_imag_ = h5::matrix<double>(floquet, "imag", n_, 0, std::nan(""));
    attribute(floquet_real_, "meaning", std::string("real parts of the Floquet multipliers per case, NaN-padded"));
    attribute(floquet_imag_, "meaning", std::string("imaginary parts of the Floquet multipliers per case, NaN-padded"));
    floquet_modulus_ = h5::column<double>(floquet, "max_modulus", n_, std::nan(""));
    attribute(floquet_modulus_, "meaning",
              std::string("largest |multiplier| of the steady orbit; < 1 stable; NaN: not computed"));
  }
  if (spec.shooting) {
    H5::Group shooting = h5::create_group(file, "/cases/shooting");
    shooting_converged_ = h5::column<std::int8_t>(shooting, "converged", n_, -1);
    attribute(shooting_converged_, "meaning", std::string("1 Newton shooting converged, 0 it did not, -1 not attempted "
                                                          "(no period found, failed case, or a model without the map)"));
    shooting_residual_ = h5::column<double>(shooting, "residual", n_, std::nan(""));
    attribute(shooting_residual_, "meaning", std::string("|P^k(x) - x| at the end of Newton, max-norm in the layout's scales"));
    shooting_state_ = h5::matrix<double>(shooting, "state", n_, 0, std::nan(""));
    attribute(shooting_state_, "meaning", std::string("the orbit's point on the section t = k T found by shooting "
                                                      "(columns as /cases/strobe/values); NaN where not converged"));
  }
  if (spec.lyapunov_periods > 0) {
    lyapunov_ = h5::matrix<double>(cases_, "lyapunov", n_, 0, std::nan(""));
    attribute(lyapunov_, "unit", std::string("1/s"));
    attribute(lyapunov_, "meaning", std::string("Lyapunov exponents of the stroboscopic map, largest first, over "
                                                "output.lyapunov_periods periods after the steady state; NaN: not computed"));
    stretch_exponent_ = h5::column<double>(cases_, "lyapunov_between_resets", n_, std::nan(""));
    attribute(stretch_exponent_, "unit", std::string("1/s"));
    attribute(stretch_exponent_, "meaning", std::string("largest exponent of the stretches between resets (events that "
                                                        "absorb part of the state, e.g. a coupled phase), over the same "
                                                        "periods; without resets the largest exponent; NaN: not computed"));
    stretch_resets_ = h5::column<std::int32_t>(cases_, "lyapunov_resets", n_, -1);
    attribute(stretch_resets_, "meaning", std::string("periods whose map passed a reset; -1 not computed"));
  }
  if (spec.record_strobe()) {
    strobe_ = h5::create_group(file, "/cases/strobe");
    // output.strobe_points: every ok case's window, or the last orbit of each case with a period.
    attribute(strobe_, "points", strobe_points_name(spec.strobe_points));
    drift_ = h5::column<double>(strobe_, "drift_position", 0, 0.0);
    attribute(drift_, "meaning", std::string("the drift coordinate at each sample (/legend attribute drift_position)"));
    modes_ = h5::column<std::int8_t>(strobe_, "mode", 0, 0);
    offsets_ = h5::column<std::int64_t>(strobe_, "offsets", n_ + 1, 0);
    attribute(offsets_, "meaning", std::string("points of case i are rows offsets[i] .. offsets[i+1]-1"));
  }
}

bool CaseColumns::needs_results() const {
  return spec_.floquet || spec_.shooting || spec_.lyapunov_periods > 0 || spec_.record_strobe();
}

const std::vector<std::int32_t>& CaseColumns::class_numbers(const CaseRows& rows) {
  std::vector<std::int32_t>& numbers = class_numbers_scratch_;  // its memory kept from block to block
  numbers.assign(rows.size(), -1);
  // Neighbouring cases mostly share a class: the map is searched only where the code changes.
  const std::string* last = nullptr;
  std::int32_t last_number = -1;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string& code = rows.class_code[r];
    if (code.empty()) continue;
    if (!last || code != *last) {
      const auto [at, added] = class_numbers_.emplace(code, static_cast<std::int32_t>(class_codes_.size()));
      if (added) {
        class_codes_.push_back(code);
        class_counts_.push_back(0);
      }
      last = &code;
      last_number = at->second;
    }
    numbers[r] = last_number;
  }
  return numbers;
}

void CaseColumns::write(hsize_t first, CaseRows& rows) {
  for (std::size_t r = 0; r < rows.size() && !layout_named_; ++r)
    if (rows.status[r] == static_cast<std::int8_t>(CaseStatus::Ok)) name_layout(static_cast<long long>(first + r));
  const std::size_t n = rows.size();
  h5::write_rows(status_, first, rows.status);
  const std::vector<std::int32_t>& numbers = class_numbers(rows);
  h5::write_rows(class_index_, first, numbers);
  h5::write_rows(periodicity_, first, rows.periodicity);
  h5::write_rows(period_, first, rows.period);
  h5::write_rows(periods_run_, first, rows.periods_run);
  h5::write_rows(window_periods_, first, rows.window_periods);
  h5::write_rows(jumps_, first, rows.jumps);
  h5::write_rows(stopped_early_, first, rows.stopped_early);
  h5::write_rows(wall_, first, rows.wall_seconds);
  for (std::size_t o = 0; o < observables_.size(); ++o) h5::write_rows(observables_[o], first, rows.observable_column(o), n);
  rows.fill_missing_counters(counter_names_.size());
  for (std::size_t k = 0; k < counter_names_.size(); ++k) {
    h5::write_rows(counters_[k], first, rows.counter_column(k), n);
    h5::write_rows(window_counters_[k], first, rows.window_counter_column(k), n);
  }
  for (std::size_t r = 0; r < n; ++r) {
    ++status_counts_[rows.status[r]];
    if (rows.status[r] == static_cast<std::int8_t>(CaseStatus::Ok)) {
      if (numbers[r] >= 0) {
        ++class_counts_[static_cast<std::size_t>(numbers[r])];
      } else {
        ++ok_without_class_;
      }
    }
    if (!rows.reason[r].empty()) reasons_.emplace_back(first + r, rows.reason[r]);
  }
}

void CaseColumns::write_results(hsize_t first, const std::vector<CaseResult>& block) {
  const auto column = [&](auto get) {
    std::vector<decltype(get(block[0]))> out;
    out.reserve(block.size());
    for (const auto& c : block) out.push_back(get(c));
    return out;
  };
  if (spec_.floquet) write_floquet(first, block);
  if (spec_.shooting) write_shooting(first, block);
  if (spec_.lyapunov_periods > 0) {
    write_padded(lyapunov_, first, column([](const CaseResult& c) { return c.lyapunov; }));
    h5::write_rows(stretch_exponent_, first, column([](const CaseResult& c) { return c.stretch_exponent; }));
    h5::write_rows(stretch_resets_, first, column([](const CaseResult& c) { return c.stretch_resets; }));
  }
  if (spec_.record_strobe()) write_strobe(first, block);
}

SweepCensus CaseColumns::census() const {
  SweepCensus census;
  const char* names[] = {"ok", "infeasible", "failed", "not run"};
  for (int s = 0; s < 4; ++s)
    if (status_counts_[s] > 0) census.statuses[names[s]] = status_counts_[s];
  for (std::size_t k = 0; k < class_codes_.size(); ++k)
    if (class_counts_[k] > 0) census.classes[class_codes_[k]] = class_counts_[k];
  if (ok_without_class_ > 0) census.classes[""] = ok_without_class_;
  return census;
}

void CaseColumns::write_strings() {
  std::size_t class_width = 1, reason_width = 1;
  for (const auto& code : class_codes_) class_width = std::max(class_width, code.size());
  for (const auto& [row, text] : reasons_) reason_width = std::max(reason_width, text.size());
  H5::DataSet reason = h5::create_strings(cases_, "reason", n_, reason_width);
  attribute(reason, "meaning", std::string("why a case is infeasible or failed; empty for an ok case"));
  H5::DataSet classes = h5::create_strings(cases_, "class", n_, class_width);
  attribute(classes, "meaning", std::string("the model's class code of the steady state (/legend/classes); empty "
                                            "unless status is 0"));
  // A block at a time: the class numbers are read back from the file (memory stays one block), the
  // rows padded to the width in place (a std::string a row was 32 bytes of fresh memory each).
  constexpr hsize_t kRows = hsize_t{1} << 16;
  std::vector<char> padded;
  std::size_t next_reason = 0;
  for (hsize_t first = 0; first < n_; first += kRows) {
    const hsize_t count = std::min(kRows, n_ - first);
    if (!class_codes_.empty()) {
      const std::vector<std::int32_t> numbers = h5::read_rows<std::int32_t>(class_index_, first, count);
      padded.assign(count * class_width, '\0');
      for (hsize_t r = 0; r < count; ++r)
        if (numbers[r] >= 0) {
          const std::string& code = class_codes_[static_cast<std::size_t>(numbers[r])];
          std::memcpy(padded.data() + r * class_width, code.data(), code.size());
        }
      h5::write_padded_strings(classes, first, padded);
    }
    // The reasons of this block's rows, if any (rows never written read as the empty fill).
    if (next_reason < reasons_.size() && reasons_[next_reason].first < first + count) {
      padded.assign(count * reason_width, '\0');
      for (; next_reason < reasons_.size() && reasons_[next_reason].first < first + count; ++next_reason) {
        const std::string& text = reasons_[next_reason].second;
        std::memcpy(padded.data() + (reasons_[next_reason].first - first) * reason_width, text.data(), text.size());
      }
      h5::write_padded_strings(reason, first, padded);
    }
  }
}

void CaseColumns::finish(const SweepAttractors& attractors, const SweepContinuation& continuation) {
  if (spec_.record_strobe() && !strobe_values_created_) create_strobe_values();
  write_strings();
  write_class_flags(class_index_, class_codes_);
  if (attractors.label.empty()) return;
  auto set = h5::column<std::int32_t>(cases_, "attractor", n_, -1);
  h5::write_rows(set, 0, attractors.label);
  std::string initial_names;
  for (const auto& a : attractors.initial_axes) initial_names += (initial_names.empty() ? "" : ",") + a;
  attribute(set, "meaning", std::string("attractor label within the case's parameter point (the cases that differ "
                                        "only in the initial-condition axes); -1: no steady state"));
  attribute(set, "initial_condition_axes", initial_names.empty() ? std::string("none") : initial_names);
  if (continuation.ids.empty()) return;
  std::vector<std::int32_t> global(attractors.label.size(), -1);
  for (std::size_t i = 0; i < global.size(); ++i)
    if (attractors.label[i] >= 0)
      global[i] = continuation.ids[static_cast<std::size_t>(parameter_point(spec_, attractors, static_cast<long long>(i)))]
                                  [static_cast<std::size_t>(attractors.label[i])];
  auto ids = h5::column<std::int32_t>(cases_, "global_attractor", n_, -1);
  h5::write_rows(ids, 0, global);
  attribute(ids, "meaning", std::string("the attractor's global id along the continuation axis (/basins); -1: no steady state"));
}

void CaseColumns::name_layout(long long i) {
  layout_named_ = true;
  const auto layout = spec_.model->start(spec_.case_parameters(i))->layout();
  counter_names_ = layout.counter_names;
  state_names_ = layout.state_names;
  state_units_ = layout.state_units;
  for (std::size_t k = 0; k < counter_names_.size(); ++k) {
    counters_.push_back(h5::column<std::int64_t>(counters_group_, counter_names_[k], n_, -1, rows_cache_));
    window_counters_.push_back(h5::column<std::int64_t>(window_counters_group_, counter_names_[k], n_, -1, rows_cache_));
    const std::string meaning = k < layout.counter_meanings.size() ? layout.counter_meanings[k] : "(not stated by the model)";
    attribute(counters_.back(), "meaning", meaning + ", since t = 0; -1: the case did not run");
    attribute(window_counters_.back(), "meaning", meaning + ", over the steady window; -1: the case did not run");
  }
  write_layout_legend(file_, layout);
  if (spec_.record_strobe()) {
    attribute(modes_, "meaning", mode_index_meaning(layout));
    attribute(drift_, "unit", layout.drift_unit);
    create_strobe_values();
  }
}

void CaseColumns::create_strobe_values() {
  strobe_values_ = h5::matrix<double>(strobe_, "values", 0, state_names_.size(), 0.0);
  std::string joined, units;
  for (std::size_t d = 0; d < state_names_.size(); ++d) {
    joined += (d ? "," : "") + state_names_[d];
    units += (d ? "," : "") + (d < state_units_.size() ? state_units_[d] : std::string("?"));
  }
  attribute(strobe_values_, "columns", joined);
  attribute(strobe_values_, "units", units);
  attribute(strobe_values_, "meaning", std::string("the stroboscopic state at t = k T, one row per sample, columns "
                                                   "as the attribute 'columns', units as 'units'"));
  strobe_values_created_ = true;
}

void CaseColumns::write_padded(H5::DataSet& set, hsize_t first, const std::vector<std::vector<double>>& rows) {
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.size());
  std::vector<double> values;
  for (const auto& row : rows)
    for (std::size_t k = 0; k < width; ++k) values.push_back(k < row.size() ? row[k] : std::nan(""));
  h5::write_rows(set, first, values, width);
}

void CaseColumns::write_floquet(hsize_t first, const std::vector<CaseResult>& block) {
  std::vector<std::vector<double>> re(block.size()), im(block.size());
  std::vector<double> modulus;
  for (std::size_t k = 0; k < block.size(); ++k) {
    double m = block[k].floquet.empty() ? std::nan("") : 0.0;
    for (const auto& mu : block[k].floquet) {
      re[k].push_back(mu.real());
      im[k].push_back(mu.imag());
      m = std::max(m, std::abs(mu));
    }
    modulus.push_back(m);
  }
  write_padded(floquet_real_, first, re);
  write_padded(floquet_imag_, first, im);
  h5::write_rows(floquet_modulus_, first, modulus);
}

void CaseColumns::write_shooting(hsize_t first, const std::vector<CaseResult>& block) {
  std::vector<std::int8_t> converged;
  std::vector<double> residual;
  std::vector<std::vector<double>> states;
  for (const auto& c : block) {
    converged.push_back(c.shooting);
    residual.push_back(c.shooting < 0 ? std::nan("") : c.shooting_residual);
    states.emplace_back();
    if (c.shooting == 1) states.back().assign(c.shot_state.state.begin(), c.shot_state.state.begin() + static_cast<long>(state_names_.size()));
  }
  h5::write_rows(shooting_converged_, first, converged);
  h5::write_rows(shooting_residual_, first, residual);
  write_padded(shooting_state_, first, states);
}

void CaseColumns::write_strobe(hsize_t first, const std::vector<CaseResult>& block) {
  const std::size_t dims = state_names_.size();
  // The block's rows go to buffers kept from block to block: made afresh, a block's megabytes of points
  // grew by doubling, on fresh pages every time.
  StrobeRows& rows = strobe_rows_;
  std::size_t points = 0;
  for (const auto& c : block) points += c.strobe.size();
  rows.restart(points, dims, block.size());
  for (const auto& c : block) {
    for (const auto& p : c.strobe) {
      rows.values.insert(rows.values.end(), p.state.begin(), p.state.begin() + static_cast<long>(dims));
      rows.drift.push_back(p.drift_position);
      rows.modes.push_back(static_cast<std::int8_t>(p.mode));
    }
    points_ += static_cast<std::int64_t>(c.strobe.size());
    rows.offsets.push_back(points_);
  }
  if (dims > 0) h5::append_rows(strobe_values_, rows.values, dims);
  h5::append_rows(drift_, rows.drift);
  h5::append_rows(modes_, rows.modes);
  h5::write_rows(offsets_, first + 1, rows.offsets);
}

}  // namespace vibro
