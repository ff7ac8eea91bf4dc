// The libcurl SapiClient, its retry policy (docs/dwave-protocol.md §1.9),
// JSON parsing of SAPI's representations (§1.3-§1.8) and endpoint resolution
// (§1.1).
#include "core/sample/dwave/sapi_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "nlohmann/json.hpp"

namespace qs::dwave {

using json = nlohmann::json;

namespace {

constexpr absl::string_view kSolverListType =
    "application/vnd.dwave.sapi.solver-definition-list+json";
constexpr absl::string_view kSolverType =
    "application/vnd.dwave.sapi.solver-definition+json";
constexpr absl::string_view kProblemsType =
    "application/vnd.dwave.sapi.problems+json";
constexpr absl::string_view kProblemType =
    "application/vnd.dwave.sapi.problem+json";
constexpr absl::string_view kAnswerType =
    "application/vnd.dwave.sapi.problem-answer+json";
constexpr absl::string_view kRegionsType =
    "application/vnd.dwave.metadata.regions+json";
constexpr absl::string_view kAskVersion = "3.0.0";

// ---------------------------------------------------------------------------------------------------
// JSON helpers that never throw: a missing or mistyped optional field reads as
// absent.

const json* Field(const json& object, absl::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(std::string(key));
  return it == object.end() ? nullptr : &*it;
}

std::string StringField(const json& object, absl::string_view key) {
  const json* f = Field(object, key);
  return f != nullptr && f->is_string() ? f->get<std::string>() : std::string();
}

std::optional<double> NumberField(const json& object, absl::string_view key) {
  const json* f = Field(object, key);
  if (f == nullptr || !f->is_number()) return std::nullopt;
  return f->get<double>();
}

template <typename T>
std::optional<std::pair<T, T>> RangeField(const json& object,
                                          absl::string_view key) {
  const json* f = Field(object, key);
  if (f == nullptr || !f->is_array() || f->size() != 2 ||
      !(*f)[0].is_number() || !(*f)[1].is_number()) {
    return std::nullopt;
  }
  return std::pair<T, T>((*f)[0].get<T>(), (*f)[1].get<T>());
}

absl::StatusOr<json> ParseJson(absl::string_view text, absl::string_view what) {
  json parsed = json::parse(text.begin(), text.end(), nullptr,
                            /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return absl::UnavailableError(
        absl::StrCat(what, ": SAPI sent a body that is not valid JSON (",
                     text.size(), " bytes)"));
  }
  return parsed;
}

absl::StatusOr<ProblemAnswer> ParseAnswer(const json& answer) {
  ProblemAnswer out;
  out.format = StringField(answer, "format");
  if (out.format != "qp") {
    return absl::UnimplementedError(absl::StrCat(
        "answer format '", out.format, "' is not supported (qp expected)"));
  }
  const std::optional<double> num_variables =
      NumberField(answer, "num_variables");
  if (!num_variables)
    return absl::InvalidArgumentError("answer.num_variables missing");
  out.fields.num_variables = static_cast<int>(*num_variables);
  out.fields.active_variables = StringField(answer, "active_variables");
  out.fields.solutions = StringField(answer, "solutions");
  out.fields.energies = StringField(answer, "energies");
  if (const json* occ = Field(answer, "num_occurrences");
      occ != nullptr && occ->is_string()) {
    out.fields.num_occurrences = occ->get<std::string>();
  }
  if (const json* timing = Field(answer, "timing");
      timing != nullptr && timing->is_object()) {
    for (auto it = timing->begin(); it != timing->end(); ++it) {
      if (it.value().is_number())
        out.timing[it.key()] = it.value().get<double>();
    }
  }
  out.offset = NumberField(answer, "offset");
  return out;
}

absl::StatusOr<ProblemStatus> ParseStatus(const json& object) {
  if (!object.is_object())
    return absl::InvalidArgumentError("problem status is not an object");
  ProblemStatus s;
  s.id = StringField(object, "id");
  s.status = StringField(object, "status");
  if (s.id.empty() || s.status.empty())
    return absl::InvalidArgumentError("problem status without id or status");
  s.type = StringField(object, "type");
  s.label = StringField(object, "label");
  s.error_message = StringField(object, "error_message");
  s.submitted_on = StringField(object, "submitted_on");
  s.solved_on = StringField(object, "solved_on");
  if (const json* answer = Field(object, "answer");
      answer != nullptr && answer->is_object()) {
    auto parsed = ParseAnswer(*answer);
    if (!parsed.ok()) return parsed.status();
    s.answer = *std::move(parsed);
  }
  return s;
}

// {"error_code": N, "error_msg": "..."} items of a 200 array, or the error body
// of a failed request.
std::optional<absl::Status> ParseErrorItem(const json& object) {
  const std::optional<double> code = NumberField(object, "error_code");
  if (!code) return std::nullopt;
  const int http = static_cast<int>(*code);
  std::string message = StringField(object, "error_msg");
  if (message.empty()) message = absl::StrCat("SAPI error ", http);
  return absl::Status(StatusCodeForHttp(http), message);
}

// ---------------------------------------------------------------------------------------------------
// HTTP over libcurl.

struct HttpRequest {
  std::string method;  // GET, POST, DELETE
  std::string url;
  std::string accept;      // media type without parameters
  std::string body;        // JSON, sent when not empty
  absl::string_view what;  // for messages: "GET problems/"
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

enum class Failure {
  kNone,
  kNotConnected,  // the request cannot have reached the server
  kMaybeSent,     // the server may have received (and acted on) the request
  kStopped,       // the interrupter fired
  kDeadline,      // the caller's deadline clipped the request
};

struct Transfer {
  HttpResponse response;
  Failure failure = Failure::kNone;
  std::string error;
};

struct ProgressState {
  Interrupter* interrupter;
};

int ProgressCallback(void* user, curl_off_t, curl_off_t, curl_off_t,
                     curl_off_t) {
  auto* state = static_cast<ProgressState*>(user);
  return state->interrupter != nullptr && state->interrupter->ShouldStop() ? 1
                                                                           : 0;
}

size_t WriteCallback(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t HeaderCallback(char* data, size_t size, size_t count, void* user) {
  absl::string_view line(data, size * count);
  const size_t colon = line.find(':');
  if (colon != absl::string_view::npos) {
    auto* headers = static_cast<std::map<std::string, std::string>*>(user);
    (*headers)[absl::AsciiStrToLower(
        absl::StripAsciiWhitespace(line.substr(0, colon)))] =
        std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  }
  return size * count;
}

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Transfer Perform(const SapiClientOptions& options, const HttpRequest& request,
                 const CallContext& ctx, absl::Duration timeout) {
  GlobalInitOnce();
  Transfer t;
  const absl::Time now = absl::Now();
  const absl::Duration left = ctx.deadline - now;
  bool clipped = false;
  if (left < timeout) {
    timeout = left;
    clipped = true;
  }
  if (timeout <= absl::ZeroDuration()) {
    t.failure = Failure::kDeadline;
    t.error = "deadline passed";
    return t;
  }
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    t.failure = Failure::kNotConnected;
    t.error = "curl_easy_init failed";
    return t;
  }
  curl_slist* headers = nullptr;
  headers = curl_slist_append(
      headers, absl::StrCat("X-Auth-Token: ", options.token).c_str());
  headers = curl_slist_append(
      headers,
      absl::StrCat("Accept: ", request.accept, "; version=",
                   request.accept == kRegionsType ? "1.0.0" : kAskVersion)
          .c_str());
  if (!request.body.empty())
    headers = curl_slist_append(headers, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Expect:");
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, options.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::max<int64_t>(
                       1, absl::ToInt64Milliseconds(
                              std::min(options.connect_timeout, timeout)))));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::max<int64_t>(
                       1, absl::ToInt64Milliseconds(timeout))));
  if (request.method == "POST") {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE,
                     static_cast<long>(request.body.size()));
  } else if (request.method == "DELETE") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "DELETE");
    if (!request.body.empty()) {
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE,
                       static_cast<long>(request.body.size()));
    }
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteCallback);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t.response.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, HeaderCallback);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t.response.headers);
  ProgressState progress{ctx.interrupter};
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, ProgressCallback);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &progress);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);

  const CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &t.response.status);
  curl_off_t connect_time = 0;
  curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connect_time);
  curl_easy_cleanup(curl);
  curl_slist_free_all(headers);
  if (code == CURLE_OK) return t;
  t.error = curl_easy_strerror(code);
  switch (code) {
    case CURLE_ABORTED_BY_CALLBACK:
      t.failure = Failure::kStopped;
      break;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
      t.failure = Failure::kNotConnected;
      break;
    case CURLE_OPERATION_TIMEDOUT:
      if (connect_time == 0) {
        t.failure = clipped ? Failure::kDeadline : Failure::kNotConnected;
      } else {
        t.failure = clipped ? Failure::kDeadline : Failure::kMaybeSent;
        if (clipped) t.error = "timed out at the caller's deadline";
      }
      break;
    default:
      t.failure =
          connect_time == 0 ? Failure::kNotConnected : Failure::kMaybeSent;
      break;
  }
  return t;
}

