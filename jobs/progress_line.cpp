#include "jobs/progress_line.hpp"

#include <unistd.h>

#include <cstdio>

namespace vibro {

ProgressLine::ProgressLine(long long total)
    : total_(total), enabled_(isatty(STDERR_FILENO) != 0), started_(std::chrono::steady_clock::now()),
      last_draw_(started_) {}

void ProgressLine::case_done() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(250)) return;
  last_draw_ = now;
  draw(done_, false);
}

void ProgressLine::finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  draw(done_, true);
}

void ProgressLine::draw(long long done, bool final) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
  std::fprintf(stderr, "\r%lld / %lld cases  %.1f cases/s  ETA %.0f s   %s", done, total_, rate, eta, final ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace vibro
