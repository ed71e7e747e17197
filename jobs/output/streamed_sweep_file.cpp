#include "jobs/output/streamed_sweep_file.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace vibro {

bool StreamedSweepFile::applies(const SweepSpec& spec, int ranks, bool fresh) {
  return spec.stream_cases && fresh && ranks == 1 && spec.continuation_axis < 0 && !spec.record_strobe() &&
         !spec.floquet && !spec.shooting && spec.lyapunov_periods == 0 && !spec.seed_from_previous &&
         spec.extend_unsettled == 0;
}

StreamedSweepFile::StreamedSweepFile(const SweepSpec& spec, CaseSink& next)
    : spec_(spec),
      next_(next),
      cases_(spec.case_count()),
      block_cases_(spec.file_block_cases(true)),
      blocks_((cases_ + block_cases_ - 1) / block_cases_),
      file_(spec.output_file) {
  try {
    H5::Exception::dontPrint();
    builder_.emplace(file_.temporary(), spec, block_cases_);
  } catch (const H5::Exception& e) {
    throw std::runtime_error("cannot write " + spec.output_file + ": " + e.getDetailMsg());
  }
  writer_ = std::thread([this] { write_loop(); });
}

StreamedSweepFile::~StreamedSweepFile() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    abandon_ = true;
  }
  changed_.notify_all();
  if (writer_.joinable()) writer_.join();
  builder_.reset();  // closes the file before AtomicFile removes it
}

StreamedSweepFile::Block* StreamedSweepFile::block_of(long long block) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<Block>& slot = pending_[block];
  if (!slot) {
    if (spare_.empty()) {
      slot = std::make_unique<Block>();
    } else {
      slot = std::move(spare_.back());
      spare_.pop_back();
    }
    slot->first = block * block_cases_;
    slot->filled = 0;
    slot->rows.resize(static_cast<std::size_t>(std::min(block_cases_, cases_ - slot->first)),
                      spec_.model->observables().size());
  }
  return slot.get();
}

void StreamedSweepFile::finished(long long index, const CaseResult& result) {
  next_.finished(index, result);
  if (failed_.load()) return;  // the file is lost; the log has every case
  Block* block = block_of(index / block_cases_);
  block->rows.set(static_cast<std::size_t>(index - block->first), result);
  add_filled(*block, 1);
}

void StreamedSweepFile::finished_summaries(const SummaryCase* cases, std::size_t count) {
  next_.finished_summaries(cases, count);
  if (failed_.load()) return;
  // A chunk's cases mostly lie in one block: it is looked up (under the lock) once a run of them.
  for (std::size_t k = 0; k < count;) {
    const long long b = cases[k].index / block_cases_;
    Block* block = block_of(b);
    std::size_t rows = 0;
    for (; k < count && cases[k].index / block_cases_ == b; ++k, ++rows)
      block->rows.set(static_cast<std::size_t>(cases[k].index - block->first), cases[k]);
    add_filled(*block, rows);
  }
}

void StreamedSweepFile::add_filled(Block& block, std::size_t rows) {
  if (block.filled.fetch_add(rows) + rows == block.rows.size()) {
    std::lock_guard<std::mutex> lock(mutex_);  // the writer waits under it: no lost wake-up
    changed_.notify_all();
  }
}

bool StreamedSweepFile::complete(long long block) const {
  const auto at = pending_.find(block);
  return at != pending_.end() && at->second->filled.load() == at->second->rows.size();
}

void StreamedSweepFile::write_loop() {
  H5::Exception::dontPrint();
  while (true) {
    Block* block = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return abandon_ || no_more_ || written_ == blocks_ || complete(written_); });
      if (abandon_ || written_ == blocks_ || !complete(written_)) return;
      block = pending_[written_].get();
    }
    try {
      builder_->write(static_cast<hsize_t>(block->first), block->rows);
      builder_->flush();  // on this thread, while the sweep runs, not when the file closes
    } catch (const H5::Exception& e) {
      error_ = std::make_exception_ptr(std::runtime_error("cannot write " + spec_.output_file + ": " + e.getDetailMsg()));
    } catch (...) {
      error_ = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    spare_.push_back(std::move(pending_[written_]));
    pending_.erase(written_);
    ++written_;
    changed_.notify_all();
    if (error_) {
      failed_ = true;
      return;
    }
  }
}

SweepCensus StreamedSweepFile::finish(const Provenance& provenance) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    no_more_ = true;
  }
  changed_.notify_all();
  writer_.join();
  const auto refuse = [&](const std::string& why) {
    return std::runtime_error(why + " (every case is in the checkpoint log " + spec_.output_file +
                              ".ckpt.0: rerun the same command to write the file from it)");
  };
  if (error_) {
    try {
      std::rethrow_exception(error_);
    } catch (const std::exception& e) {
      throw refuse(e.what());
    }
  }
  if (written_ != blocks_) throw std::logic_error("StreamedSweepFile::finish: not every case has finished");
  SweepCensus census;
  try {
    census = builder_->finish(provenance, nullptr);
    builder_.reset();
  } catch (const H5::Exception& e) {
    throw refuse("cannot write " + spec_.output_file + ": " + e.getDetailMsg());
  }
  file_.commit();
  return census;
}

}  // namespace vibro