// "type/subtype; version=3.0.0; charset=utf-8" -> media type and version.
std::pair<std::string, std::string> SplitContentType(absl::string_view value) {
  std::vector<absl::string_view> parts = absl::StrSplit(value, ';');
  std::string media = absl::AsciiStrToLower(
      absl::StripAsciiWhitespace(parts.empty() ? value : parts[0]));
  std::string version;
  for (size_t i = 1; i < parts.size(); ++i) {
    absl::string_view p = absl::StripAsciiWhitespace(parts[i]);
    if (absl::StartsWithIgnoreCase(p, "version="))
      version = std::string(p.substr(8));
  }
  return {media, version};
}

// Accepted versions: ~=3.0 for every resource, >=2.1,<4 for answers; 1.x for
// the Metadata API.
bool VersionAccepted(absl::string_view accept, absl::string_view version) {
  std::vector<absl::string_view> nums = absl::StrSplit(version, '.');
  int major = -1, minor = 0;
  if (nums.empty() || !absl::SimpleAtoi(nums[0], &major)) return false;
  if (nums.size() > 1 && !absl::SimpleAtoi(nums[1], &minor)) return false;
  if (accept == kRegionsType) return major == 1;
  if (accept == kAnswerType) return (major == 2 && minor >= 1) || major == 3;
  return major == 3;
}

