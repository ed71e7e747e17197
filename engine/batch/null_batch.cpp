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

bool NullBatch::Plan::same_setup(const Plan& other) const {
  const HeldWindow &a = window, &b = other.window;
  return row == other.row && a.first == b.first && a.samples == b.samples && a.tol == b.tol &&
         a.max_period == b.max_period && a.quasi_min_window == b.quasi_min_window && a.quasi_tol == b.quasi_tol;
}

NullBatch::NullBatch(std::unique_ptr<CaseBatch> making, std::unique_ptr<CaseBatch> stepping,
                     std::shared_ptr<NullDevice> device, bool replay)
    : making_(std::move(making)), stepping_(std::move(stepping)), device_(std::move(device)), replay_(replay) {}

void NullBatch::reduce_held(const HeldWindow& window) {
  plan_.window = window;
  if (!replaying_) stepping_->reduce_held(window);  // a replay's is compared at hold_samples
}

bool NullBatch::hold_samples(int row) {
  plan_.row = row;
  if (replaying_ && !plan_.same_setup(recorded_)) stop_replaying();
  plan_.held = replaying_ ? recorded_.held : stepping_->hold_samples(row);
  return plan_.held;
}

std::vector<int> NullBatch::add(const std::vector<ParameterSet>& values, std::vector<std::exception_ptr>& errors) {
  if (added_) throw std::logic_error("NullBatch: one add() a group");
  if (replaying_ && !plan_.same_setup(recorded_)) stop_replaying();
  added_ = true;
  std::vector<int> slots = making_->add(values, errors);
  std::vector<std::size_t>& made = made_;  // positions in `values`
  made.clear();
  made.reserve(slots.size());
  for (std::size_t j = 0; j < slots.size(); ++j)
    if (slots[j] >= 0) made.push_back(j);
  if (made.empty()) return slots;
  cases_ = *std::max_element(slots.begin(), slots.end()) + 1;
  retired_.assign(static_cast<std::size_t>(cases_), 1);
  for (const std::size_t j : made) retired_[static_cast<std::size_t>(slots[j])] = 0;
  if (templates_.empty()) {
    // Templates spread evenly over the group, so that its mix of motions is the group's.
    const std::size_t count = std::min<std::size_t>(kTemplates, made.size());
    for (std::size_t t = 0; t < count; ++t) template_values_.push_back(values[made[t * made.size() / count]]);
    add_templates();
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

void NullBatch::add_templates() {
  std::vector<std::exception_ptr> errors;
  templates_.clear();
  for (const int i : stepping_->add(template_values_, errors)) {
    if (i < 0) throw std::logic_error("NullBatch: a template made once failed the second time");
    templates_.push_back(i);
  }
}

void NullBatch::launch(int periods, int unkept) {
  const std::size_t n = plan_.launches.size();
  if (replaying_ && (n >= recorded_.launches.size() || recorded_.launches[n] != std::pair(periods, unkept)))
    stop_replaying();
  plan_.launches.emplace_back(periods, unkept);
  if (!replaying_) step_templates(periods, unkept);
  taken_now_ = stepped_[n].taken.data();
  done_at_ = device_->queue(periods);
  device_seconds_ += device_->seconds(periods);
}

void NullBatch::step_templates(int periods, int unkept) {
  // A template that failed in the last launch must leave the stepping batch (its dependants failed with it).
  if (!stepped_.empty())
    for (std::size_t t = 0; t < templates_.size(); ++t)
      if (stepped_.back().taken[t] < stepped_.back().periods) stepping_->retire(templates_[t]);
  stepping_->launch(periods, unkept);
  Stepped& launch = stepped_.emplace_back();
  launch.periods = periods;
  for (const int i : templates_) launch.taken.push_back(stepping_->taken(i));
}

// The group's plan left the replayed one's: the stepping batch starts again and follows the group's
// plan so far, over the templates its cases read if it made them already.
void NullBatch::stop_replaying() {
  replaying_ = false;
  stepping_->clear();
  stepped_.clear();
  if (plan_.window.samples > 0) stepping_->reduce_held(plan_.window);
  if (plan_.row >= 0) plan_.held = stepping_->hold_samples(plan_.row);
  if (!added_) {
    templates_.clear();
    template_values_.clear();
    return;
  }
  add_templates();
  for (const auto& [periods, unkept] : plan_.launches) step_templates(periods, unkept);
}

bool NullBatch::replayable() const {
  if (!replay_ || !plan_.held || plan_.launches.empty() || templates_.empty()) return false;
  for (const Stepped& launch : stepped_)
    for (const int taken : launch.taken)
      if (taken < launch.periods) return false;
  return true;
}

void NullBatch::wait() {
  std::this_thread::sleep_until(done_at_);
}

void NullBatch::clear() {
  making_->clear();
  if (!replaying_ && replayable()) {
    replaying_ = true;
    recorded_ = std::move(plan_);
  }
  if (!replaying_) {
    stepping_->clear();
    stepped_.clear();
    templates_.clear();
    template_values_.clear();
  }
  plan_ = Plan{};
  taken_now_ = nullptr;
  added_ = false;
  retired_.clear();
  cases_ = 0;
}

void NullBatch::rethrow(int i) const {
  stepping_->rethrow(template_of(i));
  throw std::logic_error("NullBatch: the stepping batch's rethrow returned");
}

int NullBatch::live() const {
  return static_cast<int>(std::count(retired_.begin(), retired_.end(), 0));
}

}  // namespace vibro
