// Interrupter: a stop flag plus an absolute deadline, polled by every sampling
// kernel between sweeps (the shape of MathOpt's SolveInterrupter and
// minorminer's LocalInteraction): the caller owns it, any thread may call
// Interrupt(), and the kernel's check costs one atomic load and, while a
// deadline is set, a clock read (a few nanoseconds through the vDSO; kernels
// call it once per sweep or per block of sweeps). Thread-safe.
#ifndef QS_CORE_BASE_INTERRUPTER_H_
#define QS_CORE_BASE_INTERRUPTER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace qs {

// Why work stopped early. kNone means it has not been asked to stop.
enum class StopReason : int {
  kNone = 0,
  kTargetReached = 1,
  kTimeLimit = 2,
  kCancelled = 3,
  kDeadline = 4,
  kShutdown = 5,
};

absl::string_view StopReasonName(StopReason reason);

class Interrupter {
 public:
  Interrupter() = default;
  // A child: it stops, with the parent's reason, when `parent` does; stopping
  // the child leaves the parent running. Lets one step of a longer job (one
  // solve of a Generate call) stop early for its own reasons while the job's
  // cancel and deadline still reach it. The parent must outlive the child.
  explicit Interrupter(Interrupter* parent) : parent_(parent) {}
  Interrupter(const Interrupter&) = delete;
  Interrupter& operator=(const Interrupter&) = delete;

  // A check ShouldStop() also runs (a client's cancel that arrives as a flag
  // to poll, not as a call); true stops with kCancelled. Set it before the
  // interrupter is shared; it must be cheap and thread-safe.
  void SetCancelCheck(std::function<bool()> cancelled) {
    cancel_check_ = std::move(cancelled);
  }

  // Requests a stop. The first reason given wins; later calls keep it.
  void Interrupt(StopReason reason);

  // Sets an absolute time after which ShouldStop() reports `reason` (kTimeLimit
  // or kDeadline). The earliest of several deadlines is kept, with its reason.
  void SetDeadline(absl::Time deadline, StopReason reason);

  // True once Interrupt() was called or a deadline has passed. Cheap enough to
  // call once per sweep.
  bool ShouldStop();

  // The reason of the stop, or kNone while running.
  StopReason reason() const { return reason_.load(std::memory_order_acquire); }

  absl::Time deadline() const;

 private:
  std::atomic<StopReason> reason_{StopReason::kNone};
  std::atomic<int64_t> deadline_ns_{
      INT64_MAX};  // absl::ToUnixNanos of the deadline
  absl::Mutex deadline_mu_;
  StopReason deadline_reason_ ABSL_GUARDED_BY(deadline_mu_) = StopReason::kNone;
  Interrupter* const parent_ = nullptr;
  std::function<bool()> cancel_check_;
};

}  // namespace qs

#endif  // QS_CORE_BASE_INTERRUPTER_H_
