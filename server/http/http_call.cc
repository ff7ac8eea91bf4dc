// Job channel, client-watching wait, JSON and the end of an HTTP call.
#include "server/http/http_call.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/solve/request_checks.h"
#include "google/protobuf/util/json_util.h"
#include "server/http/http_status.h"
#include "spdlog/spdlog.h"

namespace qs::server::http {

void JobChannel::Push(std::string line) {
  absl::MutexLock lock(&mu_);
  lines_.push_back(std::move(line));
}

bool JobChannel::PushDroppable(std::string line, size_t max_queued) {
  absl::MutexLock lock(&mu_);
  if (lines_.size() >= max_queued) return false;
  lines_.push_back(std::move(line));
  return true;
}

void JobChannel::Close(const absl::Status& status) {
  absl::MutexLock lock(&mu_);
  status_ = status;
  closed_ = true;
}

void JobChannel::Await(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return closed_ || !lines_.empty();
  };
  mu_.AwaitWithTimeout(absl::Condition(&ready), timeout);
}

void JobChannel::AwaitClose(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  mu_.AwaitWithTimeout(absl::Condition(&closed_), timeout);
}

std::vector<std::string> JobChannel::Take() {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> out(std::make_move_iterator(lines_.begin()),
                               std::make_move_iterator(lines_.end()));
  lines_.clear();
  return out;
}

bool JobChannel::has_lines() const {
  absl::MutexLock lock(&mu_);
  return !lines_.empty();
}

bool JobChannel::closed() const {
  absl::MutexLock lock(&mu_);
  return closed_;
}

absl::Status JobChannel::status() const {
  absl::MutexLock lock(&mu_);
  return status_;
}

bool AwaitJob(JobChannel& channel, ClientWatch& watch, Interrupter* interrupter,
              bool until_closed) {
  bool client_gone = false;
  while (!channel.closed() && (until_closed || !channel.has_lines())) {
    if (until_closed) {
      channel.AwaitClose(kWatchInterval);
    } else {
      channel.Await(kWatchInterval);
    }
    if (!client_gone && !channel.closed() && watch.Gone()) {
      client_gone = true;
      // The job still refers to its state: keep waiting for its end.
      until_closed = true;
      if (interrupter != nullptr)
        interrupter->Interrupt(StopReason::kCancelled);
    }
  }
  return !client_gone;
}

CallLog StartCall(const httplib::Request& request, const std::string& method) {
  CallLog call;
  call.method = method;
  call.peer = absl::StrCat(request.remote_addr, ":", request.remote_port);
  return call;
}

void FinishCall(ServiceContext* context, const CallLog& call,
                const absl::Status& status) {
  const double seconds = absl::ToDoubleSeconds(absl::Now() - call.arrival);
  const std::string code = absl::StatusCodeToString(status.code());
  context->metrics->RecordRequest(call.method, call.puzzle, call.backend, code,
                                  seconds, "http");
  spdlog::info(
      "rpc={} protocol=http request_id={} peer={} puzzle={} backend={}{} "
      "status={} http_status={} seconds={:.4f}{}",
      call.method,
      call.request_id.empty() ? "-" : RequestIdForLog(call.request_id),
      call.peer, call.puzzle, call.backend, call.detail, code,
      HttpStatusFor(status.code()), seconds,
      status.ok() ? "" : " message=\"" + EscapeForLog(status.message()) + "\"");
}

absl::Status ParseJson(const std::string& json, google::protobuf::Message* out,
                       const std::string& what) {
  google::protobuf::util::JsonParseOptions options;
  const auto status =
      google::protobuf::util::JsonStringToMessage(json, out, options);
  if (status.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, ": ", std::string(status.message())));
}

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

void SendError(httplib::Response& response, const absl::Status& status,
               int http_status) {
  response.status =
      http_status != 0 ? http_status : HttpStatusFor(status.code());
  if (status.code() == absl::StatusCode::kUnavailable)
    response.set_header("Retry-After", "1");
  if (status.code() == absl::StatusCode::kUnauthenticated)
    response.set_header("WWW-Authenticate", "Bearer");
  response.set_content(ErrorJson(status, http_status) + "\n",
                       "application/json");
}

absl::Status BodyTooLarge(size_t max_body_bytes) {
  return absl::ResourceExhaustedError(
      absl::StrCat("body: larger than this server's --http_max_body_mb (",
                   max_body_bytes >> 20, " MiB)"));
}

absl::Status CheckJsonDepth(absl::string_view json, int max_depth,
                            const std::string& what) {
  int depth = 0;
  bool in_string = false;
  for (size_t k = 0; k < json.size(); ++k) {
    const char c = json[k];
    if (in_string) {
      if (c == '\\') {
        ++k;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, ": JSON nested deeper than ", max_depth,
                         " levels (arrays and objects)"));
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return absl::OkStatus();
}

std::string EscapeForLog(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\') {
      out.push_back(c);
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(byte, absl::kZeroPad2));
    }
  }
  return out;
}

void SendJson(httplib::Response& response, const std::string& json) {
  response.status = 200;
  response.set_content(json + "\n", "application/json");
}

absl::Status Authorize(const ServiceContext* context,
                       const httplib::Request& request) {
  if (!request.has_header("Authorization"))
    return context->auth->CheckHeader(nullptr);
  const std::string value = request.get_header_value("Authorization");
  return context->auth->CheckHeader(&value);
}

bool WantsSingleObject(const httplib::Request& request) {
  return request.has_param("stream") &&
         request.get_param_value("stream") == "false";
}

}  // namespace qs::server::http
