#pragma once
// CaseBatch on a GPU (compiled by nvcc only): the same Kernel as CpuBatch (cpu_batch.hpp states the
// concept), one case per GPU thread. The cases live in device memory for the whole batch; each launch
// steps the live ones K periods and leaves their samples in a device buffer, which comes back to the
// host for the detectors. Retired cases are compacted out of the live index list before the next
// launch, so threads only go to cases that go on. A restart or a failure's reason copies one case.
// No case budget on the device: a case's loops are bounded by its kernel (events per period).
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/batch/case_batch.hpp"
#include "engine/batch/held_reduction.hpp"
#include "engine/batch/live_set.hpp"
#include "engine/batch/made_cases.hpp"
#include "engine/batch/read_row.hpp"
#include "engine/batch/sample_row_plan.hpp"
#include "engine/core/case_budget.hpp"

namespace vibro {

// Throws on a failed CUDA call, naming it: a GPU error ends the run (it is not a case's failure).
inline void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// Where a CudaArray lives: device memory, or page-locked host memory (the samples come back at the
// link's full rate; a pageable buffer goes through a staging copy, about half as fast).
enum class CudaMemory { Device, PinnedHost };

// n elements of CUDA-allocated memory, released with the owner; grows, never shrinks.
template <class T, CudaMemory kWhere>
class CudaArray {
 public:
  CudaArray() = default;
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;
  ~CudaArray() { release(); }
  void resize(std::size_t n) {
    size_ = n;
    if (n <= capacity_) return;
    release();
    void* memory = nullptr;
    if constexpr (kWhere == CudaMemory::Device)
      cuda_check(cudaMalloc(&memory, n * sizeof(T)), "cudaMalloc");
    else
      cuda_check(cudaMallocHost(&memory, n * sizeof(T)), "cudaMallocHost");
    data_ = static_cast<T*>(memory);
    capacity_ = n;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return size_; }

 private:
  void release() {
    if constexpr (kWhere == CudaMemory::Device)
      cudaFree(data_);
    else
      cudaFreeHost(data_);
    data_ = nullptr;
    capacity_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};
template <class T>
using DeviceArray = CudaArray<T, CudaMemory::Device>;
template <class T>
using PinnedArray = CudaArray<T, CudaMemory::PinnedHost>;

// Where the launch's kept samples go: row r of `samples` at `offset`, rows `stride` samples apart, r the
// case's position in the live list (the last launch's samples only) or, held, its index in the batch
// (CaseBatch::hold_samples: rows appended to from launch to launch).
template <class Sample>
struct SampleRows {
  Sample* samples;
  std::size_t stride, offset;
  bool by_case;
  __device__ Sample* row(int j, int i) const {
    return samples + static_cast<std::size_t>(by_case ? i : j) * stride + offset;
  }
};

// Steps case live[j] `periods` periods; the samples of all but the first `unkept` go to its row. An
// unkept sample is written to a scratch sample and dropped: one kernel body (Kernel::advance inlined
// once) serves both kinds of period.
template <class Kernel>
__global__ void advance_cases(typename Kernel::Case* cases, const int* live, int count, int periods, int unkept,
                              SampleRows<typename Kernel::Sample> rows, int* taken) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(VIBRO_CUDA_WARP_SYNC)
  // Every lane of the warp, a case or not, failed or not, goes through every period and meets the
  // others at its end: the barrier never waits for a lane that left.
  const bool mine = j < count;
  typename Kernel::Case c;
  if (mine) c = cases[live[j]];
  typename Kernel::Sample* row = rows.row(mine ? j : 0, mine ? live[j] : 0);
  int k = 0;
  bool going = mine;
  typename Kernel::Sample unkept_sample;  // the unkept periods' samples: overwritten, never read
  for (int period = 0; period < periods; ++period) {
    if (going) {
      going = Kernel::advance(c, k < unkept ? unkept_sample : row[k - unkept]);
      if (going) ++k;
    }
    __syncwarp();
  }
  if (!mine) return;
#else
  if (j >= count) return;
  typename Kernel::Case c = cases[live[j]];  // stepped in registers and local memory, written back once
  typename Kernel::Sample* row = rows.row(j, live[j]);
  int k = 0;
  typename Kernel::Sample unkept_sample;  // the unkept periods' samples: overwritten, never read
  for (; k < periods; ++k)  // a kept sample goes straight to its row, as in CpuBatch
    if (!Kernel::advance(c, k < unkept ? unkept_sample : row[k - unkept])) break;
#endif
  cases[live[j]] = c;
  taken[j] = k;
}

// The held window of case live[j], if it completed the launch that filled its row (taken[j] ==
// periods), reduced beside its samples (CaseBatch::reduce_held): its summary to summaries[j], its
// first and last samples to ends[2j], ends[2j + 1]. rows: offset 0 (each row's first sample).
template <class Kernel>
__global__ void reduce_windows(const typename Kernel::Case* cases, const int* live, int count, const int* taken,
                               int periods, SampleRows<typename Kernel::Sample> rows, HeldWindow window,
                               const typename Kernel::Rules* rules, const int* rules_of_case, HeldSummary* summaries,
                               typename Kernel::Sample* ends) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count || taken[j] < periods) return;
  const int i = live[j];
  const typename Kernel::Sample* samples = rows.row(j, i) + window.first;
  Kernel::reduce(cases[i], samples, window.samples, rules[rules_of_case[i]], summaries[j]);
  ends[2 * j] = samples[0];
  ends[2 * j + 1] = samples[window.samples - 1];
}

