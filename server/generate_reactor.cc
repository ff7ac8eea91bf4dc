// The Generate call: admission, job on the request pool, one write in flight,
// cancel and deadline.
#include "server/generate_reactor.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/generate/generator.h"
#include "server/convert.h"
#include "server/solve_reactor.h"
#include "spdlog/spdlog.h"

namespace qs::server {
namespace {

class GenerateReactor final
    : public grpc::ServerWriteReactor<v1::GeneratedPuzzle> {
 public:
  GenerateReactor(ServiceContext* context, grpc::CallbackServerContext* call,
                  const v1::GenerateRequest* request)
      : context_(context), state_(std::make_shared<State>()) {
    state_->reactor = this;
    state_->arrival = absl::Now();
    state_->request = *request;
    // Bounded metric labels: a known family, and the sampling backend.
    state_->family = BuiltinGenerators().Get(request->family()).ok()
                         ? request->family()
                         : "unknown";
    state_->backend =
        BackendLabel(*context->engine, request->sampling().backend());
    state_->peer = call->peer();
    const auto deadline = call->deadline();
    if (deadline != std::chrono::system_clock::time_point::max()) {
      state_->interrupter.SetDeadline(absl::FromChrono(deadline),
                                      StopReason::kDeadline);
    }
    state_->call_deadline = absl::FromChrono(deadline);

    absl::Status status = context->auth->Check(*call);
    if (status.ok())
      status = context->engine->CheckGenerateRequest(state_->request).status();
    if (status.ok()) {
      status = context->admission->Admit();
      if (!status.ok())
        context->metrics->RecordRejected("Generate", "overloaded");
    }
    if (!status.ok()) {
      FinishNow(status);
      return;
    }
    std::shared_ptr<State> state = state_;
    context->request_pool->NewGroup()->Submit(
        [context, state] { RunJob(context, state); });
  }

  void OnWriteDone(bool ok) override { Pump(state_, /*write_done=*/true, ok); }

  void OnCancel() override {
    const StopReason reason = absl::Now() >= state_->call_deadline
                                  ? StopReason::kDeadline
                                  : StopReason::kCancelled;
    state_->interrupter.Interrupt(reason);
  }

  void OnDone() override {
    const State& s = *state_;
    const double seconds = absl::ToDoubleSeconds(absl::Now() - s.arrival);
    const std::string code = StatusCodeName(s.final_code);
    context_->metrics->RecordRequest("Generate", s.family, s.backend, code,
                                     seconds);
    spdlog::info(
        "rpc=Generate peer={} family={} puzzles={} status={} seconds={:.4f}{}",
        s.peer, s.family, s.puzzles, code, seconds,
        s.final_message.empty() ? "" : " message=\"" + s.final_message + "\"");
    delete this;
  }

 private:
  struct State {
    GenerateReactor* reactor = nullptr;  // valid until Finish has been called
    v1::GenerateRequest request;
    std::string family, backend, peer;
    absl::Time arrival;
    absl::Time call_deadline = absl::InfiniteFuture();
    Interrupter interrupter;
    int puzzles = 0;  // written by the job, read in OnDone

    absl::Mutex mu;
    std::deque<v1::GeneratedPuzzle> queue ABSL_GUARDED_BY(mu);
    v1::GeneratedPuzzle in_flight;  // touched only by the writer
    bool writing ABSL_GUARDED_BY(mu) = false;
    bool client_gone ABSL_GUARDED_BY(mu) = false;
    std::optional<grpc::Status> final_status ABSL_GUARDED_BY(mu);
    bool finish_called ABSL_GUARDED_BY(mu) = false;
    grpc::StatusCode final_code = grpc::StatusCode::OK;
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
    absl::Status status;
    if (state->interrupter.ShouldStop()) {
      status = SolveEngine::StatusForStop(state->interrupter.reason());
    } else {
      status = context->engine->Generate(
          state->request, state->interrupter,
          [&](v1::GeneratedPuzzle&& puzzle) {
            ++state->puzzles;
            {
              absl::MutexLock lock(&state->mu);
              if (state->client_gone) return;
              state->queue.push_back(std::move(puzzle));
            }
            Pump(state, /*write_done=*/false, true);
          });
    }
    context->Untrack(&state->interrupter);
    context->admission->Finished(/*started=*/true);
    {
      absl::MutexLock lock(&state->mu);
      state->final_status = ToGrpcStatus(status);
    }
    Pump(state, /*write_done=*/false, true);
  }

  // Starts the next write, or finishes once the job is done and the queue is
  // empty; the gRPC call is made outside the lock.
  static void Pump(const std::shared_ptr<State>& state, bool write_done,
                   bool ok) {
    GenerateReactor* reactor = nullptr;
    bool start_write = false;
    std::optional<grpc::Status> finish;
    {
      absl::MutexLock lock(&state->mu);
      if (write_done) {
        state->writing = false;
        if (!ok) {
          state->client_gone = true;
          state->queue.clear();
          state->interrupter.Interrupt(StopReason::kCancelled);
        }
      }
      if (state->writing || state->finish_called) return;
      if (!state->queue.empty()) {
        state->in_flight = std::move(state->queue.front());
        state->queue.pop_front();
        state->writing = true;
        start_write = true;
      } else if (state->final_status) {
        state->finish_called = true;
        finish = state->final_status;
      } else {
        return;
      }
      reactor = state->reactor;
    }
    if (start_write) {
      reactor->StartWrite(&state->in_flight);
    } else {
      state->final_code = finish->error_code();
      state->final_message = finish->error_message();
      reactor->Finish(*finish);
    }
  }

  ServiceContext* const context_;
  std::shared_ptr<State> state_;
};

}  // namespace

grpc::ServerWriteReactor<v1::GeneratedPuzzle>* StartGenerate(
    ServiceContext* context, grpc::CallbackServerContext* call,
    const v1::GenerateRequest* request) {
  return new GenerateReactor(context, call, request);
}

}  // namespace qs::server
