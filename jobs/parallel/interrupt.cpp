#include "jobs/parallel/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace vibro {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGUSR1};
std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler may only touch a lock-free atomic");
struct sigaction previous[sizeof(kSignals) / sizeof(kSignals[0])];

extern "C" void on_signal(int number) {
  int none = 0;
  if (!received.compare_exchange_strong(none, number) && none == number) {
    // The same signal again (a second Ctrl-C): the user wants out now. Both calls are
    // async-signal-safe.
    ::signal(number, SIG_DFL);
    ::raise(number);
  }
}

}  // namespace

InterruptGuard::InterruptGuard() {
  // A process that runs several sweeps (the Python module) starts each one uninterrupted.
  received.store(0);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // the checkpoint writer's disk calls simply go on
  for (std::size_t k = 0; k < sizeof(kSignals) / sizeof(kSignals[0]); ++k) sigaction(kSignals[k], &action, &previous[k]);
}

InterruptGuard::~InterruptGuard() {
  for (std::size_t k = 0; k < sizeof(kSignals) / sizeof(kSignals[0]); ++k) sigaction(kSignals[k], &previous[k], nullptr);
}

int interrupt_signal() { return received.load(); }

long long InterruptibleSource::next() {
  if (received.load() != 0) {
    inner_.stop();
    return -1;
  }
  return inner_.next();
}

}  // namespace vibro
