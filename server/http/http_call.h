// What every HTTP handler shares: the channel through which a job on the
// request pool hands its JSON lines and its status to the HTTP thread that
// answers for it, the wait for that job while watching the client, protobuf
// JSON both ways, and the end of a call (the request metrics with
// protocol="http" and the log line, as the gRPC service writes them).
#ifndef QS_SERVER_HTTP_HTTP_CALL_H_
#define QS_SERVER_HTTP_HTTP_CALL_H_

#include <httplib.h>

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/base/interrupter.h"
#include "google/protobuf/message.h"
#include "server/http/client_watch.h"
#include "server/service_context.h"

namespace qs::server::http {

// Lines a job makes for one response, then its status. Thread-safe.
class JobChannel {
 public:
  void Push(std::string line);
  // Queues the line when fewer than `max_queued` wait; otherwise returns
  // false and drops it.
  bool PushDroppable(std::string line, size_t max_queued);
  void Close(const absl::Status& status);
  // Blocks until a line is waiting or the job is closed, at most `timeout`.
  void Await(absl::Duration timeout);
  // Blocks until the job is closed, at most `timeout`; waiting lines do not
  // end the wait.
  void AwaitClose(absl::Duration timeout);
  // The waiting lines, oldest first; the queue is left empty.
  std::vector<std::string> Take();
  bool has_lines() const;
  bool closed() const;
  absl::Status status() const;

 private:
  mutable absl::Mutex mu_;
  std::deque<std::string> lines_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status status_ ABSL_GUARDED_BY(mu_);
};

// Waits until `channel` has a line or, with `until_closed`, until the job
// closed it. When the client leaves first, interrupts `interrupter` (when
// given) as kCancelled, waits for the job's end and returns false.
bool AwaitJob(JobChannel& channel, ClientWatch& watch, Interrupter* interrupter,
              bool until_closed);

// One HTTP call, for its metrics and log line.
struct CallLog {
  std::string method;  // the RPC's name: "Solve", "Compile" ...
  std::string request_id, peer;
  std::string puzzle = "none", backend = "none";
  std::string detail;  // more " key=value" fields for the log line
  absl::Time arrival = absl::Now();
};

// Starts the log of `request` as `method` (peer and arrival time).
CallLog StartCall(const httplib::Request& request, const std::string& method);

// Records the finished call: qs_requests_total and
// qs_request_duration_seconds with protocol="http", and the log line.
void FinishCall(ServiceContext* context, const CallLog& call,
                const absl::Status& status);

// Protobuf's JSON mapping. Parsing names the offending field (INVALID_ARGUMENT
// "body: ..."); printing uses lowerCamelCase names and prints fields that
// hold default values too.
absl::Status ParseJson(const std::string& json, google::protobuf::Message* out,
                       const std::string& what = "body");
std::string ToJson(const google::protobuf::Message& message);

// Answers `status` (not OK) as its HTTP status (or `http_status` when given:
// 413, 415) and Google's error object.
void SendError(httplib::Response& response, const absl::Status& status,
               int http_status = 0);

// RESOURCE_EXHAUSTED for a body over --http_max_body_mb (answered 413).
absl::Status BodyTooLarge(size_t max_body_bytes);

// Refuses JSON nested deeper than `max_depth` (arrays and objects) before
// any parser builds it: INVALID_ARGUMENT naming `what`. Linear, no memory.
absl::Status CheckJsonDepth(absl::string_view json, int max_depth,
                            const std::string& what = "body");

// Text as a log line shows it: printable ASCII kept, everything else
// (newlines, quotes, bytes past 0x7e) escaped as \xNN, so that no client
// text forges a line.
std::string EscapeForLog(absl::string_view text);
// Answers 200 with a JSON body.
void SendJson(httplib::Response& response, const std::string& json);

// The bearer-token check of the request's Authorization header.
absl::Status Authorize(const ServiceContext* context,
                       const httplib::Request& request);

// Whether the request asked for one object instead of a stream
// (?stream=false).
bool WantsSingleObject(const httplib::Request& request);

// Interval between checks of the client while a job runs.
inline constexpr absl::Duration kWatchInterval = absl::Milliseconds(50);

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_HTTP_CALL_H_
