// WorkerPool: round-robin over task groups on a fixed set of threads.
#include "core/base/worker_pool.h"

#include <algorithm>
#include <new>
#include <utility>

namespace qs {

WorkerPool::WorkerPool(int num_threads) {
  num_threads = std::max(1, num_threads);
  threads_.reserve(num_threads);
  for (int t = 0; t < num_threads; ++t) {
    threads_.emplace_back([this] { WorkerLoop(); });
  }
}

WorkerPool::~WorkerPool() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    work_available_.SignalAll();
  }
  for (std::thread& t : threads_) t.join();
}

std::shared_ptr<WorkerPool::TaskGroup> WorkerPool::NewGroup() {
  return std::shared_ptr<TaskGroup>(new TaskGroup(this));
}

size_t WorkerPool::queued_tasks() const {
  absl::MutexLock lock(&mu_);
  return queued_;
}

size_t WorkerPool::running_tasks() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

size_t WorkerPool::active_groups() const {
  absl::MutexLock lock(&mu_);
  return active_groups_;
}

bool WorkerPool::TaskGroup::OthersWaiting() const {
  absl::MutexLock lock(&pool_->mu_);
  for (const std::shared_ptr<TaskGroup>& group : pool_->ready_)
    if (group.get() != this && !group->tasks_.empty()) return true;
  return false;
}

void WorkerPool::TaskGroup::Submit(std::function<void()> task) {
  WorkerPool* pool = pool_;
  absl::MutexLock lock(&pool->mu_);
  tasks_.push_back(std::move(task));
  if (unfinished_++ == 0) ++pool->active_groups_;
  ++pool->queued_;
  if (!in_ready_list_) {
    in_ready_list_ = true;
    pool->ready_.push_back(shared_from_this());
  }
  pool->work_available_.Signal();
}

absl::Status WorkerPool::TaskGroup::Wait() {
  WorkerPool* pool = pool_;
  absl::MutexLock lock(&pool->mu_);
  while (unfinished_ > 0) done_.Wait(&pool->mu_);
  if (allocation_failed_) {
    return absl::ResourceExhaustedError(
        "the server ran out of memory for this request");
  }
  return absl::OkStatus();
}

size_t WorkerPool::TaskGroup::CancelPending() {
  WorkerPool* pool = pool_;
  absl::MutexLock lock(&pool->mu_);
  const size_t dropped = tasks_.size();
  tasks_.clear();
  pool->queued_ -= dropped;
  if (dropped > 0 && (unfinished_ -= dropped) == 0) {
    --pool->active_groups_;
    done_.SignalAll();
  }
  return dropped;
}

void WorkerPool::WorkerLoop() {
  absl::MutexLock lock(&mu_);
  while (true) {
    while (!stopping_ && ready_.empty()) work_available_.Wait(&mu_);
    if (ready_.empty()) return;  // stopping and nothing left to run
    std::shared_ptr<TaskGroup> group = std::move(ready_.front());
    ready_.pop_front();
    if (group->tasks_.empty()) {  // emptied by CancelPending
      group->in_ready_list_ = false;
      continue;
    }
    std::function<void()> task = std::move(group->tasks_.front());
    group->tasks_.pop_front();
    --queued_;
    // Back of the line: the next worker serves another group first.
    if (!group->tasks_.empty()) {
      ready_.push_back(group);
    } else {
      group->in_ready_list_ = false;
    }
    ++running_;
    mu_.Unlock();
    // An allocation failure ends the task, is reported by the group's Wait,
    // and leaves the worker (and every other request) running.
    bool allocation_failed = false;
    try {
      task();
    } catch (const std::bad_alloc&) {
      allocation_failed = true;
    }
    task = nullptr;  // destroy captures outside the lock
    mu_.Lock();
    if (allocation_failed) group->allocation_failed_ = true;
    --running_;
    if (--group->unfinished_ == 0) {
      --active_groups_;
      group->done_.SignalAll();
    }
  }
}

}  // namespace qs
