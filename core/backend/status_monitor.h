// BackendStatusMonitor: keeps the availability of remote backends fresh in the
// background, so that no request check and no ListBackends call waits on the
// network (a reaction must never block). It runs each backend's
// RefreshAvailability at start and then every RefreshInterval(), on one thread
// of its own, until destroyed.
#ifndef QS_CORE_BACKEND_STATUS_MONITOR_H_
#define QS_CORE_BACKEND_STATUS_MONITOR_H_

#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/backend/registry.h"
#include "core/base/interrupter.h"

namespace qs {

class BackendStatusMonitor {
 public:
  // `registry` must outlive the monitor. Starts no thread when no backend asks
  // for refreshes.
  explicit BackendStatusMonitor(const BackendRegistry* registry);
  ~BackendStatusMonitor();
  BackendStatusMonitor(const BackendStatusMonitor&) = delete;
  BackendStatusMonitor& operator=(const BackendStatusMonitor&) = delete;

  // Refreshes run so far, over all backends (for tests and logs).
  int refreshes() const;

 private:
  void Loop();

  struct Entry {
    const Backend* backend;
    absl::Time next;
  };
  std::vector<Entry> entries_;
  // Stops a refresh in progress when the monitor goes away.
  Interrupter stop_;
  mutable absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int refreshes_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace qs

#endif  // QS_CORE_BACKEND_STATUS_MONITOR_H_
