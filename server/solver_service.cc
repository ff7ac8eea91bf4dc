// qs.v1.Solver: translation between the wire and SolveEngine.
#include "server/solver_service.h"

#include <string>
#include <utility>

#include "absl/time/clock.h"
#include "server/batch_reactor.h"
#include "server/convert.h"
#include "server/generate_reactor.h"
#include "server/solve_reactor.h"
#include "spdlog/spdlog.h"

namespace qs::server {
namespace {

// Runs `work` (which returns an absl::Status and fills the response) on the
// request pool under admission control, then finishes the unary call and
// records it.
template <typename Work>
grpc::ServerUnaryReactor* RunUnary(ServiceContext* context,
                                   grpc::CallbackServerContext* call,
                                   const char* method, std::string puzzle,
                                   Work work) {
  grpc::ServerUnaryReactor* reactor = call->DefaultReactor();
  const absl::Time arrival = absl::Now();
  auto finish = [context, reactor, method, puzzle, arrival,
                 peer = call->peer()](const absl::Status& status) {
    const grpc::Status grpc_status = ToGrpcStatus(status);
    const double seconds = absl::ToDoubleSeconds(absl::Now() - arrival);
    const std::string code = StatusCodeName(grpc_status.error_code());
    context->metrics->RecordRequest(method, puzzle, "none", code, seconds);
    spdlog::info("rpc={} peer={} puzzle={} status={} seconds={:.4f}{}", method,
                 peer, puzzle, code, seconds,
                 status.ok()
                     ? ""
                     : " message=\"" + std::string(status.message()) + "\"");
    reactor->Finish(grpc_status);
  };
  if (absl::Status auth = context->auth->Check(*call); !auth.ok()) {
    finish(auth);
    return reactor;
  }
  const absl::Status admitted = context->admission->Admit();
  if (!admitted.ok()) {
    context->metrics->RecordRejected(method, "overloaded");
    finish(admitted);
    return reactor;
  }
  context->request_pool->NewGroup()->Submit(
      [context, work = std::move(work), finish]() mutable {
        absl::Status status = context->admission->Start();
        if (status.ok()) {
          status = work();
          context->admission->Finished(/*started=*/true);
        }
        finish(status);
      });
  return reactor;
}

}  // namespace

grpc::ServerUnaryReactor* SolverService::Compile(
    grpc::CallbackServerContext* call, const v1::CompileRequest* request,
    v1::CompileResponse* response) {
  return RunUnary(context_, call, "Compile",
                  PuzzleLabel(*context_->engine, request->puzzle()),
                  [this, request, response]() -> absl::Status {
                    auto result = context_->engine->Compile(*request);
                    if (!result.ok()) return result.status();
                    *response = *std::move(result);
                    return absl::OkStatus();
                  });
}

grpc::ServerWriteReactor<v1::SolveResponse>* SolverService::Solve(
    grpc::CallbackServerContext* call, const v1::SolveRequest* request) {
  return StartSolve(context_, call, request);
}

grpc::ServerBidiReactor<v1::BatchItem, v1::BatchResult>*
SolverService::SolveBatch(grpc::CallbackServerContext* call) {
  return StartSolveBatch(context_, call);
}

grpc::ServerUnaryReactor* SolverService::Validate(
    grpc::CallbackServerContext* call, const v1::ValidateRequest* request,
    v1::ValidateResponse* response) {
  return RunUnary(context_, call, "Validate",
                  PuzzleLabel(*context_->engine, request->puzzle()),
                  [this, request, response]() -> absl::Status {
                    auto result = context_->engine->Validate(*request);
                    if (!result.ok()) return result.status();
                    *response = *std::move(result);
                    return absl::OkStatus();
                  });
}

grpc::ServerUnaryReactor* SolverService::Parse(
    grpc::CallbackServerContext* call, const v1::ParseRequest* request,
    v1::ParseResponse* response) {
  return RunUnary(context_, call, "Parse", request->kind(),
                  [this, request, response]() -> absl::Status {
                    auto result = context_->engine->Parse(*request);
                    if (!result.ok()) return result.status();
                    *response = *std::move(result);
                    return absl::OkStatus();
                  });
}

grpc::ServerUnaryReactor* SolverService::Draw(grpc::CallbackServerContext* call,
                                              const v1::DrawRequest* request,
                                              v1::DrawResponse* response) {
  return RunUnary(context_, call, "Draw",
                  PuzzleLabel(*context_->engine, request->puzzle()),
                  [this, request, response]() -> absl::Status {
                    auto result = context_->engine->Draw(*request);
                    if (!result.ok()) return result.status();
                    *response = *std::move(result);
                    return absl::OkStatus();
                  });
}

grpc::ServerUnaryReactor* SolverService::Count(
    grpc::CallbackServerContext* call, const v1::CountRequest* request,
    v1::CountResponse* response) {
  // The call's deadline and the client's cancel reach the count through an
  // interrupter, which a drain can stop too.
  const auto deadline = call->deadline();
  const absl::Time call_deadline =
      deadline == std::chrono::system_clock::time_point::max()
          ? absl::InfiniteFuture()
          : absl::FromChrono(deadline);
  return RunUnary(
      context_, call, "Count",
      PuzzleLabel(*context_->engine, request->puzzle()),
      [this, call, request, response, call_deadline]() -> absl::Status {
        Interrupter interrupter;
        interrupter.SetDeadline(call_deadline, StopReason::kDeadline);
        // A unary call's cancel is a flag on the call; the count polls it.
        interrupter.SetCancelCheck([call] { return call->IsCancelled(); });
        context_->Track(&interrupter);
        auto result = context_->engine->Count(*request, interrupter);
        context_->Untrack(&interrupter);
        if (!result.ok()) return result.status();
        *response = *std::move(result);
        return absl::OkStatus();
      });
}

grpc::ServerWriteReactor<v1::GeneratedPuzzle>* SolverService::Generate(
    grpc::CallbackServerContext* call, const v1::GenerateRequest* request) {
  return StartGenerate(context_, call, request);
}

grpc::ServerUnaryReactor* SolverService::ListBackends(
    grpc::CallbackServerContext* call, const v1::ListBackendsRequest* request,
    v1::ListBackendsResponse* response) {
  return AnswerInline(call, "ListBackends",
                      [&] { *response = context_->engine->ListBackends(); });
}

grpc::ServerUnaryReactor* SolverService::ListFamilies(
    grpc::CallbackServerContext* call, const v1::ListFamiliesRequest* request,
    v1::ListFamiliesResponse* response) {
  return AnswerInline(call, "ListFamilies",
                      [&] { *response = context_->engine->ListFamilies(); });
}

grpc::ServerUnaryReactor* SolverService::AnswerInline(
    grpc::CallbackServerContext* call, const char* method,
    absl::FunctionRef<void()> answer) {
  grpc::ServerUnaryReactor* reactor = call->DefaultReactor();
  const absl::Status auth = context_->auth->Check(*call);
  if (auth.ok()) answer();
  const grpc::Status status = ToGrpcStatus(auth);
  context_->metrics->RecordRequest(method, "none", "none",
                                   StatusCodeName(status.error_code()), 0);
  reactor->Finish(status);
  return reactor;
}

}  // namespace qs::server
