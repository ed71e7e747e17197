#include "jobs/sweep/progress_line.hpp"

#include <cstdio>
#include <unistd.h>

namespace vibro {

ProgressLine::ProgressLine(long long total, long long already_done, std::function<ProgressCount()> remote,
                           double log_seconds)
    : total_(total), already_done_(already_done), remote_(std::move(remote)), enabled_(total > 0),
      in_place_(isatty(STDERR_FILENO) != 0), interval_(in_place_ ? 0.25 : log_seconds),
      started_(std::chrono::steady_clock::now()), last_draw_(started_) {}

void ProgressLine::case_done(bool failed) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ++local_.done;
  local_.failed += failed ? 1 : 0;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < interval_) return;
  last_draw_ = now;
  draw(false);
}

void ProgressLine::finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  draw(true);
}

void ProgressLine::draw(bool final) {
  ProgressCount all = local_;
  if (remote_) {
    const ProgressCount others = remote_();
    all.done += others.done;
    all.failed += others.failed;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const double rate = elapsed > 0 ? static_cast<double>(all.done) / elapsed : 0;
  const long long done = already_done_ + all.done;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
  // In place, trailing blanks wipe what a longer earlier line left.
  std::fprintf(stderr, "%s%lld / %lld cases  %.1f cases/s  ETA %.0f s  failed %lld%s%s", in_place_ ? "\r" : "", done,
               total_, rate, eta, all.failed, in_place_ ? "   " : "", final || !in_place_ ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace vibro
