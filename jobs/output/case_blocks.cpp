#include "jobs/output/case_blocks.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace vibro {

namespace {

// Hands out chunks of cases to decode, block after block, into two buffers: block b goes into buffer
// b % 2 once block b - 2 (the buffer's last) is written.
class BlockPipeline {
 public:
  BlockPipeline(const CaseStore& store, long long n, long long block_size)
      : store_(store), n_(n), block_size_(block_size), blocks_((n + block_size - 1) / block_size) {}
  long long blocks() const { return blocks_; }
  long long first_of(long long b) const { return b * block_size_; }
  long long size_of(long long b) const { return std::min(block_size_, n_ - first_of(b)); }
  const std::vector<CaseResult>& buffer(long long b) const { return buffers_[b % 2]; }

  // Decodes chunks until there are none left to hand out (a helper thread's loop).
  void help() {
    while (decode_one(true)) {
    }
  }

  // The writer's side: decodes what is there to decode until block b is whole (false: a failure).
  bool wait_for(long long b) {
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (error_) return false;
        if (holds_[b % 2] == b && decoded_[b % 2] == size_of(b)) return true;
      }
      if (decode_one(false)) continue;
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return error_ || (holds_[b % 2] == b && decoded_[b % 2] == size_of(b)); });
    }
  }

  // Block b is written: its buffer takes block b + 2.
  void written(long long b) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      written_ = b;
    }
    changed_.notify_all();
  }

  void fail(std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = error;
    }
    changed_.notify_all();
  }
  std::exception_ptr error() const { return error_; }  // once every thread has stopped

 private:
  static constexpr long long kChunk = 256;  // cases a thread takes at a time

  // Takes a chunk and decodes it; false when none is left (or the run failed), or, unless `wait`,
  // none can be taken now.
  bool decode_one(bool wait) {
    long long b = 0, first = 0, count = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      while (true) {
        if (error_ || hand_block_ >= blocks_) return false;
        if (hand_next_ >= size_of(hand_block_)) {
          ++hand_block_;
          hand_next_ = 0;
          continue;
        }
        if (hand_block_ - 2 <= written_) break;
        if (!wait) return false;
        changed_.wait(lock);  // the block's buffer still holds a block to write
      }
      b = hand_block_;
      if (hand_next_ == 0) {  // the buffer's first chunk of this block
        buffers_[b % 2].resize(static_cast<std::size_t>(size_of(b)));
        holds_[b % 2] = b;
        decoded_[b % 2] = 0;
      }
      first = hand_next_;
      count = std::min(kChunk, size_of(b) - first);
      hand_next_ += count;
    }
    try {
      std::vector<CaseResult>& block = buffers_[b % 2];
      for (long long k = first; k < first + count; ++k) store_.read_into(first_of(b) + k, block[static_cast<std::size_t>(k)]);
    } catch (...) {
      fail(std::current_exception());
      return false;
    }
    bool whole = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      decoded_[b % 2] += count;
      whole = decoded_[b % 2] == size_of(b);
    }
    if (whole) changed_.notify_all();
    return true;
  }

  const CaseStore& store_;
  const long long n_, block_size_, blocks_;
  std::vector<CaseResult> buffers_[2];
  long long holds_[2] = {-1, -1};   // the block each buffer holds (or is being decoded into)
  long long decoded_[2] = {0, 0};   // its cases decoded so far
  long long hand_block_ = 0, hand_next_ = 0;  // the next chunk to hand out: block, first case in it
  long long written_ = -1;          // the last block written
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable changed_;
};

}  // namespace

void for_each_case_block(const CaseStore& store, long long n, long long block_size, int threads,
                         const std::function<void(long long first, const std::vector<CaseResult>& block)>& write) {
  BlockPipeline pipeline(store, n, block_size);
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back([&pipeline] { pipeline.help(); });
  try {
    for (long long b = 0; b < pipeline.blocks(); ++b) {
      if (!pipeline.wait_for(b)) break;
      write(pipeline.first_of(b), pipeline.buffer(b));
      store.release_pages();
      pipeline.written(b);
    }
  } catch (...) {
    pipeline.fail(std::current_exception());
  }
  for (std::thread& helper : helpers) helper.join();
  if (const std::exception_ptr error = pipeline.error()) std::rethrow_exception(error);
}

}  // namespace vibro