class CurlSapiClient final : public SapiClient {
 public:
  explicit CurlSapiClient(SapiClientOptions options)
      : options_(std::move(options)) {
    if (!absl::EndsWith(options_.endpoint, "/")) options_.endpoint += "/";
  }

  const std::string& endpoint() const override { return options_.endpoint; }

  absl::StatusOr<std::vector<SolverInfo>> ListSolvers(
      absl::string_view filter, const CallContext& ctx) override {
    std::string path = "solvers/remote/";
    if (!filter.empty()) path += absl::StrCat("?filter=", UrlEscape(filter));
    ASSIGN_OR_RETURN(json body, Call({"GET", options_.endpoint + path,
                                      std::string(kSolverListType), "",
                                      "GET solvers/remote/"},
                                     ctx));
    if (!body.is_array())
      return absl::UnavailableError(
          "GET solvers/remote/: SAPI did not send an array");
    std::vector<SolverInfo> solvers;
    for (const json& item : body) {
      auto solver = ParseSolverInfo(item.dump());
      if (!solver.ok()) return solver.status();
      solvers.push_back(*std::move(solver));
    }
    return solvers;
  }

  absl::StatusOr<SolverInfo> GetSolver(absl::string_view name,
                                       const CallContext& ctx) override {
    ASSIGN_OR_RETURN(
        json body,
        Call({"GET", options_.endpoint + "solvers/remote/" + UrlEscape(name),
              std::string(kSolverType), "", "GET solvers/remote/{name}"},
             ctx));
    return ParseSolverInfo(body.dump());
  }

