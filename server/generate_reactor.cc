// The Generate call: admission, job on the request pool, streaming through a
// StreamWriter, cancel and deadline.
#include "server/generate_reactor.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/time/clock.h"
#include "core/families/builtin.h"
#include "core/generate/generator.h"
#include "server/convert.h"
#include "server/solve_reactor.h"
#include "server/stream_writer.h"
#include "spdlog/spdlog.h"

namespace qs::server {
namespace {

class GenerateReactor final
    : public grpc::ServerWriteReactor<v1::GeneratedPuzzle> {
 public:
  GenerateReactor(ServiceContext* context, grpc::CallbackServerContext* call,
                  const v1::GenerateRequest* request)
      : context_(context), state_(std::make_shared<State>(this)) {
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
      state_->writer.FinishNow(ToGrpcStatus(status));
      return;
    }
    std::shared_ptr<State> state = state_;
    context->request_pool->NewGroup()->Submit(
        [context, state] { RunJob(context, state); });
  }

  void OnWriteDone(bool ok) override { state_->writer.OnWriteDone(ok); }

  void OnCancel() override {
    const StopReason reason = absl::Now() >= state_->call_deadline
                                  ? StopReason::kDeadline
                                  : StopReason::kCancelled;
    state_->interrupter.Interrupt(reason);
  }

  void OnDone() override {
    const State& s = *state_;
    const double seconds = absl::ToDoubleSeconds(absl::Now() - s.arrival);
    const std::string code = StatusCodeName(s.writer.final_code());
    context_->metrics->RecordRequest("Generate", s.family, s.backend, code,
                                     seconds);
    spdlog::info(
        "rpc=Generate peer={} family={} puzzles={} status={} seconds={:.4f}{}",
        s.peer, s.family, s.puzzles, code, seconds,
        s.writer.final_message().empty()
            ? ""
            : " message=\"" + s.writer.final_message() + "\"");
    delete this;
  }

 private:
  struct State {
    explicit State(GenerateReactor* reactor) : writer(reactor, &interrupter) {}
    v1::GenerateRequest request;
    std::string family, backend, peer;
    absl::Time arrival;
    absl::Time call_deadline = absl::InfiniteFuture();
    Interrupter interrupter;
    int puzzles = 0;  // written by the job, read in OnDone
    StreamWriter<v1::GeneratedPuzzle> writer;
  };

  static void RunJob(ServiceContext* context, std::shared_ptr<State> state) {
    absl::Status status = context->admission->Start();
    if (!status.ok()) {
      state->writer.Close(ToGrpcStatus(status));
      return;
    }
    context->Track(&state->interrupter);
    if (state->interrupter.ShouldStop()) {
      status = SolveEngine::StatusForStop(state->interrupter.reason());
    } else {
      status = context->engine->Generate(
          state->request, state->interrupter,
          [&](v1::GeneratedPuzzle&& puzzle) {
            ++state->puzzles;
            state->writer.PushWaiting(std::move(puzzle));
          });
    }
    context->Untrack(&state->interrupter);
    context->admission->Finished(/*started=*/true);
    state->writer.Close(ToGrpcStatus(status));
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
