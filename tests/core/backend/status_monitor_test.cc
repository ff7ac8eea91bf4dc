// BackendStatusMonitor: remote backends' availability is refreshed off the
// request path, at start and then every RefreshInterval; Available() never
// waits for a refresh; the monitor's destructor stops a refresh that is in
// progress instead of waiting out its network budget.
#include "core/backend/status_monitor.h"

#include <atomic>
#include <memory>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core/backend/registry.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

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

 private:
  mutable std::atomic<int> started_{0};
  mutable std::atomic<int> probes_{0};
  absl::Notification release_;
};

TEST(BackendStatusMonitorTest, RefreshesInTheBackgroundAndStopsABlockedProbe) {
  BackendRegistry registry;
  auto owned = std::make_unique<SlowProbeBackend>();
  SlowProbeBackend* backend = owned.get();
  ASSERT_TRUE(registry.Register(std::move(owned)).ok());
  {
    BackendStatusMonitor monitor(&registry);
    while (backend->started() == 0) absl::SleepFor(absl::Milliseconds(1));
    // The probe blocks; the status read does not.
    EXPECT_FALSE(backend->Available().ok());
    backend->Release();
    while (backend->probes() < 3) absl::SleepFor(absl::Milliseconds(1));
    EXPECT_TRUE(backend->Available().ok());
    EXPECT_GE(monitor.refreshes(), 3);
  }
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
  BackendStatusMonitor monitor(&registry);
  EXPECT_EQ(monitor.refreshes(), 0);
}

}  // namespace
}  // namespace qs