  absl::StatusOr<std::vector<absl::StatusOr<ProblemStatus>>> Submit(
      const std::vector<ProblemJob>& jobs, const CallContext& ctx) override {
    json array = json::array();
    for (const ProblemJob& job : jobs) {
      json item;
      json identity = json::parse(job.solver_identity_json, nullptr, false);
      if (identity.is_discarded())
        return absl::InvalidArgumentError("solver identity is not valid JSON");
      json params = json::parse(job.params_json, nullptr, false);
      if (params.is_discarded() || !params.is_object())
        return absl::InvalidArgumentError("params is not a JSON object");
      item["solver"] = std::move(identity);
      item["type"] = job.type;
      item["data"] = {
          {"format", "qp"}, {"lin", job.data.lin}, {"quad", job.data.quad}};
      item["params"] = std::move(params);
      if (!job.label.empty()) item["label"] = job.label;
      array.push_back(std::move(item));
    }
    ASSIGN_OR_RETURN(json body, Call({"POST", options_.endpoint + "problems/",
                                      std::string(kProblemsType), array.dump(),
                                      "POST problems/"},
                                     ctx));
    if (!body.is_array() || body.size() != jobs.size()) {
      // §5.8: a whole-request failure may come as one object.
      if (auto error = ParseErrorItem(body)) return *error;
      return absl::UnavailableError(
          "POST problems/: SAPI's answer does not list one entry per job");
    }
    std::vector<absl::StatusOr<ProblemStatus>> out;
    for (const json& item : body) {
      if (auto error = ParseErrorItem(item)) {
        out.push_back(*error);
      } else {
        out.push_back(ParseStatus(item));
      }
    }
    return out;
  }

  absl::StatusOr<std::vector<ProblemStatus>> Poll(
      const std::vector<std::string>& ids, int timeout_seconds,
      const CallContext& ctx) override {
    timeout_seconds = std::clamp(timeout_seconds, 1, 30);
    const std::string url = absl::StrCat(
        options_.endpoint, "problems/?id=", absl::StrJoin(ids, ","),
        "&timeout=", timeout_seconds);
    ASSIGN_OR_RETURN(json body, Call({"GET", url, std::string(kProblemsType),
                                      "", "GET problems/"},
                                     ctx, absl::Seconds(timeout_seconds)));
    if (!body.is_array())
      return absl::UnavailableError(
          "GET problems/: SAPI did not send an array");
    std::vector<ProblemStatus> out;
    for (const json& item : body) {
      auto s = ParseStatus(item);
      if (!s.ok())
        return absl::UnavailableError(
            absl::StrCat("GET problems/: ", s.status().message()));
      out.push_back(*std::move(s));
    }
    return out;
  }

  absl::StatusOr<ProblemAnswer> GetAnswer(absl::string_view id,
                                          const CallContext& ctx) override {
    ASSIGN_OR_RETURN(
        json body,
        Call({"GET",
              absl::StrCat(options_.endpoint, "problems/", id, "/answer/"),
              std::string(kAnswerType), "", "GET problems/{id}/answer/"},
             ctx));
    const json* answer = Field(body, "answer");
    if (answer == nullptr)
      return absl::UnavailableError(
          "GET problems/{id}/answer/: no answer object");
    return ParseAnswer(*answer);
  }

  absl::Status Cancel(const std::vector<std::string>& ids,
                      const CallContext& ctx) override {
    if (ids.empty()) return absl::OkStatus();
    HttpRequest request;
    request.method = "DELETE";
    if (ids.size() == 1) {
      request.url = absl::StrCat(options_.endpoint, "problems/", ids[0]);
      request.accept = std::string(kProblemType);
      request.what = "DELETE problems/{id}";
    } else {
      request.url = options_.endpoint + "problems/";
      request.accept = std::string(kProblemsType);
      request.body = json(ids).dump();
      request.what = "DELETE problems/";
    }
    auto response = Execute(request, ctx, absl::ZeroDuration());
    if (!response.ok()) return response.status();
    // 200 cancelled, 202 in progress (may still finish), 409 finished, 404
    // gone: nothing left to do.
    if (response->status == 200 || response->status == 202 ||
        response->status == 409 || response->status == 404) {
      return absl::OkStatus();
    }
    return ErrorFor(request, *response);
  }

