// Admission control: a bounded number of requests may be admitted at once
// (running on a request thread or waiting for one). Past that, a request is
// turned away at once with UNAVAILABLE and a retry hint, so the server never
// queues without bound. Draining (shutdown) turns new requests away; once its
// grace period is over the queue is closed too: a request still waiting for a
// thread never starts. Thread-safe.
#ifndef QS_SERVER_ADMISSION_H_
#define QS_SERVER_ADMISSION_H_

#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace qs::server {

class Admission {
 public:
  // max_running: request threads; max_queued: admitted requests allowed to wait
  // for one.
  Admission(int max_running, int max_queued);

  // OK and counts the request as admitted, or UNAVAILABLE (full or draining).
  absl::Status Admit();
  // An admitted request got a request thread: OK and counts it running, or,
  // once the queue is closed, UNAVAILABLE saying the server is draining, and
  // the request is no longer admitted (no Finished call follows).
  absl::Status Start();
  // An admitted request ended (started or not).
  void Finished(bool started);

  void StartDraining();
  bool draining() const;
  // The grace period is over: nothing queued starts any more.
  void CloseQueue();
  bool queue_closed() const;
  int running() const;
  int queued() const;
  // Blocks until nothing is admitted or the deadline passes; true when empty.
  bool WaitUntilIdle(absl::Time deadline);

 private:
  const int max_running_;
  const int max_queued_;
  mutable absl::Mutex mu_;
  int admitted_ ABSL_GUARDED_BY(mu_) = 0;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  bool draining_ ABSL_GUARDED_BY(mu_) = false;
  bool queue_closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace qs::server

#endif  // QS_SERVER_ADMISSION_H_
