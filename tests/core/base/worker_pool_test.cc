// WorkerPool: every task runs, Wait waits for its own group only, groups are
// served in turn, pending tasks can be cancelled, the destructor runs what
// was submitted, and a task that runs out of memory fails its group's Wait
// without stopping the pool; the pool counts the groups that share it and
// tells a task when another group waits.
#include "core/base/worker_pool.h"

#include <atomic>
#include <new>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

TEST(WorkerPoolTest, RunsEveryTaskAndWaits) {
  WorkerPool pool(2);
  auto group = pool.NewGroup();
  std::atomic<int> done{0};
  for (int k = 0; k < 1000; ++k) group->Submit([&] { done.fetch_add(1); });
  ASSERT_TRUE(group->Wait().ok());
  EXPECT_EQ(done.load(), 1000);
  EXPECT_EQ(pool.queued_tasks(), 0u);
}

TEST(WorkerPoolTest, AnAllocationFailureFailsItsGroupOnly) {
  WorkerPool pool(2);
  auto failing = pool.NewGroup();
  std::atomic<int> done{0};
  failing->Submit([] { throw std::bad_alloc(); });
  for (int k = 0; k < 10; ++k) failing->Submit([&] { done.fetch_add(1); });
  const absl::Status status = failing->Wait();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(done.load(), 10);
  auto next = pool.NewGroup();
  next->Submit([&] { done.fetch_add(1); });
  EXPECT_TRUE(next->Wait().ok());
  EXPECT_EQ(done.load(), 11);
}

TEST(WorkerPoolTest, GroupsAreServedRoundRobin) {
  WorkerPool pool(1);
  absl::Notification started, release;
  auto blocker = pool.NewGroup();
  blocker->Submit([&] {  // holds the only worker
    started.Notify();
    release.WaitForNotification();
  });
  started.WaitForNotification();
  absl::Mutex mu;
  std::vector<char> order;
  auto a = pool.NewGroup();
  auto b = pool.NewGroup();
  for (int k = 0; k < 3; ++k) {
    a->Submit([&] {
      absl::MutexLock lock(&mu);
      order.push_back('a');
    });
  }
  for (int k = 0; k < 3; ++k) {
    b->Submit([&] {
      absl::MutexLock lock(&mu);
      order.push_back('b');
    });
  }
  EXPECT_EQ(pool.queued_tasks(), 6u);
  release.Notify();
  ASSERT_TRUE(a->Wait().ok());
  ASSERT_TRUE(b->Wait().ok());
  // A large group submitted first does not starve the second one.
  EXPECT_EQ(std::string(order.begin(), order.end()), "ababab");
}

TEST(WorkerPoolTest, CancelPendingDropsQueuedTasks) {
  WorkerPool pool(1);
  absl::Notification started, release;
  auto group = pool.NewGroup();
  std::atomic<int> ran{0};
  group->Submit([&] {
    started.Notify();
    release.WaitForNotification();
    ran.fetch_add(1);
  });
  for (int k = 0; k < 5; ++k) group->Submit([&] { ran.fetch_add(1); });
  started.WaitForNotification();
  EXPECT_EQ(group->CancelPending(), 5u);
  release.Notify();
  ASSERT_TRUE(group->Wait().ok());
  EXPECT_EQ(ran.load(), 1);
}

TEST(WorkerPoolTest, CountsActiveGroupsAndSaysWhenOthersWait) {
  WorkerPool pool(1);
  EXPECT_EQ(pool.active_groups(), 0u);
  auto first = pool.NewGroup();
  auto second = pool.NewGroup();
  absl::Notification running, release;
  std::atomic<bool> others_waiting_seen{false};
  first->Submit([&] {
    running.Notify();
    release.WaitForNotification();
  });
  running.WaitForNotification();
  // The one thread runs first's task; nothing else waits.
  EXPECT_EQ(pool.active_groups(), 1u);
  EXPECT_FALSE(first->OthersWaiting());
  // A second task of the same group waiting is not another request.
  first->Submit([&] { others_waiting_seen = first->OthersWaiting(); });
  EXPECT_FALSE(first->OthersWaiting());
  second->Submit([] {});
  EXPECT_EQ(pool.active_groups(), 2u);
  EXPECT_TRUE(first->OthersWaiting());
  EXPECT_TRUE(second->OthersWaiting());
  release.Notify();
  ASSERT_TRUE(first->Wait().ok());
  ASSERT_TRUE(second->Wait().ok());
  EXPECT_EQ(pool.active_groups(), 0u);
  // first's second task was queued before second's, so it ran while
  // second's waited.
  EXPECT_TRUE(others_waiting_seen.load());
  // Cancelled tasks leave their group inactive too.
  absl::Notification release_again;
  first->Submit([&] { release_again.WaitForNotification(); });
  second->Submit([] {});
  EXPECT_EQ(second->CancelPending(), 1u);
  release_again.Notify();
  ASSERT_TRUE(first->Wait().ok());
  EXPECT_EQ(pool.active_groups(), 0u);
}

TEST(WorkerPoolTest, DestructorRunsSubmittedTasks) {
  std::atomic<int> done{0};
  {
    WorkerPool pool(2);
    auto group = pool.NewGroup();
    for (int k = 0; k < 100; ++k) group->Submit([&] { done.fetch_add(1); });
  }
  EXPECT_EQ(done.load(), 100);
}

}  // namespace
}  // namespace qs