// The cases at index[0..count) to and from a contiguous buffer: a launch's jumping cases cross the
// link in one copy each way.
template <class Case>
__global__ void gather_cases(const Case* cases, const int* index, int count, Case* out) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < count) out[j] = cases[index[j]];
}
template <class Case>
__global__ void scatter_cases(const Case* in, const int* index, int count, Case* cases) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < count) cases[index[j]] = in[j];
}

// A CUDA stream and the two events that time its launches; non-blocking, so that another batch's
// synchronous calls on the default stream never wait for this one's kernel. Made at first use: a
// batch made only to see whether a model has a kernel (parsing a sweep) touches no GPU.
class CudaStream {
 public:
  CudaStream() = default;
  ~CudaStream() {
    if (!stream_) return;
    cudaEventDestroy(began_);
    cudaEventDestroy(ended_);
    cudaStreamDestroy(stream_);
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() {
    if (!stream_) {
      cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "create a stream");
      cuda_check(cudaEventCreate(&began_), "create an event");
      cuda_check(cudaEventCreate(&ended_), "create an event");
    }
    return stream_;
  }
  void begin() { record(began_); }
  void end() { record(ended_); }
  // Waits for everything queued; returns the seconds between begin() and end().
  double finish() {
    cuda_check(cudaStreamSynchronize(get()), "wait for a launch");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, began_, ended_), "time a launch");
    return 1e-3 * ms;
  }
  void sync() { cuda_check(cudaStreamSynchronize(get()), "wait for a copy"); }
  // Whether everything queued is done, without waiting.
  bool idle() {
    const cudaError_t state = cudaStreamQuery(get());
    if (state == cudaErrorNotReady) return false;
    cuda_check(state, "query a launch");
    return true;
  }
  // A copy on this stream, waited for: the batch's rare single-case copies and its jumps.
  void copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, const char* what) {
    cuda_check(cudaMemcpyAsync(to, from, bytes, kind, get()), what);
    sync();
  }

 private:
  void record(cudaEvent_t& event) {
    const cudaStream_t stream = get();  // makes the events too
    cuda_check(cudaEventRecord(event, stream), "record an event");
  }
  cudaStream_t stream_ = nullptr;
  cudaEvent_t began_ = nullptr, ended_ = nullptr;
};

template <class Kernel>
class CudaBatch : public CaseBatch {
 public:
  explicit CudaBatch(const CaseLimits& /*limits*/, Kernel kernel = {}) : kernel_(std::move(kernel)) {}

