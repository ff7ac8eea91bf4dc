// BackendStatusMonitor: remote backends' availability is refreshed off the
// request path, on one thread of the monitor's own, at start and then every
// RefreshInterval; its constructor never waits for a refresh; without remote
// backends it starts no thread; its destructor stops a refresh that is in
// progress instead of waiting out its network budget.
#include "core/backend/status_monitor.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <set>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core/backend/registry.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

// Threads of this process (/proc/self/task holds one entry per thread).
int ThreadCount() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/self/task"))
    ++count;
  return count;
}

// The thread count once it reaches `expected`, or after 10 s: a joined
// thread's /proc entry can outlive the join by a moment, as the kernel reaps
// the task after it has woken the joiner.
int ThreadCountWhenSettled(int expected) {
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  int count = ThreadCount();
  while (count != expected && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(1));
    count = ThreadCount();
  }
  return count;
}

// A backend whose probe blocks until released or interrupted, as a probe of an
// endpoint that never answers does.
class SlowProbeBackend final : public Backend {
 public:
  absl::string_view name() const override { return "slow-probe"; }
  absl::string_view description() const override { return "test backend"; }
  BackendCapabilities capabilities() const override { return {.remote = true}; }
  absl::Status Available() const override {
    return probes_.load() > 0 ? absl::OkStatus()
                              : absl::UnavailableError("not probed yet");
  }
  absl::Duration RefreshInterval() const override {
    return absl::Milliseconds(10);
  }
  void RefreshAvailability(Interrupter& interrupter) const override {
    {
      absl::MutexLock lock(&mu_);
      probe_threads_.insert(std::this_thread::get_id());
    }
    started_.fetch_add(1);
    while (!interrupter.ShouldStop() && !release_.HasBeenNotified())
      absl::SleepFor(absl::Milliseconds(1));
    if (!interrupter.ShouldStop()) probes_.fetch_add(1);
  }
  absl::StatusOr<BackendResult> Solve(const BackendJob&, SampleSink&,
                                      Interrupter&) const override {
    return BackendResult();
  }

  int started() const { return started_.load(); }
  int probes() const { return probes_.load(); }
  void Release() { release_.Notify(); }
  std::set<std::thread::id> probe_threads() const {
    absl::MutexLock lock(&mu_);
    return probe_threads_;
  }

 private:
  mutable absl::Mutex mu_;
  mutable std::set<std::thread::id> probe_threads_ ABSL_GUARDED_BY(mu_);
  mutable std::atomic<int> started_{0};
  mutable std::atomic<int> probes_{0};
  absl::Notification release_;
};

TEST(BackendStatusMonitorTest, RefreshesInTheBackgroundAndStopsABlockedProbe) {
  BackendRegistry registry;
  auto owned = std::make_unique<SlowProbeBackend>();
  SlowProbeBackend* backend = owned.get();
  ASSERT_TRUE(registry.Register(std::move(owned)).ok());
  const int threads_before = ThreadCount();
  {
    // The constructor returns while the first probe blocks: the probe runs
    // on the monitor's own thread, one more in the process.
    BackendStatusMonitor monitor(&registry);
    while (backend->started() == 0) absl::SleepFor(absl::Milliseconds(1));
    EXPECT_EQ(ThreadCount(), threads_before + 1);
    EXPECT_EQ(monitor.refreshes(), 0);  // the blocked probe is not counted
    backend->Release();
    while (monitor.refreshes() < 3) absl::SleepFor(absl::Milliseconds(1));
    EXPECT_GE(backend->probes(), 3);
    const std::set<std::thread::id> threads = backend->probe_threads();
    EXPECT_EQ(threads.size(), 1u);
    EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
  }
  // The monitor's thread ended.
  EXPECT_EQ(ThreadCountWhenSettled(threads_before), threads_before);
  const int probes = backend->probes();
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_EQ(backend->probes(), probes);  // no refresh after the monitor
}

TEST(BackendStatusMonitorTest, DestroyingItInterruptsARunningProbe) {
  BackendRegistry registry;
  auto owned = std::make_unique<SlowProbeBackend>();
  SlowProbeBackend* backend = owned.get();
  ASSERT_TRUE(registry.Register(std::move(owned)).ok());
  {
    BackendStatusMonitor monitor(&registry);
    while (backend->started() == 0) absl::SleepFor(absl::Milliseconds(1));
  }  // returns only because the probe saw the interrupt
  EXPECT_EQ(backend->probes(), 0);
}

TEST(BackendStatusMonitorTest, StartsNoThreadWithoutRemoteBackends) {
  BackendRegistry registry;
  const int threads_before = ThreadCount();
  BackendStatusMonitor monitor(&registry);
  EXPECT_EQ(ThreadCount(), threads_before);
  EXPECT_EQ(monitor.refreshes(), 0);
}

}  // namespace
}  // namespace qs