 private:
  static std::string UrlEscape(absl::string_view text) {
    std::string out;
    for (unsigned char c : text) {
      if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
          c == ',' || c == '+') {
        out.push_back(static_cast<char>(c));
      } else {
        absl::StrAppend(&out, "%", absl::Hex(c, absl::kZeroPad2));
      }
    }
    return out;
  }

  std::string Scrub(std::string text) const {
    if (!options_.token.empty())
      absl::StrReplaceAll({{options_.token, "<token>"}}, &text);
    return text;
  }

  absl::Status ErrorFor(const HttpRequest& request,
                        const HttpResponse& response) const {
    std::string message;
    json body = json::parse(response.body, nullptr, false);
    if (!body.is_discarded()) message = StringField(body, "error_msg");
    if (message.empty())
      message =
          std::string(absl::StripAsciiWhitespace(response.body.substr(0, 300)));
    return absl::Status(
        StatusCodeForHttp(static_cast<int>(response.status)),
        Scrub(absl::StrCat("SAPI ", request.what, ": HTTP ", response.status,
                           message.empty() ? "" : ": ", message)));
  }

  // Sleeps up to `d`, waking early when the interrupter fires. False when the
  // wait would pass the deadline or was interrupted.
  static bool Wait(absl::Duration d, const CallContext& ctx) {
    if (absl::Now() + d >= ctx.deadline) return false;
    const absl::Time until = absl::Now() + d;
    while (absl::Now() < until) {
      if (ctx.interrupter != nullptr && ctx.interrupter->ShouldStop())
        return false;
      absl::SleepFor(std::min(absl::Milliseconds(20), until - absl::Now()));
    }
    return true;
  }

  absl::Duration Backoff(int retry) {
    // 0.1 s * 2^retry with full jitter in [50 %, 100 %], capped.
    absl::Duration d =
        options_.backoff_base * std::pow(2.0, std::min(retry, 20));
    d = std::min(d, options_.backoff_max);
    absl::MutexLock lock(&rng_mu_);
    return d * (0.5 + 0.5 * rng_.NextDouble());
  }

  absl::Status StopStatus(const CallContext& ctx,
                          absl::string_view what) const {
    if (ctx.interrupter != nullptr && ctx.interrupter->ShouldStop()) {
      return absl::CancelledError(absl::StrCat("SAPI ", what, ": interrupted"));
    }
    return absl::DeadlineExceededError(
        absl::StrCat("SAPI ", what, ": deadline reached"));
  }

  // One request with the retry policy. Returns the final HTTP response (any
  // status) or a transport error.
  absl::StatusOr<HttpResponse> Execute(const HttpRequest& request,
                                       const CallContext& ctx,
                                       absl::Duration long_poll) {
    const bool idempotent = request.method != "POST";
    // A long poll may legitimately take its whole wait; the read timeout must
    // exceed it.
    const absl::Duration timeout =
        long_poll > absl::ZeroDuration()
            ? std::max(options_.request_timeout, long_poll + absl::Seconds(10))
            : options_.request_timeout;
    absl::Status last = absl::UnavailableError(
        absl::StrCat("SAPI ", request.what, ": no attempt made"));
    for (int attempt = 0; attempt < std::max(1, options_.max_attempts);
         ++attempt) {
      if (ctx.interrupter != nullptr && ctx.interrupter->ShouldStop())
        return StopStatus(ctx, request.what);
      Transfer t = Perform(options_, request, ctx, timeout);
      std::optional<absl::Duration> wait;
      switch (t.failure) {
        case Failure::kStopped:
        case Failure::kDeadline:
          return StopStatus(ctx, request.what);
        case Failure::kNotConnected:
          last = absl::UnavailableError(
              Scrub(absl::StrCat("SAPI ", request.what, ": cannot connect to ",
                                 options_.endpoint, ": ", t.error)));
          wait = Backoff(attempt);
          break;
        case Failure::kMaybeSent:
          last = absl::UnavailableError(
              Scrub(absl::StrCat("SAPI ", request.what, ": ", t.error)));
          if (!idempotent) {
            return absl::UnavailableError(
                Scrub(absl::StrCat("SAPI ", request.what, ": ", t.error,
                                   " after the request was sent; not resent, "
                                   "since SAPI may have accepted it")));
          }
          wait = Backoff(attempt);
          break;
        case Failure::kNone: {
          const long code = t.response.status;
          if (code == 429 || code == 503) {
            // Rejected before processing: safe to resend, also a submission.
            last = ErrorFor(request, t.response);
            auto it = t.response.headers.find("retry-after");
            std::optional<absl::Duration> after;
            if (it != t.response.headers.end())
              after = ParseRetryAfter(it->second, absl::Now());
            wait = after ? std::min(*after, options_.retry_after_cap)
                         : Backoff(attempt);
          } else if (code >= 500) {
            last = ErrorFor(request, t.response);
            if (!idempotent) return last;
            wait = Backoff(attempt);
          } else if (code >= 200 && code < 300 && !t.response.body.empty() &&
                     request.accept.size() > 0 &&
                     !BodyIsJson(request, t.response)) {
            last = absl::UnavailableError(absl::StrCat("SAPI ", request.what,
                                                       ": malformed JSON in a ",
                                                       code, " response"));
            if (!idempotent) {
              return absl::UnavailableError(absl::StrCat(
                  "SAPI ", request.what, ": malformed JSON in the ", code,
                  " response; not resent, since SAPI may have accepted the "
                  "submission"));
            }
            wait = Backoff(attempt);
          } else {
            return std::move(t.response);
          }
          break;
        }
      }
      if (!Wait(*wait, ctx)) {
        if (ctx.interrupter != nullptr && ctx.interrupter->ShouldStop())
          return StopStatus(ctx, request.what);
        return absl::Status(
            last.code() == absl::StatusCode::kUnavailable ||
                    last.code() == absl::StatusCode::kResourceExhausted
                ? absl::StatusCode::kDeadlineExceeded
                : last.code(),
            absl::StrCat(last.message(),
                         " (no time left to retry before the deadline)"));
      }
    }
    return last;
  }

  static bool BodyIsJson(const HttpRequest&, const HttpResponse& response) {
    return json::accept(response.body);
  }

  // Execute plus status, media type and JSON checks of a successful response.
  absl::StatusOr<json> Call(const HttpRequest& request, const CallContext& ctx,
                            absl::Duration long_poll = absl::ZeroDuration()) {
    ASSIGN_OR_RETURN(HttpResponse response, Execute(request, ctx, long_poll));
    if (response.status < 200 || response.status >= 300)
      return ErrorFor(request, response);
    auto it = response.headers.find("content-type");
    if (it != response.headers.end()) {
      const auto [media, version] = SplitContentType(it->second);
      if (media != request.accept ||
          !VersionAccepted(request.accept, version)) {
        return absl::UnimplementedError(
            absl::StrCat("SAPI ", request.what, ": served ", it->second,
                         "; this client accepts ", request.accept, " version ",
                         request.accept == kAnswerType ? ">=2.1,<4" : "~=3.0"));
      }
    } else {
      return absl::UnimplementedError(absl::StrCat(
          "SAPI ", request.what, ": response without Content-Type"));
    }
    return ParseJson(response.body, request.what);
  }

  SapiClientOptions options_;
  absl::Mutex rng_mu_;
  Xoshiro256 rng_{static_cast<uint64_t>(absl::ToUnixNanos(absl::Now()))};
};

}  // namespace

