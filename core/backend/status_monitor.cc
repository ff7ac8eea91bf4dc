// BackendStatusMonitor: the refresh loop.
#include "core/backend/status_monitor.h"

#include <algorithm>

#include "absl/time/clock.h"

namespace qs {

BackendStatusMonitor::BackendStatusMonitor(const BackendRegistry* registry) {
  const absl::Time now = absl::Now();
  for (const Backend* backend : registry->All()) {
    if (backend->RefreshInterval() > absl::ZeroDuration())
      entries_.push_back({backend, now});
  }
  if (!entries_.empty()) thread_ = std::thread([this] { Loop(); });
}

BackendStatusMonitor::~BackendStatusMonitor() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  stop_.Interrupt(StopReason::kShutdown);
  if (thread_.joinable()) thread_.join();
}

int BackendStatusMonitor::refreshes() const {
  absl::MutexLock lock(&mu_);
  return refreshes_;
}

void BackendStatusMonitor::Loop() {
  while (true) {
    absl::Time next = absl::InfiniteFuture();
    for (Entry& entry : entries_) {
      if (absl::Now() >= entry.next) {
        entry.backend->RefreshAvailability(stop_);
        entry.next = absl::Now() + entry.backend->RefreshInterval();
        absl::MutexLock lock(&mu_);
        ++refreshes_;
      }
      next = std::min(next, entry.next);
    }
    absl::MutexLock lock(&mu_);
    if (mu_.AwaitWithDeadline(absl::Condition(&stopping_), next)) return;
  }
}

}  // namespace qs
