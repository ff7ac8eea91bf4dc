// WorkerPool: a fixed set of threads shared by every request, serving task
// groups round-robin so that one large request cannot starve the others
// (docs/architecture.md §4, "WorkerPool"). A request creates one TaskGroup,
// submits its reads to it and waits for them; the pool takes one task from each
// waiting group in turn. Thread-safe. Never call TaskGroup::Wait() from inside
// a pool task: the pool would wait on itself.
#ifndef QS_CORE_BASE_WORKER_POOL_H_
#define QS_CORE_BASE_WORKER_POOL_H_

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace qs {

class WorkerPool {
 public:
  class TaskGroup;

  // Starts num_threads workers (at least one).
  explicit WorkerPool(int num_threads);
  // Runs every task already submitted, then joins the workers.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int num_threads() const { return static_cast<int>(threads_.size()); }

  // A new group whose tasks share one fair slot in the round-robin.
  std::shared_ptr<TaskGroup> NewGroup();

  // Tasks submitted and not yet started, over all groups.
  size_t queued_tasks() const;
  // Tasks running now.
  size_t running_tasks() const;
  // Groups with a task queued or running: the requests sharing the threads
  // now. A group's fair share of the pool is about num_threads() /
  // active_groups() threads.
  size_t active_groups() const;

  class TaskGroup : public std::enable_shared_from_this<TaskGroup> {
   public:
    // Queues a task. Tasks of one group may run concurrently on different
    // workers.
    void Submit(std::function<void()> task);
    // Blocks until every task submitted so far has finished.
    // RESOURCE_EXHAUSTED when a task of the group ran out of memory (the
    // other tasks still ran).
    [[nodiscard]] absl::Status Wait();
    // Drops the tasks not started yet; running ones finish. Returns how many
    // were dropped.
    size_t CancelPending();
    // True when another group has a task waiting for a thread: a long task of
    // this group that can stop at a boundary and resubmit the rest of its
    // work (sample_util.h FeedBatches) gives the thread to it, so that k
    // requests on c threads each get about c/k of the compute.
    bool OthersWaiting() const;

   private:
    friend class WorkerPool;
    explicit TaskGroup(WorkerPool* pool) : pool_(pool) {}
    WorkerPool* const pool_;
    // Guarded by pool_->mu_.
    std::deque<std::function<void()>> tasks_;
    size_t unfinished_ = 0;  // queued + running
    bool in_ready_list_ = false;
    bool allocation_failed_ = false;
    // Signalled when unfinished_ reaches zero; one per group, so that a
    // finished group wakes only its own waiter.
    absl::CondVar done_;
  };

 private:
  void WorkerLoop();

  mutable absl::Mutex mu_;
  absl::CondVar work_available_;
  std::deque<std::shared_ptr<TaskGroup>> ready_ ABSL_GUARDED_BY(mu_);
  size_t queued_ ABSL_GUARDED_BY(mu_) = 0;
  size_t running_ ABSL_GUARDED_BY(mu_) = 0;
  size_t active_groups_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace qs

#endif  // QS_CORE_BASE_WORKER_POOL_H_
