// The Solve call: admission, job on the request pool, streaming through a
// StreamWriter, cancel and deadline.
#include "server/solve_reactor.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "core/solve/request_checks.h"
#include "server/convert.h"
#include "server/solve_job.h"
#include "server/stream_writer.h"
#include "spdlog/spdlog.h"

namespace qs::server {

std::string NewRequestId() {
  static thread_local std::mt19937_64 rng(std::random_device{}() ^
                                          absl::GetCurrentTimeNanos());
  return absl::StrFormat("%016x", rng());
}

std::string PuzzleLabel(const SolveEngine& engine,
                        const v1::PuzzleSpec& puzzle) {
  auto compiler = engine.compilers().ForSpec(puzzle);
  return compiler.ok() ? std::string((*compiler)->kind()) : "unknown";
}

std::string BackendLabel(const SolveEngine& engine,
                         const std::string& backend) {
  const Backend* found = engine.backends().Find(backend);
  return found != nullptr ? std::string(found->name()) : "invalid";
}

namespace {

class SolveReactor final : public grpc::ServerWriteReactor<v1::SolveResponse> {
 public:
  SolveReactor(ServiceContext* context, grpc::CallbackServerContext* call,
               const v1::SolveRequest* request)
      : context_(context), state_(std::make_shared<State>(this)) {
    state_->arrival = absl::Now();
    state_->request = *request;
    if (state_->request.request_id().empty())
      state_->request.set_request_id(NewRequestId());
    state_->puzzle = PuzzleLabel(*context->engine, request->puzzle());
    state_->backend =
        BackendLabel(*context->engine,
                     context->engine->backends().NameFor(request->params()));
    state_->peer = call->peer();
    // The call's deadline reaches the kernel through the interrupter.
    const auto deadline = call->deadline();
    if (deadline != std::chrono::system_clock::time_point::max()) {
      state_->interrupter.SetDeadline(absl::FromChrono(deadline),
                                      StopReason::kDeadline);
    }
    state_->call_deadline = absl::FromChrono(deadline);

    absl::Status status = context->auth->Check(*call);
    if (status.ok())
      status = CheckAndAdmit(context, state_->request, "Solve", "grpc");
    if (!status.ok()) {
      state_->writer.FinishNow(ToGrpcStatus(status));
      return;
    }
    std::shared_ptr<State> state = state_;
    context->request_pool->NewGroup()->Submit(
        [context, state] { RunJob(context, state); });
  }

  void OnWriteDone(bool ok) override { state_->writer.OnWriteDone(ok); }

  void OnCancel() override {
    // A deadline that passed shows up as a cancel too; keep the more precise
    // reason.
    const StopReason reason = absl::Now() >= state_->call_deadline
                                  ? StopReason::kDeadline
                                  : StopReason::kCancelled;
    state_->interrupter.Interrupt(reason);
  }

  void OnDone() override {
    const State& s = *state_;
    const double seconds = absl::ToDoubleSeconds(absl::Now() - s.arrival);
    const std::string code = StatusCodeName(s.writer.final_code());
    context_->metrics->RecordRequest("Solve", s.puzzle, s.backend, code,
                                     seconds);
    spdlog::info(
        "rpc=Solve request_id={} peer={} puzzle={} variables={} backend={} "
        "status={} seconds={:.4f}{}",
        RequestIdForLog(s.request.request_id()), s.peer, s.puzzle, s.variables,
        s.backend, code, seconds,
        s.writer.final_message().empty()
            ? ""
            : " message=\"" + s.writer.final_message() + "\"");
    delete this;
  }

 private:
  struct State {
    explicit State(SolveReactor* reactor) : writer(reactor, &interrupter) {}
    v1::SolveRequest request;
    std::string puzzle, backend, peer;
    absl::Time arrival;
    absl::Time call_deadline = absl::InfiniteFuture();
    Interrupter interrupter;
    uint32_t variables = 0;
    // The summary waits for the job's status, so that both leave in one
    // write.
    StreamWriter<v1::SolveResponse> writer;
    // Which events a slow client may lose (SampleThinner).
    SampleThinner thinner;

    // Queues an event. A client that reads more slowly than the solve
    // produces loses the sample events that would not improve on what it got
    // (and the progress events) once the writer's queue is full; the summary
    // says how many.
    void Send(v1::SolveResponse&& event) {
      if (event.has_summary()) {
        thinner.StampSummary(event);
        writer.Push(std::move(event), /*hold_for_close=*/true);
      } else if (thinner.MustSend(event)) {
        writer.Push(std::move(event));
      } else {
        const bool sample = event.has_sample();
        if (!writer.PushDroppable(std::move(event)) && sample)
          thinner.Dropped();
      }
    }
  };

  static void RunJob(ServiceContext* context, std::shared_ptr<State> state) {
    const absl::Status status = RunAdmittedSolve(
        context, state->request, state->interrupter, state->arrival,
        state->puzzle, state->backend, [&](v1::SolveResponse&& event) {
          if (event.has_header())
            state->variables = event.header().stats().variables();
          state->Send(std::move(event));
        });
    state->writer.Close(ToGrpcStatus(status));
  }

  ServiceContext* const context_;
  std::shared_ptr<State> state_;
};

}  // namespace

grpc::ServerWriteReactor<v1::SolveResponse>* StartSolve(
    ServiceContext* context, grpc::CallbackServerContext* call,
    const v1::SolveRequest* request) {
  return new SolveReactor(context, call, request);
}

}  // namespace qs::server
