// StreamWriter: the sending side of a server-streaming call whose messages
// come from a job on another thread (Solve, Generate). One write is in flight
// at a time; a write with more messages queued behind it carries the buffer
// hint, so that a burst leaves in few frames; the last message and the final
// status go out as one operation; a broken stream drops what is queued and
// interrupts the job. Decisions are made under a lock and the gRPC calls
// outside it, because a reaction may run on the calling thread.
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
  StreamWriter(grpc::ServerWriteReactor<Message>* reactor,
               Interrupter* interrupter)
      : reactor_(reactor), interrupter_(interrupter) {}

  // Queues a message and starts its write when none is in flight, unless
  // `hold_for_close` (the message then goes out with the status). Dropped
  // when the client is gone.
  void Push(Message&& message, bool hold_for_close = false) {
    {
      absl::MutexLock lock(&mu_);
      if (client_gone_) return;
      queue_.push_back(std::move(message));
    }
    if (!hold_for_close) Pump(/*write_done=*/false, /*ok=*/true);
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
    }
    final_code_ = status.error_code();
    final_message_ = status.error_message();
    reactor_->Finish(status);
  }

  // The reactor's OnWriteDone.
  void OnWriteDone(bool ok) { Pump(/*write_done=*/true, ok); }

  // The status the call ended with; read in OnDone.
  grpc::StatusCode final_code() const { return final_code_; }
  const std::string& final_message() const { return final_message_; }

 private:
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
          interrupter_->Interrupt(StopReason::kCancelled);
        }
      }
      if (writing_ || finish_called_) return;
      if (!queue_.empty()) {
        in_flight_ = std::move(queue_.front());
        queue_.pop_front();
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
      if (finish) finish_called_ = true;
    }
    if (finish) {
      final_code_ = finish->error_code();
      final_message_ = finish->error_message();
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
  absl::Mutex mu_;
  std::deque<Message> queue_ ABSL_GUARDED_BY(mu_);
  Message in_flight_;  // the message being written; touched only by the writer
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool client_gone_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> final_status_ ABSL_GUARDED_BY(mu_);
  bool finish_called_ ABSL_GUARDED_BY(mu_) = false;
  // Set before Finish, read in OnDone.
  grpc::StatusCode final_code_ = grpc::StatusCode::OK;
  std::string final_message_;
};

}  // namespace qs::server

#endif  // QS_SERVER_STREAM_WRITER_H_
