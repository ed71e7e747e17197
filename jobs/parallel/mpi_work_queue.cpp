#include "jobs/parallel/mpi_work_queue.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace vibro {

namespace {
constexpr int kRequestTag = 10, kReplyTag = 11;
constexpr double kFinalCount = -2;  // a request's first field: no request, the rank's final count
constexpr double kChunkSeconds = 0.5;
}  // namespace

WorkQueueServer::WorkQueueServer(long long units, int ranks)
    : units_(units), ranks_(ranks), reported_(static_cast<std::size_t>(ranks)), server_([this] { serve(); }) {}

WorkQueueServer::~WorkQueueServer() { finish(); }

void WorkQueueServer::finish() {
  if (server_.joinable()) server_.join();
}

long long WorkQueueServer::next() {
  if (stopping_) return -1;
  const long long u = next_.fetch_add(1);
  return u < units_ ? u : -1;
}

void WorkQueueServer::serve() {
  int open = ranks_ - 1;    // ranks not yet told that the queue is empty
  int counting = ranks_ - 1;  // ranks whose final count has not come
  while (open > 0 || counting > 0) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &flag, &status);
    if (!flag) {  // polite polling: MPI's blocking receive would spin a core
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    // Threads of the requester (-1: it stops, see WorkQueueClient::stop; kFinalCount: its final count,
    // no reply), its mean seconds per unit so far (0: unknown), its cases done and failed so far.
    double request[4];
    MPI_Recv(request, 4, MPI_DOUBLE, status.MPI_SOURCE, kRequestTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    auto& seen = reported_[static_cast<std::size_t>(status.MPI_SOURCE)];
    remote_done_ += static_cast<long long>(request[2]) - seen.done;
    remote_failed_ += static_cast<long long>(request[3]) - seen.failed;
    seen = {static_cast<long long>(request[2]), static_cast<long long>(request[3])};
    if (request[0] == kFinalCount) {
      --counting;
      continue;
    }
    if (request[0] < 0) stopping_ = true;
    const long long left = std::max(0LL, units_ - next_.load());
    long long chunk = static_cast<long long>(std::max(1.0, request[0]));
    if (request[1] > 0) chunk = std::llround(kChunkSeconds * request[0] / request[1]);
    chunk = std::clamp(chunk, 1LL, std::max(1LL, left / (2LL * ranks_)));
    long long reply[2] = {-1, -1};
    const long long begin = stopping_ ? units_ : next_.fetch_add(chunk);
    if (begin < units_) {
      reply[0] = begin;
      reply[1] = std::min(begin + chunk, units_);
    } else {
      --open;
    }
    MPI_Send(reply, 2, MPI_LONG_LONG, status.MPI_SOURCE, kReplyTag, MPI_COMM_WORLD);
  }
}

long long WorkQueueClient::next() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (begin_ < end_) return begin_++;
  if (done_) return -1;
  double request[4] = {static_cast<double>(omp_get_num_threads()), count_ > 0 ? seconds_ / static_cast<double>(count_) : 0.0,
                       static_cast<double>(progress_.done), static_cast<double>(progress_.failed)};
  MPI_Send(request, 4, MPI_DOUBLE, 0, kRequestTag, MPI_COMM_WORLD);
  long long reply[2];
  MPI_Recv(reply, 2, MPI_LONG_LONG, 0, kReplyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (reply[0] < 0) {
    done_ = true;
    return -1;
  }
  begin_ = reply[0];
  end_ = reply[1];
  return begin_++;
}

void WorkQueueClient::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  begin_ = end_;
  if (done_) return;
  done_ = true;
  double request[4] = {-1.0, 0.0, static_cast<double>(progress_.done), static_cast<double>(progress_.failed)};
  MPI_Send(request, 4, MPI_DOUBLE, 0, kRequestTag, MPI_COMM_WORLD);
  long long reply[2];
  MPI_Recv(reply, 2, MPI_LONG_LONG, 0, kReplyTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void WorkQueueClient::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  double count[4] = {kFinalCount, 0.0, static_cast<double>(progress_.done), static_cast<double>(progress_.failed)};
  MPI_Send(count, 4, MPI_DOUBLE, 0, kRequestTag, MPI_COMM_WORLD);
}

void WorkQueueClient::finished(double seconds, int cases, int failed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seconds_ += seconds;
  ++count_;
  progress_.done += cases;
  progress_.failed += failed;
}

}  // namespace vibro
