#include "jobs/trace/case_trace.hpp"

#include <memory>
#include <string>

#include "engine/core/input_error.hpp"
#include "engine/hybrid_model/hybrid_model_info.hpp"
#include "jobs/sweep/model_features.hpp"

namespace vibro {

namespace {

// Keeps what the simulation reports, in CaseTrace's layout.
class CollectingSink : public TraceSink {
 public:
  CollectingSink(CaseTrace& out, double period, int samples_per_period)
      : TraceSink(period, samples_per_period), out_(out) {
    set_dims(static_cast<int>(out.components.size()));
  }
  void on_state(double t, int mode, const double* state) override {
    out_.time.push_back(t);
    out_.modes.push_back(mode);
    out_.states.insert(out_.states.end(), state, state + out_.components.size());
  }
  void on_event(double t, const std::string& kind, const double* before, const double* after) override {
    const std::size_t n = out_.components.size();
    out_.events.push_back({t, kind, std::vector<double>(before, before + n), std::vector<double>(after, after + n)});
  }

 private:
  CaseTrace& out_;
};

// Keeps the samples up to t = periods T (a model may also sample t = 0).
class SampleKeeper : public StrobeObserver {
 public:
  SampleKeeper(CaseTrace& out, int periods) : out_(out), periods_(periods) {}
  bool on_sample(const StrobeSample& sample) override {
    out_.strobe.push_back(sample);
    return sample.period < periods_;
  }

 private:
  CaseTrace& out_;
  std::int64_t periods_;
};

void check_request(const TraceRequest& request) {
  if (request.periods < 1 || request.periods > 1000000)
    throw InputError("periods must be an integer from 1 to 1000000; got " + std::to_string(request.periods));
  if (request.samples_per_period < 1 || request.samples_per_period > 100000)
    throw InputError("samples per period must be an integer from 1 to 100000; got " +
                     std::to_string(request.samples_per_period));
  constexpr double kMaxRows = 5e7;  // 400 MB of a 1-component state: beyond any plot's use
  if (static_cast<double>(request.periods) * request.samples_per_period > kMaxRows)
    throw InputError("periods x samples per period must be at most 5e7; got " + std::to_string(request.periods) +
                     " x " + std::to_string(request.samples_per_period));
}

// A model reports a step or a closed-form arc as a whole, so the history may run past the sample
// the run stopped at: cut it there.
void trim_to_last_sample(CaseTrace& trace) {
  if (trace.strobe.empty()) return;
  const double end = trace.strobe.back().time;
  std::size_t rows = trace.time.size();
  while (rows > 0 && trace.time[rows - 1] > end) --rows;
  trace.time.resize(rows);
  trace.modes.resize(rows);
  trace.states.resize(rows * trace.components.size());
  while (!trace.events.empty() && trace.events.back().time > end) trace.events.pop_back();
}

}  // namespace

CaseTrace trace_case(const Model& model, const ParameterSet& values, const TraceRequest& request) {
  check_request(request);
  require_trace_features(model);
  model.validate(values);
  const std::unique_ptr<Simulation> simulation = model.start(values);
  CaseTrace trace;
  trace.layout = simulation->layout();
  trace.period = trace.layout.period;
  const TraceLayout layout = simulation->trace_layout();
  trace.components = layout.components;
  trace.units = layout.units;
  if (const auto* declared = dynamic_cast<const DeclaredTimeUnit*>(&model)) trace.time_unit = declared->time_unit();
  CollectingSink sink(trace, trace.period, request.samples_per_period);
  simulation->attach_trace(&sink);
  SampleKeeper observer(trace, request.periods);
  simulation->run(observer);
  simulation->attach_trace(nullptr);
  trim_to_last_sample(trace);
  return trace;
}

}  // namespace vibro