absl::StatusCode StatusCodeForHttp(int http_status) {
  switch (http_status) {
    case 400:
      return absl::StatusCode::kInvalidArgument;
    case 401:
      return absl::StatusCode::kUnauthenticated;
    case 403:
      return absl::StatusCode::kPermissionDenied;
    case 404:
    case 410:
      return absl::StatusCode::kNotFound;
    case 409:
      return absl::StatusCode::kFailedPrecondition;
    case 415:
      return absl::StatusCode::kUnimplemented;
    case 429:
      return absl::StatusCode::kResourceExhausted;
    default:
      if (http_status >= 500) return absl::StatusCode::kUnavailable;
      if (http_status >= 200 && http_status < 300) return absl::StatusCode::kOk;
      return absl::StatusCode::kUnknown;
  }
}

std::optional<absl::Duration> ParseRetryAfter(absl::string_view value,
                                              absl::Time now) {
  value = absl::StripAsciiWhitespace(value);
  int64_t seconds = 0;
  if (absl::SimpleAtoi(value, &seconds)) {
    if (seconds < 0) return std::nullopt;
    return absl::Seconds(seconds);
  }
  absl::Time when;
  std::string err;
  if (absl::ParseTime("%a, %d %b %Y %H:%M:%S GMT", value, absl::UTCTimeZone(),
                      &when, &err)) {
    return std::max(absl::ZeroDuration(), when - now);
  }
  return std::nullopt;
}

