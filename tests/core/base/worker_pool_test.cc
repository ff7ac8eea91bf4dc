// WorkerPool: every task runs, Wait waits for its own group only, groups are
// served in turn, pending tasks can be cancelled, and the destructor runs what
// was submitted.
#include "core/base/worker_pool.h"

#include <atomic>
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
  group->Wait();
  EXPECT_EQ(done.load(), 1000);
  EXPECT_EQ(pool.queued_tasks(), 0u);
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
  a->Wait();
  b->Wait();
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
  group->Wait();
  EXPECT_EQ(ran.load(), 1);
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