  std::vector<int> add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) override {
    uploaded_ = false;
    return maker_.add(kernel_, values, errors, layouts_, host_cases_, [this](int slot) {
      live_.add(slot);
      slot_.push_back(0);
    });
  }
  const StrobeLayout& layout(int i) const override { return layouts_[i]; }

  // Queues the live list's copy, the kernel and the copies back on this batch's stream and returns.
  void launch(int periods, int unkept) override {
    stream_.begin();
    if (!uploaded_) {  // the cases go to the device once, after the last add()
      cases_.resize(host_cases_.size());
      cuda_check(cudaMemcpyAsync(cases_.data(), host_cases_.data(), host_cases_.size() * sizeof(host_cases_[0]),
                                 cudaMemcpyHostToDevice, stream_.get()),
                 "copy cases to the device");
      uploaded_ = true;
    }
    const std::vector<int>& live = live_.compact();
    const auto n = live.size();
    for (std::size_t j = 0; j < n; ++j) slot_[static_cast<std::size_t>(live[j])] = j;
    live_pinned_.resize(n);
    std::copy(live.begin(), live.end(), live_pinned_.data());  // an asynchronous copy needs page-locked memory
    live_d_.resize(n);
    samples_d_.resize(rows_.begin_launch(periods, unkept, host_cases_.size(), n, "CudaBatch"));
    taken_d_.resize(n);
    if (!reducing_) samples_.resize(samples_d_.size());  // reduced rows never come back whole
    taken_.resize(n);
    const SampleRows<typename Kernel::Sample> rows{samples_d_.data(), rows_.stride(), rows_.held_samples(), rows_.held()};
    if (n > 0) {
      const cudaStream_t s = stream_.get();
      cuda_check(cudaMemcpyAsync(live_d_.data(), live_pinned_.data(), n * sizeof(int), cudaMemcpyHostToDevice, s),
                 "copy live cases");
      step_live(cases_.data(), live_d_.data(), static_cast<int>(n), periods, unkept, rows, taken_d_.data(), s);
      const std::size_t kept = rows_.kept();
      if (reducing_) {
        // The rows stay on the device; the launch that fills them reduces them there.
        if (rows_.held_samples() + kept == rows_.stride()) queue_reduction(static_cast<int>(n), periods, s);
      } else if (kept > 0 && rows_.held()) {  // this launch's columns of every row
        const std::size_t pitch = rows_.stride() * sizeof(samples_[0]), offset = rows_.held_samples();
        cuda_check(cudaMemcpy2DAsync(samples_.data() + offset, pitch, samples_d_.data() + offset, pitch,
                                     kept * sizeof(samples_[0]), host_cases_.size(), cudaMemcpyDeviceToHost, s),
                   "copy samples to the host");
      } else if (kept > 0) {
        cuda_check(cudaMemcpyAsync(samples_.data(), samples_d_.data(), samples_.size() * sizeof(samples_[0]),
                                   cudaMemcpyDeviceToHost, s),
                   "copy samples to the host");
      }
      cuda_check(cudaMemcpyAsync(taken_.data(), taken_d_.data(), n * sizeof(int), cudaMemcpyDeviceToHost, s),
                 "copy counts");
    }
    stream_.end();
    rows_.end_launch();
  }
  // Held on the device when the batch reduces them there (reduce_held: only summaries come back).
  // Held and copied back only in a build with -DVIBRO_CUDA_HOLD_SAMPLES=ON: the rows of a
  // 131072-case group take some 0.9 GB of page-locked memory a batch (the conveyor's fixed map),
  // against the detectors' time they save; not yet timed on a GPU.
  bool hold_samples(int row) override {
#if !defined(VIBRO_CUDA_HOLD_SAMPLES)
    if (!reducing_) return false;
#endif
    if (rows_.hold<typename Kernel::Sample>(row)) return true;
    reducing_ = false;  // a row too long to hold: the runner classifies the last launches' samples
    return false;
  }
  bool reduces_held() const override { return ReducesHeldRows<Kernel>::value; }
  void reduce_held(const HeldWindow& window) override {
    window_ = window;
    reducing_ = ReducesHeldRows<Kernel>::value;
  }
  void held_summary(int i, HeldSummary& summary, StrobeSample& first, StrobeSample& last) const override {
    const std::size_t j = slot_[at(i)];
    summary = summaries_[j];
    window_ends<Kernel>(host_cases_[at(i)], ends_[2 * j], ends_[2 * j + 1], first, last);
  }
  void wait() override { device_seconds_ += stream_.finish(); }
  bool ready() override { return stream_.idle(); }
  double device_seconds() const override { return device_seconds_; }
  // The next group's cases replace these; the device and page-locked buffers stay for them.
  void clear() override {
    host_cases_.clear();
    layouts_.clear();
    live_.clear();
    slot_.clear();
    uploaded_ = false;
    rows_.release();
    reducing_ = false;
    std::lock_guard<std::mutex> lock(fetched_mutex_);
    fetched_.clear();
  }

  int taken(int i) const override { return taken_[slot_[at(i)]]; }
  void sample(int i, int k, StrobeSample& out) const override {
    Kernel::to_strobe(host_cases_[at(i)], host_row(at(i))[k], out);
  }
  void samples(int i, int first, int count, StrobeSample* out) const override {
    read_row<Kernel>(host_cases_[at(i)], host_row(at(i)) + first, count, out);
  }
  [[noreturn]] void rethrow(int i) const override {
    typename Kernel::Case c;
    stream_.copy(&c, cases_.data() + at(i), sizeof(c), cudaMemcpyDeviceToHost, "copy a case to the host");
    Kernel::throw_failure(c);
  }
  bool restart(int i, const StrobeSample& sample) override {
    typename Kernel::Case c;
    stream_.copy(&c, cases_.data() + at(i), sizeof(c), cudaMemcpyDeviceToHost, "copy a case to the host");
    const bool accepted = Kernel::restart(c, sample);
    stream_.copy(cases_.data() + at(i), &c, sizeof(c), cudaMemcpyHostToDevice, "copy a case to the device");
    return accepted;
  }
  // As CaseBatch::jump, with the jumping cases' states brought to the host and back in one copy each.
  void jump(std::vector<Jump>& jumps) override {
    const auto n = jumps.size();
    if (n == 0) return;
    jump_index_.resize(n);
    for (std::size_t j = 0; j < n; ++j) jump_index_.data()[j] = jumps[j].slot;
    jump_index_d_.resize(n);
    jump_cases_d_.resize(n);
    jump_cases_.resize(n);
    const int blocks = static_cast<int>((n + kThreads - 1) / kThreads);
    const cudaStream_t s = stream_.get();
    cuda_check(cudaMemcpyAsync(jump_index_d_.data(), jump_index_.data(), n * sizeof(int), cudaMemcpyHostToDevice, s),
               "copy jumping cases' indices");
    gather_cases<<<blocks, kThreads, 0, s>>>(cases_.data(), jump_index_d_.data(), static_cast<int>(n),
                                             jump_cases_d_.data());
    cuda_check(cudaGetLastError(), "gather launch");
    stream_.copy(jump_cases_.data(), jump_cases_d_.data(), n * sizeof(typename Kernel::Case), cudaMemcpyDeviceToHost,
                 "copy jumping cases to the host");
    const auto count = static_cast<long long>(n);
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 64)
#endif
    for (long long jj = 0; jj < count; ++jj) {
      const auto j = static_cast<std::size_t>(jj);
      typename Kernel::Case& c = jump_cases_.data()[j];
      make_jump(jumps[j], [&c](const StrobeSample& to) { return Kernel::restart(c, to); });
    }
    cuda_check(cudaMemcpyAsync(jump_cases_d_.data(), jump_cases_.data(), n * sizeof(typename Kernel::Case),
                               cudaMemcpyHostToDevice, s),
               "copy jumping cases to the device");
    scatter_cases<<<blocks, kThreads, 0, s>>>(jump_cases_d_.data(), jump_index_d_.data(), static_cast<int>(n),
                                              cases_.data());
    cuda_check(cudaGetLastError(), "scatter launch");
    stream_.sync();  // the page-locked buffers are reused by the next jump
  }
  void retire(int i) override { live_.retire(i); }
  int live() const override { return live_.live(); }

 protected:
  using Case = typename Kernel::Case;
  // Steps the `count` cases cases[live[0..count)] `periods` periods on `stream`, their samples to
  // `rows` and their periods taken to taken[0..count): one thread a case, all of a case's steps in one
  // kernel (advance_cases). A model may step its cases otherwise (the conveyor's phase kernels).
  virtual void step_live(Case* cases, const int* live, int count, int periods, int unkept,
                         SampleRows<typename Kernel::Sample> rows, int* taken, cudaStream_t stream) {
    const int blocks = (count + kThreads - 1) / kThreads;
    advance_cases<Kernel><<<blocks, kThreads, 0, stream>>>(cases, live, count, periods, unkept, rows, taken);
    cuda_check(cudaGetLastError(), "launch");
  }

  using Sample = typename Kernel::Sample;
  using Rules = typename ReducesHeldRows<Kernel>::Rules;

 private:
  static std::size_t at(int i) { return static_cast<std::size_t>(i); }
  static constexpr int kThreads = 128;

  // Queues the reduction of the live cases' full rows and the copies of its results to the host.
  void queue_reduction(int n, int periods, cudaStream_t s) {
    if constexpr (ReducesHeldRows<Kernel>::value) {
      const std::vector<Rules> rules = held_rules<Kernel>(layouts_, window_);
      rules_.resize(rules.size());
      std::copy(rules.begin(), rules.end(), rules_.data());
      rules_of_.resize(host_cases_.size());
      for (std::size_t i = 0; i < host_cases_.size(); ++i) rules_of_.data()[i] = layouts_.kept_index(static_cast<int>(i));
      rules_d_.resize(rules.size());
      rules_of_d_.resize(host_cases_.size());
      summaries_d_.resize(static_cast<std::size_t>(n));
      summaries_.resize(static_cast<std::size_t>(n));
      ends_d_.resize(2 * static_cast<std::size_t>(n));
      ends_.resize(2 * static_cast<std::size_t>(n));
      cuda_check(cudaMemcpyAsync(rules_d_.data(), rules_.data(), rules.size() * sizeof(Rules), cudaMemcpyHostToDevice, s),
                 "copy window rules");
      cuda_check(cudaMemcpyAsync(rules_of_d_.data(), rules_of_.data(), host_cases_.size() * sizeof(int),
                                 cudaMemcpyHostToDevice, s),
                 "copy the cases' rules");
      const SampleRows<Sample> rows{samples_d_.data(), rows_.stride(), 0, true};
      reduce_windows<Kernel><<<(n + kThreads - 1) / kThreads, kThreads, 0, s>>>(
          cases_.data(), live_d_.data(), n, taken_d_.data(), periods, rows, window_, rules_d_.data(), rules_of_d_.data(),
          summaries_d_.data(), ends_d_.data());
      cuda_check(cudaGetLastError(), "reduction launch");
      cuda_check(cudaMemcpyAsync(summaries_.data(), summaries_d_.data(), static_cast<std::size_t>(n) * sizeof(HeldSummary),
                                 cudaMemcpyDeviceToHost, s),
                 "copy summaries to the host");
      cuda_check(cudaMemcpyAsync(ends_.data(), ends_d_.data(), 2 * static_cast<std::size_t>(n) * sizeof(Sample),
                                 cudaMemcpyDeviceToHost, s),
                 "copy window ends to the host");
    } else {
      (void)n, (void)periods, (void)s;
    }
  }

  // Case i's row of samples on the host. Where the batch reduces its rows they stay on the device:
  // a case that failed, whose detector reads its row, has it copied once (failures are rare).
  const Sample* host_row(std::size_t i) const {
    if (!reducing_) return samples_.data() + rows_.row(i, slot_[i]);
    std::lock_guard<std::mutex> lock(fetched_mutex_);  // detectors read rows on several threads
    std::vector<Sample>& row = fetched_[i];
    if (row.empty()) {
      row.resize(rows_.stride());
      stream_.copy(row.data(), samples_d_.data() + rows_.row(i, slot_[i]), row.size() * sizeof(Sample),
                   cudaMemcpyDeviceToHost, "copy a failed case's row to the host");
    }
    return row.data();
  }

  mutable CudaStream stream_;  // declared first: destroyed after the buffers its work may still use
  CaseArray<Kernel> host_cases_;  // as added; constants for to_strobe (states go stale)
  BatchLayouts layouts_;
  Kernel kernel_;            // what makes its cases (a described model's kernel holds the model)
  CaseMaker<Kernel> maker_;  // its scratch kept from group to group
  LiveSet live_;
  std::vector<std::size_t> slot_;
  PinnedArray<int> live_pinned_;
  PinnedArray<int> taken_;
  PinnedArray<typename Kernel::Sample> samples_;
  DeviceArray<typename Kernel::Case> cases_;
  DeviceArray<int> live_d_;
  DeviceArray<typename Kernel::Sample> samples_d_;
  DeviceArray<int> taken_d_;
  PinnedArray<int> jump_index_;  // a launch's jumping cases (jump)
  PinnedArray<typename Kernel::Case> jump_cases_;
  DeviceArray<int> jump_index_d_;
  DeviceArray<typename Kernel::Case> jump_cases_d_;
  bool uploaded_ = false;
  SampleRowPlan rows_;  // where the launches' samples go in samples_d_ and samples_
  bool reducing_ = false;  // the held rows are reduced on the device (reduce_held)
  HeldWindow window_;
  PinnedArray<Rules> rules_;             // one a layout
  PinnedArray<int> rules_of_;            // by case: its layout's rules
  DeviceArray<Rules> rules_d_;
  DeviceArray<int> rules_of_d_;
  PinnedArray<HeldSummary> summaries_;   // by position in the last launch's live list
  DeviceArray<HeldSummary> summaries_d_;
  PinnedArray<Sample> ends_;             // each window's first and last samples, by that position
  DeviceArray<Sample> ends_d_;
  mutable std::mutex fetched_mutex_;
  mutable std::unordered_map<std::size_t, std::vector<Sample>> fetched_;  // failed cases' rows (host_row)
  double device_seconds_ = 0;
};

}  // namespace vibro
