// StreamWriter: the sending side of a server-streaming call whose messages
// come from a job on another thread (Solve, Generate). One write is in flight
// at a time; a write with more messages queued behind it carries the buffer
// hint, so that a burst leaves in few frames; the last message and the final
// status go out as one operation; a broken stream drops what is queued and
// interrupts the job. Decisions are made under a lock and the gRPC calls
// outside it, because a reaction may run on the calling thread.
//
// Back-pressure: at most `max_queued` messages, and `max_queued_bytes` of
// them (serialized), wait behind the one being written: a sample of a
// 10^6-variable model is about 2 MB on the wire and 6 MB in memory, so the
// count alone would let one slow client hold gigabytes. Past either bound a
// producer either waits for room (PushWaiting: a job on its own request thread,
// such as Generate) or offers the message as droppable (PushDroppable: Solve's
// samples and progress, produced on the shared compute threads, which must
// never wait on one slow client), which is then dropped and counted. Messages
// pushed with Push always queue: the caller keeps those few (a header, a
// summary, a sample that improves on the best).
#ifndef QS_SERVER_STREAM_WRITER_H_
#define QS_SERVER_STREAM_WRITER_H_

#include <deque>
#include <optional>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "core/base/interrupter.h"
#include "grpcpp/grpcpp.h"

namespace qs::server {

template <typename Message>
class StreamWriter {
 public:
  // `reactor` must stay valid until the call is finished; `interrupter` (the
  // job's) as long as this writer.
  static constexpr size_t kDefaultMaxQueued = 256;
  static constexpr size_t kDefaultMaxQueuedBytes = size_t{64} << 20;

  StreamWriter(grpc::ServerWriteReactor<Message>* reactor,
               Interrupter* interrupter, size_t max_queued = kDefaultMaxQueued,
               size_t max_queued_bytes = kDefaultMaxQueuedBytes)
      : reactor_(reactor),
        interrupter_(interrupter),
        max_queued_(max_queued),
        max_queued_bytes_(max_queued_bytes) {}

  // Queues a message and starts its write when none is in flight, unless
  // `hold_for_close` (the message then goes out with the status). Dropped
  // when the client is gone.
  void Push(Message&& message, bool hold_for_close = false) {
    const size_t bytes = message.ByteSizeLong();
    {
      absl::MutexLock lock(&mu_);
      if (client_gone_) return;
      Enqueue(std::move(message), bytes);
    }
    if (!hold_for_close) Pump(/*write_done=*/false, /*ok=*/true);
  }

  // Queues the message when fewer than max_queued wait and it fits within
  // max_queued_bytes (or nothing waits); otherwise drops it and returns false.
  bool PushDroppable(Message&& message) {
    const size_t bytes = message.ByteSizeLong();
    {
      absl::MutexLock lock(&mu_);
      if (client_gone_) return true;
      if (queue_.size() >= max_queued_ ||
          (!queue_.empty() && queued_bytes_ + bytes > max_queued_bytes_))
        return false;
      Enqueue(std::move(message), bytes);
    }
    Pump(/*write_done=*/false, /*ok=*/true);
    return true;
  }

  // Waits until fewer than max_queued messages wait and the message fits
  // within max_queued_bytes (or nothing waits, or the client is gone), then
  // queues the message. Only for a producer on a thread of its own.
  void PushWaiting(Message&& message) {
    const size_t bytes = message.ByteSizeLong();
    {
      absl::MutexLock lock(&mu_);
      auto room = [this, bytes]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return client_gone_ ||
               (queue_.size() < max_queued_ &&
                (queue_.empty() || queued_bytes_ + bytes <= max_queued_bytes_));
      };
      mu_.Await(absl::Condition(&room));
      if (client_gone_) return;
      Enqueue(std::move(message), bytes);
    }
    Pump(/*write_done=*/false, /*ok=*/true);
  }

  // Messages waiting now (for tests and metrics).
  size_t queued() const {
    absl::MutexLock lock(&mu_);
    return queue_.size();
  }

  // The job's end: `status` follows what is queued.
  void Close(const grpc::Status& status) {
    {
      absl::MutexLock lock(&mu_);
      final_status_ = status;
    }
    Pump(/*write_done=*/false, /*ok=*/true);
  }

  // Finishes the call at once (a request refused before any job ran).
  void FinishNow(const grpc::Status& status) {
    {
      absl::MutexLock lock(&mu_);
      finish_called_ = true;
      final_code_ = status.error_code();
      final_message_ = status.error_message();
    }
    reactor_->Finish(status);
  }

  // The reactor's OnWriteDone.
  void OnWriteDone(bool ok) { Pump(/*write_done=*/true, ok); }

  // The status the call ended with; read in OnDone. Under the lock: gRPC
  // orders Finish before OnDone in code TSan does not see.
  grpc::StatusCode final_code() const {
    absl::MutexLock lock(&mu_);
    return final_code_;
  }
  std::string final_message() const {
    absl::MutexLock lock(&mu_);
    return final_message_;
  }

 private:
  void Enqueue(Message&& message, size_t bytes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    queue_.push_back(std::move(message));
    queued_sizes_.push_back(bytes);
    queued_bytes_ += bytes;
  }

  void Pump(bool write_done, bool ok) {
    bool start_write = false;
    bool more_queued = false;
    std::optional<grpc::Status> finish;
    {
      absl::MutexLock lock(&mu_);
      if (write_done) {
        writing_ = false;
        if (!ok) {
          // The stream broke (client gone): drop what is queued and stop the
          // work.
          client_gone_ = true;
          queue_.clear();
          queued_sizes_.clear();
          queued_bytes_ = 0;
          interrupter_->Interrupt(StopReason::kCancelled);
        }
      }
      if (writing_ || finish_called_) return;
      if (!queue_.empty()) {
        in_flight_ = std::move(queue_.front());
        queue_.pop_front();
        queued_bytes_ -= queued_sizes_.front();
        queued_sizes_.pop_front();
        start_write = true;
        more_queued = !queue_.empty();
        if (!more_queued && final_status_) {
          finish = final_status_;
        } else {
          writing_ = true;
        }
      } else if (final_status_) {
        finish = final_status_;
      } else {
        return;
      }
      if (finish) {
        finish_called_ = true;
        final_code_ = finish->error_code();
        final_message_ = finish->error_message();
      }
    }
    if (start_write && finish) {
      reactor_->StartWriteAndFinish(&in_flight_, grpc::WriteOptions(), *finish);
    } else if (start_write) {
      grpc::WriteOptions options;
      if (more_queued) options.set_buffer_hint();
      reactor_->StartWrite(&in_flight_, options);
    } else {
      reactor_->Finish(*finish);
    }
  }

  grpc::ServerWriteReactor<Message>* const reactor_;
  Interrupter* const interrupter_;
  const size_t max_queued_;
  const size_t max_queued_bytes_;
  mutable absl::Mutex mu_;
  std::deque<Message> queue_ ABSL_GUARDED_BY(mu_);
  // Serialized size of each queued message, and their sum.
  std::deque<size_t> queued_sizes_ ABSL_GUARDED_BY(mu_);
  size_t queued_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  Message in_flight_;  // the message being written; touched only by the writer
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool client_gone_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> final_status_ ABSL_GUARDED_BY(mu_);
  bool finish_called_ ABSL_GUARDED_BY(mu_) = false;
  // Set before Finish, read in OnDone.
  grpc::StatusCode final_code_ ABSL_GUARDED_BY(mu_) = grpc::StatusCode::OK;
  std::string final_message_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qs::server

#endif  // QS_SERVER_STREAM_WRITER_H_
