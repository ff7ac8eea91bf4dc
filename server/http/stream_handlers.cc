// The streaming RPCs over HTTP: Solve and Generate answer newline-delimited
// JSON as the job makes it (or one object with ?stream=false), SolveBatch
// takes NDJSON items and answers NDJSON results in completion order. The
// status line waits for the job's first line, so that a puzzle the compiler
// rejects is still answered 400; an error after that ends the stream with an
// {"error":...} line. A client that leaves interrupts the job.
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/families/builtin.h"
#include "core/generate/generator.h"
#include "qs/v1/solve.pb.h"
#include "server/http/handlers.h"
#include "server/http/http_call.h"
#include "server/http/http_status.h"
#include "server/solve_job.h"
#include "server/solve_reactor.h"

namespace qs::server::http {
namespace {

constexpr char kNdjson[] = "application/x-ndjson";
// Lines a slow reader may leave queued before droppable events are dropped
// (as the gRPC stream writer bounds its queue).
constexpr size_t kMaxQueuedLines = 256;

// A running Solve or Generate and what its answer needs. With
// ?stream=false the job thread fills the parts of the one object before it
// closes the channel, and the HTTP thread reads them after.
struct StreamJob {
  ServiceContext* context = nullptr;
  JobChannel channel;
  Interrupter interrupter;
  CallLog call;
  std::atomic<uint32_t> variables{0};
  SampleThinner thinner;  // streamed Solve only; used by the job thread
  // ?stream=false: the parts of the one object.
  std::string header;
  std::vector<std::string> items;
  std::string summary;
};

std::shared_ptr<StreamJob> NewStreamJob(ServiceContext* context,
                                        const httplib::Request& request,
                                        const std::string& method) {
  auto job = std::make_shared<StreamJob>();
  job->context = context;
  job->call = StartCall(request, method);
  return job;
}

void FinishStreamJob(StreamJob& job) {
  if (job.variables > 0)
    job.call.detail = absl::StrCat(" variables=", job.variables.load());
  FinishCall(job.context, job.call, job.channel.status());
}

// Queues a streamed Solve event; one a slow reader may lose is dropped when
// the queue is full (counted in the summary).
void StreamSolveEvent(StreamJob& job, v1::SolveResponse&& event) {
  if (event.has_summary()) job.thinner.StampSummary(event);
  if (job.thinner.MustSend(event)) {
    job.channel.Push(ToJson(event));
  } else if (!job.channel.PushDroppable(ToJson(event), kMaxQueuedLines) &&
             event.has_sample()) {
    job.thinner.Dropped();
  }
}

// Writes the job's lines as they come, then its error line if it failed.
bool WriteLines(StreamJob& job, httplib::DataSink& sink) {
  for (;;) {
    for (std::string& line : job.channel.Take()) {
      line.push_back('\n');
      if (!sink.write(line.data(), line.size())) {
        job.interrupter.Interrupt(StopReason::kCancelled);
        return false;
      }
    }
    if (job.channel.closed() && !job.channel.has_lines()) {
      const absl::Status status = job.channel.status();
      if (!status.ok()) {
        const std::string line = ErrorJson(status) + "\n";
        sink.write(line.data(), line.size());
      }
      sink.done();
      return true;
    }
    job.channel.Await(kWatchInterval);
    if (!job.channel.has_lines() && !job.channel.closed() &&
        !sink.is_writable()) {
      job.interrupter.Interrupt(StopReason::kCancelled);
      return false;
    }
  }
}

// Answers a submitted job: one object built by `assemble` after its end
// (`single`), or NDJSON from its first line on.
void Respond(std::shared_ptr<StreamJob> job, const httplib::Request& request,
             httplib::Response& response, bool single,
             const std::function<std::string()>& assemble) {
  ClientWatch watch(request);
  if (!AwaitJob(job->channel, watch, &job->interrupter,
                /*until_closed=*/single)) {
    FinishStreamJob(*job);  // the client is gone: nothing to answer
    return;
  }
  // Read in this order: once closed, the status is final.
  const bool closed = job->channel.closed();
  const absl::Status status = job->channel.status();
  if (closed && !status.ok() && (single || !job->channel.has_lines())) {
    SendError(response, status);
    FinishStreamJob(*job);
    return;
  }
  if (single) {
    SendJson(response, assemble());
    FinishStreamJob(*job);
    return;
  }
  response.status = 200;
  response.set_chunked_content_provider(
      kNdjson,
      [job](size_t /*offset*/, httplib::DataSink& sink) {
        return WriteLines(*job, sink);
      },
      [job](bool /*success*/) {
        // A client that left interrupted the job: record it once it ended.
        while (!job->channel.closed()) job->channel.AwaitClose(kWatchInterval);
        FinishStreamJob(*job);
      });
}

std::string RequestIdFor(const httplib::Request& request,
                         const std::string& given) {
  if (!given.empty()) return given;
  if (request.has_header("X-Request-Id"))
    return request.get_header_value("X-Request-Id");
  return NewRequestId();
}

// The size of a one-object answer, estimated before the solve from the
// samples it may hold and the model's size: RESOURCE_EXHAUSTED naming
// params.max_sample_events past `max_bytes`.
absl::Status CheckAnswerSize(ServiceContext* context,
                             const v1::SolveRequest& body, size_t max_bytes) {
  const uint32_t samples = body.params().max_sample_events();
  if (samples == 0) return absl::OkStatus();
  auto compiler = context->engine->compilers().ForSpec(body.puzzle());
  if (!compiler.ok()) return absl::OkStatus();  // CheckAndAdmit reports it
  // A sample's JSON: its bits and board text, about two bytes a variable,
  // and its statistics.
  const double per_sample =
      2.0 * static_cast<double>((*compiler)->ModelVariables(body.puzzle())) +
      256;
  const double bytes = per_sample * samples;
  if (bytes <= static_cast<double>(max_bytes)) return absl::OkStatus();
  return absl::ResourceExhaustedError(absl::StrCat(
      "params.max_sample_events: ", samples,
      " samples make an answer of about ",
      static_cast<int64_t>(bytes / (1 << 20)),
      " MiB, over this server's --http_max_answer_mb (", max_bytes >> 20,
      " MiB) for ?stream=false; ask for fewer or stream the answer"));
}

void HandleSolve(ServiceContext* context, size_t max_answer_bytes,
                 const httplib::Request& request, httplib::Response& response) {
  auto job = NewStreamJob(context, request, "Solve");
  v1::SolveRequest body;
  if (!BeginCall(context, request, response, job->call, &body)) return;
  body.set_request_id(RequestIdFor(request, body.request_id()));
  job->call.request_id = body.request_id();
  job->call.puzzle = PuzzleLabel(*context->engine, body.puzzle());
  job->call.backend = BackendLabel(
      *context->engine, context->engine->backends().NameFor(body.params()));
  const bool single = WantsSingleObject(request);
  absl::Status status = single
                            ? CheckAnswerSize(context, body, max_answer_bytes)
                            : absl::OkStatus();
  if (status.ok()) status = CheckAndAdmit(context, body, "Solve", "http");
  if (!status.ok()) {
    SendError(response, status);
    FinishCall(context, job->call, status);
    return;
  }
  // Echoed once checked: at most 128 printable characters.
  response.set_header("X-Request-Id", body.request_id());
  // One object holds the samples only when asked for, as a BatchResult does.
  const bool keep_samples = body.params().max_sample_events() > 0;
  context->request_pool->NewGroup()->Submit([job, single, keep_samples,
                                             body = std::move(body)] {
    const absl::Status status = RunAdmittedSolve(
        job->context, body, job->interrupter, job->call.arrival,
        job->call.puzzle, job->call.backend, [&](v1::SolveResponse&& event) {
          if (event.has_header())
            job->variables = event.header().stats().variables();
          if (!single) {
            StreamSolveEvent(*job, std::move(event));
          } else if (event.has_header()) {
            job->header = ToJson(event.header());
          } else if (event.has_sample() && keep_samples) {
            job->items.push_back(ToJson(event.sample()));
          } else if (event.has_summary()) {
            job->summary = ToJson(event.summary());
          }
        });
    job->channel.Close(status);
  });
  Respond(job, request, response, single, [job] {
    return absl::StrCat(R"({"header":)", job->header, R"(,"summary":)",
                        job->summary, R"(,"samples":[)",
                        absl::StrJoin(job->items, ","), "]}");
  });
}

void HandleGenerate(ServiceContext* context, const httplib::Request& request,
                    httplib::Response& response) {
  auto job = NewStreamJob(context, request, "Generate");
  v1::GenerateRequest body;
  if (!BeginCall(context, request, response, job->call, &body)) return;
  job->call.puzzle =
      BuiltinGenerators().Get(body.family()).ok() ? body.family() : "unknown";
  job->call.backend = BackendLabel(*context->engine, body.sampling().backend());
  absl::Status status = context->engine->CheckGenerateRequest(body).status();
  if (status.ok()) {
    status = context->admission->Admit();
    if (!status.ok())
      context->metrics->RecordRejected("Generate", "overloaded", "http");
  }
  if (!status.ok()) {
    SendError(response, status);
    FinishCall(context, job->call, status);
    return;
  }
  const bool single = WantsSingleObject(request);
  context->request_pool->NewGroup()->Submit([job, single,
                                             body = std::move(body)] {
    ServiceContext* context = job->context;
    if (absl::Status s = context->admission->Start(); !s.ok()) {
      job->channel.Close(s);
      return;
    }
    context->Track(&job->interrupter);
    if (context->admission->queue_closed())
      job->interrupter.Interrupt(StopReason::kShutdown);
    absl::Status status =
        job->interrupter.ShouldStop()
            ? SolveEngine::StatusForStop(job->interrupter.reason())
            : context->engine->Generate(
                  body, job->interrupter, [&](v1::GeneratedPuzzle&& puzzle) {
                    if (single) {
                      job->items.push_back(ToJson(puzzle));
                    } else {
                      job->channel.Push(ToJson(puzzle));
                    }
                  });
    context->Untrack(&job->interrupter);
    context->admission->Finished(/*started=*/true);
    job->channel.Close(status);
  });
  Respond(job, request, response, single, [job] {
    return absl::StrCat(R"({"puzzles":[)", absl::StrJoin(job->items, ","),
                        "]}");
  });
}

// A SolveBatch call: items waiting, running (at most max_batch_in_flight)
// and results to write, in completion order.
struct BatchJob {
  ServiceContext* context = nullptr;
  CallLog call;
  JobChannel results;
  absl::Mutex mu;
  std::deque<v1::BatchItem> pending ABSL_GUARDED_BY(mu);
  std::vector<std::shared_ptr<Interrupter>> running ABSL_GUARDED_BY(mu);
  bool cancelled ABSL_GUARDED_BY(mu) = false;
  int items = 0;
};

// Starts waiting items while there is room; true when nothing is left to
// start or run.
bool Dispatch(const std::shared_ptr<BatchJob>& job) {
  ServiceContext* context = job->context;
  absl::MutexLock lock(&job->mu);
  while (!job->cancelled && !job->pending.empty() &&
         static_cast<int>(job->running.size()) < context->max_batch_in_flight) {
    v1::BatchItem item = std::move(job->pending.front());
    job->pending.pop_front();
    if (absl::Status s =
            CheckAndAdmit(context, item.request(), "SolveBatchItem", "http");
        !s.ok()) {
      job->results.Push(
          ToJson(BatchErrorResult(item.id(), s, context->instance_name)));
      continue;
    }
    auto interrupter = std::make_shared<Interrupter>();
    job->running.push_back(interrupter);
    context->request_pool->NewGroup()->Submit(
        [job, interrupter, item = std::move(item), admitted = absl::Now()] {
          v1::BatchResult result = RunAdmittedBatchItem(
              job->context, item, *interrupter, admitted, "http");
          absl::MutexLock lock(&job->mu);
          std::erase(job->running, interrupter);
          job->results.Push(ToJson(result));
        });
  }
  return (job->pending.empty() || job->cancelled) && job->running.empty();
}

void CancelBatch(BatchJob& job) {
  absl::MutexLock lock(&job.mu);
  job.cancelled = true;
  for (const auto& interrupter : job.running)
    interrupter->Interrupt(StopReason::kCancelled);
}

bool WriteBatch(const std::shared_ptr<BatchJob>& job, httplib::DataSink& sink) {
  for (;;) {
    const bool idle = Dispatch(job);
    for (std::string& line : job->results.Take()) {
      line.push_back('\n');
      if (!sink.write(line.data(), line.size())) {
        CancelBatch(*job);
        return false;
      }
    }
    if (idle && !job->results.has_lines()) {
      sink.done();
      return true;
    }
    job->results.Await(kWatchInterval);
    if (!job->results.has_lines() && !sink.is_writable()) {
      CancelBatch(*job);
      return false;
    }
  }
}

// One BatchItem per non-blank line; a line that does not parse gets an
// INVALID_ARGUMENT result of its own.
void ReadItems(BatchJob& job, const std::string& body) {
  int line_number = 0;
  absl::MutexLock lock(&job.mu);
  for (absl::string_view line : absl::StrSplit(body, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    ++job.items;
    v1::BatchItem item;
    const absl::Status s =
        ParseJson(std::string(line), &item, absl::StrCat("line ", line_number));
    if (s.ok()) {
      job.pending.push_back(std::move(item));
    } else {
      job.results.Push(
          ToJson(BatchErrorResult("", s, job.context->instance_name)));
    }
  }
}

void HandleSolveBatch(ServiceContext* context, const httplib::Request& request,
                      httplib::Response& response) {
  auto job = std::make_shared<BatchJob>();
  job->context = context;
  job->call = StartCall(request, "SolveBatch");
  job->call.puzzle = "batch";
  if (absl::Status s = Authorize(context, request); !s.ok()) {
    SendError(response, s);
    FinishCall(context, job->call, s);
    return;
  }
  ReadItems(*job, request.body);
  response.status = 200;
  response.set_chunked_content_provider(
      kNdjson,
      [job](size_t /*offset*/, httplib::DataSink& sink) {
        return WriteBatch(job, sink);
      },
      [job](bool success) {
        if (!success) CancelBatch(*job);
        // Items still running were interrupted; record once they ended.
        while (!Dispatch(job)) {
          job->results.Take();  // nobody reads them any more
          job->results.Await(kWatchInterval);
        }
        job->call.detail = absl::StrCat(" items=", job->items);
        FinishCall(job->context, job->call,
                   success ? absl::OkStatus()
                           : absl::CancelledError("the batch was cancelled"));
      });
}

}  // namespace

void RegisterStreamRoutes(httplib::Server& server, ServiceContext* context,
                          const HttpOptions& options) {
  Route(server, context, options, "POST", "/v1/solve",
        [max = options.max_answer_bytes](
            ServiceContext* c, const httplib::Request& q,
            httplib::Response& r) { HandleSolve(c, max, q, r); });
  Route(server, context, options, "POST", "/v1/generate", &HandleGenerate);
  Route(server, context, options, "POST", "/v1/solve_batch", &HandleSolveBatch);
}

}  // namespace qs::server::http
