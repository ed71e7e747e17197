#include "analysis/hybrid_model_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace vibro {

namespace {

const char* stat_prefix(WindowStat stat) {
  switch (stat) {
    case WindowStat::Maximum: return "max_";
    case WindowStat::Minimum: return "min_";
    case WindowStat::HalfPeakToPeak: return "amplitude_";
    case WindowStat::Drift: return "drift_";
    default: return "";
  }
}

ObservableSpec describe(WindowStat stat, const StateComponent* c) {
  switch (stat) {
    case WindowStat::ImpactsPerPeriod: return {"impacts_per_period", "1/period", "impacts per forcing period over the window"};
    case WindowStat::ImpactSpeed: return {"impact_speed", "(velocity)", "approach speed of the window's last impact"};
    case WindowStat::ImpactPhase: return {"impact_phase", "rad", "forcing phase w t mod 2 pi of the window's last impact"};
    case WindowStat::Maximum: return {"max_" + c->name, c->unit, "largest " + c->name + " over the window"};
    case WindowStat::Minimum: return {"min_" + c->name, c->unit, "smallest " + c->name + " over the window"};
    case WindowStat::HalfPeakToPeak: return {"amplitude_" + c->name, c->unit, "half peak-to-peak of " + c->name + " over the window"};
    case WindowStat::Drift: return {"drift_" + c->name, c->unit + "/s", "mean rate of " + c->name + " over the window"};
  }
  return {};
}

bool needs_component(WindowStat stat) {
  return stat != WindowStat::ImpactsPerPeriod && stat != WindowStat::ImpactSpeed && stat != WindowStat::ImpactPhase;
}

}  // namespace

HybridObservables resolve_observables(const HybridModelInfo& info) {
  HybridObservables out;
  for (const auto& o : info.observables) {
    ResolvedObservable r{o.stat};
    const StateComponent* component = nullptr;
    if (needs_component(o.stat)) {
      const auto it = std::find_if(info.state.begin(), info.state.end(), [&](const StateComponent& c) { return c.name == o.component; });
      if (it == info.state.end())
        throw std::invalid_argument("model " + info.name + ": observable " + stat_prefix(o.stat) + o.component +
                                    " names no state component");
      component = &*it;
      r.component = static_cast<int>(it - info.state.begin());
    }
    if (o.stat == WindowStat::Drift) {
      if (out.drift_component >= 0 && out.drift_component != r.component)
        throw std::invalid_argument("model " + info.name + ": at most one drift component");
      out.drift_component = r.component;
    } else if (needs_component(o.stat)) {
      auto slot = std::find(out.tracked.begin(), out.tracked.end(), r.component);
      if (slot == out.tracked.end()) {
        if (static_cast<int>(out.tracked.size()) == kMaxTrackedComponents)
          throw std::invalid_argument("model " + info.name + ": extremes of at most " + std::to_string(kMaxTrackedComponents) +
                                      " components can be tracked");
        out.tracked.push_back(r.component);
        slot = out.tracked.end() - 1;
      }
      r.tracked_slot = static_cast<int>(slot - out.tracked.begin());
    }
    out.specs.push_back(describe(o.stat, component));
    out.resolved.push_back(r);
  }
  return out;
}

std::vector<ClassCode> hybrid_class_legend() {
  return {{"(<k>,<n>)[~]", "a period-k orbit (k forcing periods) with n impacts per orbit; ~: it converged slowly"},
          {"P<k>[~]", "a period-k orbit without impacts; ~: it converged slowly"},
          quasi_periodic_class(),
          not_converged_class()};
}

CaseSummary summarize_hybrid_window(const SteadyState& steady, const HybridObservables& observables, double period) {
  CaseSummary summary;
  const auto& w = steady.window;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  summary.observables.assign(observables.resolved.size(), nan);
  if (w.size() < 2) {
    summary.class_code = "X";
    return summary;
  }
  const double periods = static_cast<double>(w.size() - 1);
  const auto impacts = steady.counter_in_window(kHybridImpacts);
  for (std::size_t k = 0; k < observables.resolved.size(); ++k) {
    const ResolvedObservable& r = observables.resolved[k];
    double& value = summary.observables[k];
    // Every sample after the first carries the aux of the period that ends at it.
    const int hi = kAuxFirstExtreme + 2 * r.tracked_slot;
    double top = -std::numeric_limits<double>::infinity(), bottom = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < w.size() && r.tracked_slot >= 0; ++i) {
      top = std::max(top, w[i].aux[static_cast<std::size_t>(hi)]);
      bottom = std::min(bottom, w[i].aux[static_cast<std::size_t>(hi + 1)]);
    }
    auto last_impact = [&](int aux) {
      for (std::size_t i = w.size() - 1; i >= 1; --i)
        if (!std::isnan(w[i].aux[static_cast<std::size_t>(aux)])) return w[i].aux[static_cast<std::size_t>(aux)];
      return nan;
    };
    switch (r.stat) {
      case WindowStat::ImpactsPerPeriod: value = static_cast<double>(impacts) / periods; break;
      case WindowStat::ImpactSpeed: value = last_impact(kAuxImpactSpeed); break;
      case WindowStat::ImpactPhase: value = last_impact(kAuxImpactPhase); break;
      case WindowStat::Maximum: value = top; break;
      case WindowStat::Minimum: value = bottom; break;
      case WindowStat::HalfPeakToPeak: value = 0.5 * (top - bottom); break;
      case WindowStat::Drift: value = (w.back().drift_position - w.front().drift_position) / (periods * period); break;
    }
  }
  if (!has_period(steady.periodicity)) {
    summary.class_code = steady.periodicity == Periodicity::QuasiPeriodic ? "Q" : "X";
    return summary;
  }
  const std::string slow = steady.periodicity == Periodicity::SlowlyConverging ? "~" : "";
  const std::string k = std::to_string(steady.period);
  if (impacts == 0) {
    summary.class_code = "P" + k + slow;
    return summary;
  }
  const double n = steady.counter_per_orbit(kHybridImpacts);
  summary.class_code = n < 0 ? "X" : "(" + k + "," + std::to_string(static_cast<long>(n)) + ")" + slow;
  return summary;
}

}  // namespace vibro
