// Interrupter: stop flag and deadline shared between a request and its sampling
// kernels.
#include "core/base/interrupter.h"

#include "absl/strings/string_view.h"

namespace qs {

absl::string_view StopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return "none";
    case StopReason::kTargetReached:
      return "target_reached";
    case StopReason::kTimeLimit:
      return "time_limit";
    case StopReason::kCancelled:
      return "cancelled";
    case StopReason::kDeadline:
      return "deadline";
    case StopReason::kShutdown:
      return "shutdown";
  }
  return "unknown";
}

void Interrupter::Interrupt(StopReason reason) {
  StopReason expected = StopReason::kNone;
  reason_.compare_exchange_strong(expected, reason, std::memory_order_acq_rel);
}

void Interrupter::SetDeadline(absl::Time deadline, StopReason reason) {
  const int64_t ns = deadline == absl::InfiniteFuture()
                         ? INT64_MAX
                         : absl::ToUnixNanos(deadline);
  // The time and its reason change together, under one lock, so that a later
  // deadline that loses the race can never leave its reason beside the
  // winner's time. Readers take the lock only once the time has passed.
  absl::MutexLock lock(&deadline_mu_);
  if (ns >= deadline_ns_.load(std::memory_order_relaxed)) return;
  deadline_reason_ = reason;
  deadline_ns_.store(ns, std::memory_order_release);
}

bool Interrupter::ShouldStop() {
  if (reason_.load(std::memory_order_acquire) != StopReason::kNone) return true;
  if (parent_ != nullptr && parent_->ShouldStop()) {
    Interrupt(parent_->reason());
    return true;
  }
  if (cancel_check_ && cancel_check_()) {
    Interrupt(StopReason::kCancelled);
    return true;
  }
  const int64_t deadline = deadline_ns_.load(std::memory_order_acquire);
  if (deadline == INT64_MAX) return false;
  if (absl::GetCurrentTimeNanos() < deadline) return false;
  StopReason reason;
  {
    absl::MutexLock lock(&deadline_mu_);
    reason = deadline_reason_;
  }
  Interrupt(reason);
  return true;
}

absl::Time Interrupter::deadline() const {
  const int64_t ns = deadline_ns_.load(std::memory_order_acquire);
  return ns == INT64_MAX ? absl::InfiniteFuture() : absl::FromUnixNanos(ns);
}

}  // namespace qs
