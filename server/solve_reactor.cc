// The Solve call: admission, job on the request pool, one write in flight,
// cancel and deadline.
#include "server/solve_reactor.h"

#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/sample/registry.h"
#include "server/convert.h"
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
  const std::string name =
      backend.empty() ? std::string(kDefaultBackend) : backend;
  const bool known = engine.samplers().Get(name).ok() ||
                     engine.samplers().FindPuzzleSolver(name) != nullptr;
  return known ? name : "invalid";
}

namespace {

class SolveReactor final : public grpc::ServerWriteReactor<v1::SolveResponse> {
 public:
  SolveReactor(ServiceContext* context, grpc::CallbackServerContext* call,
               const v1::SolveRequest* request)
      : context_(context), state_(std::make_shared<State>()) {
    state_->reactor = this;
    state_->arrival = absl::Now();
    state_->request = *request;
    if (state_->request.request_id().empty())
      state_->request.set_request_id(NewRequestId());
    state_->puzzle = PuzzleLabel(*context->engine, request->puzzle());
    state_->backend =
        BackendLabel(*context->engine, request->params().backend());
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
      status = context->engine->CheckSolveRequest(state_->request);
    if (status.ok()) {
      status = context->admission->Admit();
      if (!status.ok()) context->metrics->RecordRejected("Solve", "overloaded");
    }
    if (!status.ok()) {
      FinishNow(status);
      return;
    }
    state_->admitted = true;
    std::shared_ptr<State> state = state_;
    context->request_pool->NewGroup()->Submit(
        [context, state] { RunJob(context, state); });
  }

  void OnWriteDone(bool ok) override { Pump(state_, /*write_done=*/true, ok); }

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
    const std::string code = StatusCodeName(s.final_code);
    context_->metrics->RecordRequest("Solve", s.puzzle, s.backend, code,
                                     seconds);
    spdlog::info(
        "rpc=Solve request_id={} peer={} puzzle={} variables={} backend={} "
        "status={} seconds={:.4f}{}",
        s.request.request_id(), s.peer, s.puzzle, s.variables, s.backend, code,
        seconds,
        s.final_message.empty() ? "" : " message=\"" + s.final_message + "\"");
    delete this;
  }

 private:
  struct State {
    SolveReactor* reactor = nullptr;  // valid until Finish has been called
    v1::SolveRequest request;
    std::string puzzle, backend, peer;
    absl::Time arrival;
    absl::Time call_deadline = absl::InfiniteFuture();
    Interrupter interrupter;
    bool admitted = false;
    uint32_t variables = 0;

    absl::Mutex mu;
    std::deque<v1::SolveResponse> queue ABSL_GUARDED_BY(mu);
    v1::SolveResponse
        in_flight;  // the message being written; touched only by the writer
    bool writing ABSL_GUARDED_BY(mu) = false;
    bool client_gone ABSL_GUARDED_BY(mu) = false;
    std::optional<grpc::Status> final_status ABSL_GUARDED_BY(mu);
    bool finish_called ABSL_GUARDED_BY(mu) = false;
    grpc::StatusCode final_code =
        grpc::StatusCode::OK;  // set before Finish, read in OnDone
    std::string final_message;
  };

  void FinishNow(const absl::Status& status) {
    const grpc::Status grpc_status = ToGrpcStatus(status);
    {
      absl::MutexLock lock(&state_->mu);
      state_->finish_called = true;
    }
    state_->final_code = grpc_status.error_code();
    state_->final_message = grpc_status.error_message();
    Finish(grpc_status);
  }

  static void RunJob(ServiceContext* context, std::shared_ptr<State> state) {
    context->admission->Started();
    context->Track(&state->interrupter);
    const absl::Duration queue_time = absl::Now() - state->arrival;
    absl::Status status;
    if (state->interrupter.ShouldStop()) {
      status = SolveEngine::StatusForStop(state->interrupter.reason());
    } else {
      status = context->engine->Solve(
          state->request, state->interrupter,
          [&](v1::SolveResponse&& event) {
            if (event.has_header()) {
              state->variables = event.header().stats().variables();
              event.mutable_header()->set_server_instance(
                  context->instance_name);
            }
            context->metrics->RecordSolveEvent(state->puzzle, state->backend,
                                               event);
            Enqueue(state, std::move(event));
          },
          queue_time);
    }
    context->Untrack(&state->interrupter);
    context->admission->Finished(/*started=*/true);
    {
      absl::MutexLock lock(&state->mu);
      state->final_status = ToGrpcStatus(status);
    }
    Pump(state, /*write_done=*/false, true);
  }

  // Queues an event and starts its write when none is in flight. The summary
  // waits for the job's status, so that it goes out together with the end of
  // the call in one write.
  static void Enqueue(const std::shared_ptr<State>& state,
                      v1::SolveResponse&& event) {
    const bool last = event.has_summary();
    {
      absl::MutexLock lock(&state->mu);
      if (state->client_gone) return;
      state->queue.push_back(std::move(event));
    }
    if (!last) Pump(state, /*write_done=*/false, true);
  }

  // Starts the next write, or finishes once the job is done and the queue is
  // empty; the last message and the status go out as one operation. A write
  // followed by more queued messages carries the buffer hint, so that a burst
  // of samples leaves in few frames. The decision is made under the lock; the
  // gRPC call is made outside it, because a reaction may run on this thread.
  static void Pump(const std::shared_ptr<State>& state, bool write_done,
                   bool ok) {
    SolveReactor* reactor = nullptr;
    bool start_write = false;
    bool more_queued = false;
    std::optional<grpc::Status> finish;
    {
      absl::MutexLock lock(&state->mu);
      if (write_done) {
        state->writing = false;
        if (!ok) {
          // The stream broke (client gone): drop what is queued and stop the
          // work.
          state->client_gone = true;
          state->queue.clear();
          state->interrupter.Interrupt(StopReason::kCancelled);
        }
      }
      if (state->writing || state->finish_called) return;
      if (!state->queue.empty()) {
        state->in_flight = std::move(state->queue.front());
        state->queue.pop_front();
        start_write = true;
        more_queued = !state->queue.empty();
        if (!more_queued && state->final_status) {
          state->finish_called = true;
          finish = state->final_status;
        } else {
          state->writing = true;
        }
      } else if (state->final_status) {
        state->finish_called = true;
        finish = state->final_status;
      } else {
        return;
      }
      reactor = state->reactor;
    }
    if (finish) {
      state->final_code = finish->error_code();
      state->final_message = finish->error_message();
    }
    if (start_write && finish) {
      reactor->StartWriteAndFinish(&state->in_flight, grpc::WriteOptions(),
                                   *finish);
    } else if (start_write) {
      grpc::WriteOptions options;
      if (more_queued) options.set_buffer_hint();
      reactor->StartWrite(&state->in_flight, options);
    } else {
      reactor->Finish(*finish);
    }
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