absl::StatusOr<SolverInfo> ParseSolverInfo(absl::string_view text) {
  json object = json::parse(text.begin(), text.end(), nullptr, false);
  if (object.is_discarded() || !object.is_object()) {
    return absl::InvalidArgumentError("solver definition is not a JSON object");
  }
  SolverInfo s;
  const json* identity = Field(object, "identity");
  if (identity != nullptr && identity->is_object()) {
    s.name = StringField(*identity, "name");
    if (const json* version = Field(*identity, "version"))
      s.graph_id = StringField(*version, "graph_id");
    s.identity_json = identity->dump();
  } else if (const json* id = Field(object, "id");
             id != nullptr && id->is_string()) {
    return absl::InvalidArgumentError(
        "solver definition of representation version 2 (string id) is not "
        "supported");
  }
  if (s.name.empty())
    return absl::InvalidArgumentError(
        "solver definition without identity.name");
  s.status = StringField(object, "status");
  s.avg_load = NumberField(object, "avg_load").value_or(0);
  s.description = StringField(object, "description");
  const json* props = Field(object, "properties");
  if (props == nullptr) return s;
  s.category = StringField(*props, "category");
  if (s.category.empty())
    s.category = absl::StartsWith(s.name, "hybrid") ? "hybrid" : "qpu";
  if (const json* types = Field(*props, "supported_problem_types");
      types != nullptr && types->is_array()) {
    for (const json& t : *types) {
      if (t.is_string())
        s.supported_problem_types.push_back(t.get<std::string>());
    }
  }
  if (const json* qubits = Field(*props, "qubits");
      qubits != nullptr && qubits->is_array()) {
    for (const json& q : *qubits) {
      if (!q.is_number_integer())
        return absl::InvalidArgumentError("properties.qubits: not an integer");
      s.qubits.push_back(q.get<int>());
    }
  }
  if (const json* couplers = Field(*props, "couplers");
      couplers != nullptr && couplers->is_array()) {
    for (const json& c : *couplers) {
      if (!c.is_array() || c.size() != 2 || !c[0].is_number_integer() ||
          !c[1].is_number_integer()) {
        return absl::InvalidArgumentError(
            "properties.couplers: not a pair of integers");
      }
      s.couplers.emplace_back(c[0].get<int>(), c[1].get<int>());
    }
  }
  s.num_qubits =
      static_cast<int>(NumberField(*props, "num_qubits").value_or(0));
  if (const json* topology = Field(*props, "topology")) {
    s.topology_type = StringField(*topology, "type");
    if (const json* shape = Field(*topology, "shape");
        shape != nullptr && shape->is_array()) {
      for (const json& v : *shape) {
        if (v.is_number_integer()) s.topology_shape.push_back(v.get<int>());
      }
    }
  }
  if (auto r = RangeField<double>(*props, "h_range")) s.h_range = *r;
  if (auto r = RangeField<double>(*props, "j_range")) s.j_range = *r;
  s.extended_j_range = s.j_range;
  if (auto r = RangeField<double>(*props, "extended_j_range"))
    s.extended_j_range = *r;
  if (auto r = RangeField<int64_t>(*props, "num_reads_range"))
    s.num_reads_range = *r;
  if (auto r = RangeField<double>(*props, "annealing_time_range"))
    s.annealing_time_range = *r;
  if (auto r = RangeField<double>(*props, "problem_run_duration_range"))
    s.max_run_duration_us = r->second;
  s.default_annealing_time = NumberField(*props, "default_annealing_time")
                                 .value_or(s.default_annealing_time);
  s.default_programming_thermalization =
      NumberField(*props, "default_programming_thermalization")
          .value_or(s.default_programming_thermalization);
  s.default_readout_thermalization =
      NumberField(*props, "default_readout_thermalization")
          .value_or(s.default_readout_thermalization);
  s.max_anneal_schedule_points = static_cast<int>(
      NumberField(*props, "max_anneal_schedule_points").value_or(0));
  s.max_h_gain_schedule_points = static_cast<int>(
      NumberField(*props, "max_h_gain_schedule_points").value_or(0));
  s.h_gain_schedule_range = RangeField<double>(*props, "h_gain_schedule_range");
  s.max_slope = NumberField(*props, "max_slope");
  if (const json* params = Field(*props, "parameters");
      params != nullptr && params->is_object()) {
    for (auto it = params->begin(); it != params->end(); ++it)
      s.parameters.push_back(it.key());
  }
  return s;
}

