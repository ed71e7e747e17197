#include "engine/batch/null_batch.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <utility>

#include "engine/core/input_error.hpp"

namespace vibro {

NullDevice::Clock::time_point NullDevice::queue(int periods) {
  const auto start = std::max(Clock::now(), free_at_);
  free_at_ = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds(periods)));
  return free_at_;
}

NullBatch::NullBatch(std::unique_ptr<CaseBatch> making, std::unique_ptr<CaseBatch> stepping,
                     std::shared_ptr<NullDevice> device)
    : making_(std::move(making)), stepping_(std::move(stepping)), device_(std::move(device)) {}

std::vector<int> NullBatch::add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) {
  if (!templates_.empty()) throw std::logic_error("NullBatch: one add() a group");
  std::vector<int> slots = making_->add(values, errors);
  std::vector<std::size_t> made;  // positions in `values`
  made.reserve(slots.size());     // grown case by case, 10^5 positions took 17 reallocations
  for (std::size_t j = 0; j < slots.size(); ++j)
    if (slots[j] >= 0) made.push_back(j);
  if (made.empty()) return slots;
  cases_ = *std::max_element(slots.begin(), slots.end()) + 1;
  retired_.assign(static_cast<std::size_t>(cases_), 1);
  for (const std::size_t j : made) retired_[static_cast<std::size_t>(slots[j])] = 0;
  // Templates spread evenly over the group, so that its mix of motions is the group's.
  const std::size_t count = std::min<std::size_t>(kTemplates, made.size());
  std::vector<ParameterSet> stepped;
  for (std::size_t t = 0; t < count; ++t) stepped.push_back(values[made[t * made.size() / count]]);
  std::vector<std::exception_ptr> stepped_errors;
  for (const int i : stepping_->add(stepped, stepped_errors)) {
    if (i < 0) throw std::logic_error("NullBatch: a template made once failed the second time");
    templates_.push_back(i);
  }
  // A case reads its template's samples with its own detector: both must have one layout. Each
  // batch keeps a layout its cases share once, so a pair of them is compared once.
  const StrobeLayout *checked_own = nullptr, *checked_stepped = nullptr;
  for (const std::size_t j : made) {
    const int i = slots[j];
    const StrobeLayout &own = layout(i), &stepped_layout = stepping_->layout(template_of(i));
    if (&own == checked_own && &stepped_layout == checked_stepped) continue;
    checked_own = &own;
    checked_stepped = &stepped_layout;
    if (!same_layout(own, stepped_layout))
      throw InputError("run.backend = null needs cases that share one stroboscopic layout; the model's do not "
                       "(accepted for it: cpu, batched)");
  }
  return slots;
}

void NullBatch::launch(int periods, int unkept) {
  // A template that failed in the last launch must leave the stepping batch (its dependants failed with it).
  for (const int t : templates_)
    if (last_periods_ > 0 && stepping_->taken(t) < last_periods_) stepping_->retire(t);
  stepping_->launch(periods, unkept);
  last_periods_ = periods;
  done_at_ = device_->queue(periods);
  device_seconds_ += device_->seconds(periods);
}

void NullBatch::wait() {
  std::this_thread::sleep_until(done_at_);
}

void NullBatch::clear() {
  making_->clear();
  stepping_->clear();
  templates_.clear();
  retired_.clear();
  cases_ = 0;
  last_periods_ = 0;
}

void NullBatch::rethrow(int i) const {
  stepping_->rethrow(template_of(i));
  throw std::logic_error("NullBatch: the stepping batch's rethrow returned");
}

int NullBatch::live() const {
  return static_cast<int>(std::count(retired_.begin(), retired_.end(), 0));
}

}  // namespace vibro
