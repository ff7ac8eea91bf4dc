// Admission and the solve job shared by the gRPC and HTTP fronts.
#include "server/solve_job.h"

#include <algorithm>
#include <utility>

#include "absl/time/clock.h"
#include "server/convert.h"
#include "server/solve_reactor.h"

namespace qs::server {

absl::Status CheckAndAdmit(ServiceContext* context,
                           const v1::SolveRequest& request,
                           const std::string& method,
                           const std::string& protocol) {
  if (absl::Status s = context->engine->CheckSolveRequest(request); !s.ok())
    return s;
  absl::Status admitted = context->admission->Admit();
  if (!admitted.ok())
    context->metrics->RecordRejected(method, "overloaded", protocol);
  return admitted;
}

absl::Status RunAdmittedSolve(ServiceContext* context,
                              const v1::SolveRequest& request,
                              Interrupter& interrupter, absl::Time admitted,
                              const std::string& puzzle,
                              const std::string& backend,
                              const SolveEngine::EventFn& emit,
                              bool stream_samples) {
  if (absl::Status s = context->admission->Start(); !s.ok()) return s;
  context->Track(&interrupter);
  // The queue closed between Start and Track: the drain's interrupt may have
  // missed this solve.
  if (context->admission->queue_closed())
    interrupter.Interrupt(StopReason::kShutdown);
  const absl::Duration queue_time = absl::Now() - admitted;
  absl::Status status;
  if (interrupter.ShouldStop()) {
    status = SolveEngine::StatusForStop(interrupter.reason());
  } else {
    status = context->engine->Solve(
        request, interrupter,
        [&](v1::SolveResponse&& event) {
          if (event.has_header()) {
            event.mutable_header()->set_server_instance(context->instance_name);
          }
          context->metrics->RecordSolveEvent(puzzle, backend, event);
          emit(std::move(event));
        },
        queue_time, stream_samples);
  }
  context->Untrack(&interrupter);
  context->admission->Finished(/*started=*/true);
  return status;
}

bool SampleThinner::MustSend(const v1::SolveResponse& event) {
  if (event.has_progress()) return false;
  if (!event.has_sample()) return true;
  const v1::SampleEvent& sample = event.sample();
  const bool improves = !best_sent_ || sample.energy() < *best_sent_ ||
                        (sample.valid() && !valid_sent_);
  if (!improves) return false;
  best_sent_ =
      best_sent_ ? std::min(*best_sent_, sample.energy()) : sample.energy();
  valid_sent_ = valid_sent_ || sample.valid();
  return true;
}

void SampleThinner::StampSummary(v1::SolveResponse& event) const {
  event.mutable_summary()->set_sample_events_dropped(dropped_);
}

v1::BatchResult RunAdmittedBatchItem(ServiceContext* context,
                                     v1::BatchItem item,
                                     Interrupter& interrupter,
                                     absl::Time admitted,
                                     const std::string& protocol) {
  v1::BatchResult result;
  result.set_id(item.id());
  result.set_server_instance(context->instance_name);
  v1::SolveRequest& request = *item.mutable_request();
  if (request.request_id().empty())
    request.set_request_id(item.id().empty() ? NewRequestId() : item.id());
  const std::string puzzle = PuzzleLabel(*context->engine, request.puzzle());
  const std::string backend = BackendLabel(
      *context->engine, context->engine->backends().NameFor(request.params()));
  // An item that returns no samples does not have them built.
  const bool want_samples = request.params().max_sample_events() > 0;
  // Like a Solve call's, an item's queue phase is its wait for a request
  // thread, and its duration runs from admission to its result.
  const absl::Status status = RunAdmittedSolve(
      context, request, interrupter, admitted, puzzle, backend,
      [&](v1::SolveResponse&& event) {
        switch (event.event_case()) {
          case v1::SolveResponse::kHeader:
            *result.mutable_stats() =
                std::move(*event.mutable_header()->mutable_stats());
            break;
          case v1::SolveResponse::kSample:
            *result.add_samples() = std::move(*event.mutable_sample());
            break;
          case v1::SolveResponse::kSummary:
            // Without sample events, the reads are counted from here.
            if (!want_samples) {
              context->metrics->RecordSampleCounts(puzzle, backend,
                                                   event.summary().reads_done(),
                                                   event.summary().num_valid());
            }
            *result.mutable_summary() = std::move(*event.mutable_summary());
            break;
          default:
            break;
        }
      },
      want_samples);
  result.set_status_code(static_cast<int32_t>(status.code()));
  result.set_status_message(std::string(status.message()));
  context->metrics->RecordRequest(
      "SolveBatchItem", puzzle, backend,
      StatusCodeName(static_cast<grpc::StatusCode>(status.code())),
      absl::ToDoubleSeconds(absl::Now() - admitted), protocol);
  return result;
}

v1::BatchResult BatchErrorResult(const std::string& id,
                                 const absl::Status& status,
                                 const std::string& instance) {
  v1::BatchResult result;
  result.set_id(id);
  result.set_status_code(static_cast<int32_t>(status.code()));
  result.set_status_message(std::string(status.message()));
  result.set_server_instance(instance);
  return result;
}

}  // namespace qs::server