std::unique_ptr<SapiClient> NewCurlSapiClient(SapiClientOptions options) {
  return std::make_unique<CurlSapiClient>(std::move(options));
}

absl::StatusOr<EndpointResolution> ResolveEndpoint(
    absl::string_view endpoint, absl::string_view region,
    absl::string_view metadata_endpoint, const SapiClientOptions& http,
    const CallContext& ctx) {
  EndpointResolution out;
  if (!endpoint.empty()) {
    out.endpoint = std::string(endpoint);
    return out;
  }
  if (region.empty()) region = kDefaultRegion;
  if (metadata_endpoint.empty()) metadata_endpoint = kDefaultMetadataEndpoint;
  out.region = std::string(region);
  if (region == kDefaultRegion &&
      metadata_endpoint == kDefaultMetadataEndpoint) {
    out.endpoint = std::string(kDefaultSapiEndpoint);
    return out;
  }
  std::string base(metadata_endpoint);
  if (!absl::EndsWith(base, "/")) base += "/";
  SapiClientOptions options = http;
  options.token.clear();  // the region list needs no token
  HttpRequest request{"GET", base + "regions/", std::string(kRegionsType), "",
                      "GET regions/"};
  json regions;
  absl::Status failure;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const Transfer t = Perform(options, request, ctx, options.request_timeout);
    if (t.failure == Failure::kNone && t.response.status == 200) {
      regions = json::parse(t.response.body, nullptr, false);
      if (regions.is_array()) {
        failure = absl::OkStatus();
        break;
      }
      failure = absl::UnavailableError("malformed region list");
    } else {
      failure = absl::UnavailableError(
          t.failure != Failure::kNone
              ? t.error
              : absl::StrCat("HTTP ", t.response.status));
      if (t.failure == Failure::kStopped || t.failure == Failure::kDeadline)
        break;
    }
  }
  if (!failure.ok()) {
    out.endpoint = std::string(kDefaultSapiEndpoint);
    out.warning =
        absl::StrCat("Metadata API at ", base, " failed (", failure.message(),
                     "); using the default endpoint ", kDefaultSapiEndpoint);
    return out;
  }
  std::vector<std::string> known;
  for (const json& r : regions) {
    const std::string code = StringField(r, "code");
    known.push_back(code);
    if (code == region) {
      out.endpoint = StringField(r, "endpoint");
      if (out.endpoint.empty())
        return absl::UnavailableError(
            absl::StrCat("region ", code, " has no endpoint"));
      return out;
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown D-Wave region '", region, "' (the Metadata API lists ",
      absl::StrJoin(known, ", "), ")"));
}

}  // namespace qs::dwave
