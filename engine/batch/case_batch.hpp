#pragma once
// Many cases of one model stepped together, K forcing periods per launch (on CPU threads or a GPU):
// the interface the batched sweep runner drives. It knows no model and no sweep: a model provides a
// batch over its host-and-device kernel (cpu_batch.hpp, and the CUDA back end), the runner feeds the
// samples to its steady-state detectors and retires the cases that have converged.
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/parameter_spec.hpp"
#include "engine/core/strobe_sample.hpp"

namespace vibro {

class CaseBatch {
 public:
  virtual ~CaseBatch() = default;
  // Adds the cases in order, made on all OpenMP threads; returns each one's index in the batch, or -1
  // for a case Model::start throws for (InfeasibleCase, InputError): errors[j] then holds the exception.
  virtual std::vector<int> add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) = 0;
  virtual const StrobeLayout& layout(int i) const = 0;
  // Every live case advances `periods` forcing periods, leaving its stroboscopic samples behind.
  virtual void advance(int periods) = 0;
  // Samples case i took in the last advance: all asked for, or fewer when it failed (rethrow says why).
  virtual int taken(int i) const = 0;
  virtual void sample(int i, int k, StrobeSample& out) const = 0;
  [[noreturn]] virtual void rethrow(int i) const = 0;
  // The next advance of case i starts from this sample (Simulation::restart_from); false if refused.
  virtual bool restart(int i, const StrobeSample& sample) = 0;
  // Case i advances no more: it leaves the live set at the next advance.
  virtual void retire(int i) = 0;
  virtual int live() const = 0;
};

// Which back end steps the cases (run.backend).
enum class BatchDevice { Cpu, Cuda };

// Whether this build has the CUDA back end and, when `need_device`, a GPU it can use now; `why` says
// what is missing when not. Parsing a sweep checks the build (a job may be submitted from a node
// without a GPU); running one checks the device too.
bool cuda_backend_available(bool need_device, std::string& why);

}  // namespace vibro
