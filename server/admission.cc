// Admission control with a bounded queue.
#include "server/admission.h"

#include "absl/strings/str_cat.h"

namespace qs::server {

Admission::Admission(int max_running, int max_queued)
    : max_running_(max_running < 1 ? 1 : max_running),
      max_queued_(max_queued < 0 ? 0 : max_queued) {}

absl::Status Admission::Admit() {
  absl::MutexLock lock(&mu_);
  if (draining_) {
    return absl::UnavailableError(
        "the server is draining for shutdown; retry on another replica");
  }
  if (admitted_ >= max_running_ + max_queued_) {
    return absl::UnavailableError(
        absl::StrCat("server busy: ", running_, " requests running and ",
                     admitted_ - running_,
                     " queued (the limit); retry after a short backoff"));
  }
  ++admitted_;
  return absl::OkStatus();
}

absl::Status Admission::Start() {
  absl::MutexLock lock(&mu_);
  if (queue_closed_) {
    --admitted_;
    return absl::UnavailableError(
        "the server is draining for shutdown: its grace period ended before "
        "this request started; retry on another replica");
  }
  ++running_;
  return absl::OkStatus();
}

void Admission::Finished(bool started) {
  absl::MutexLock lock(&mu_);
  --admitted_;
  if (started) --running_;
}

void Admission::StartDraining() {
  absl::MutexLock lock(&mu_);
  draining_ = true;
}

void Admission::CloseQueue() {
  absl::MutexLock lock(&mu_);
  queue_closed_ = true;
}

bool Admission::queue_closed() const {
  absl::MutexLock lock(&mu_);
  return queue_closed_;
}

bool Admission::draining() const {
  absl::MutexLock lock(&mu_);
  return draining_;
}

int Admission::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

int Admission::queued() const {
  absl::MutexLock lock(&mu_);
  return admitted_ - running_;
}

bool Admission::WaitUntilIdle(absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  auto idle = [this]()
                  ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return admitted_ == 0; };
  return mu_.AwaitWithDeadline(absl::Condition(&idle), deadline);
}

}  // namespace qs::server
