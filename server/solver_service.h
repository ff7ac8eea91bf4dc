// SolverService: the qs.v1.Solver callback service. Thin: each method
// translates to a SolveEngine call. Solve streams through a SolveReactor and
// Generate through a GenerateReactor; Compile, Validate and Count run on the
// request pool under admission control (compiling a large puzzle or counting
// must not hold a gRPC thread); ListBackends answers inline.
#ifndef QS_SERVER_SOLVER_SERVICE_H_
#define QS_SERVER_SOLVER_SERVICE_H_

#include "absl/functional/function_ref.h"
#include "grpcpp/grpcpp.h"
#include "qs/v1/solver_service.grpc.pb.h"
#include "server/service_context.h"

namespace qs::server {

class SolverService final : public v1::Solver::CallbackService {
 public:
  explicit SolverService(ServiceContext* context) : context_(context) {}

  grpc::ServerUnaryReactor* Compile(grpc::CallbackServerContext* call,
                                    const v1::CompileRequest* request,
                                    v1::CompileResponse* response) override;
  grpc::ServerWriteReactor<v1::SolveResponse>* Solve(
      grpc::CallbackServerContext* call,
      const v1::SolveRequest* request) override;
  grpc::ServerBidiReactor<v1::BatchItem, v1::BatchResult>* SolveBatch(
      grpc::CallbackServerContext* call) override;
  grpc::ServerUnaryReactor* Validate(grpc::CallbackServerContext* call,
                                     const v1::ValidateRequest* request,
                                     v1::ValidateResponse* response) override;
  grpc::ServerUnaryReactor* ListBackends(
      grpc::CallbackServerContext* call, const v1::ListBackendsRequest* request,
      v1::ListBackendsResponse* response) override;
  grpc::ServerUnaryReactor* ListFamilies(
      grpc::CallbackServerContext* call, const v1::ListFamiliesRequest* request,
      v1::ListFamiliesResponse* response) override;
  grpc::ServerUnaryReactor* Parse(grpc::CallbackServerContext* call,
                                  const v1::ParseRequest* request,
                                  v1::ParseResponse* response) override;
  grpc::ServerUnaryReactor* Draw(grpc::CallbackServerContext* call,
                                 const v1::DrawRequest* request,
                                 v1::DrawResponse* response) override;
  grpc::ServerUnaryReactor* Count(grpc::CallbackServerContext* call,
                                  const v1::CountRequest* request,
                                  v1::CountResponse* response) override;
  grpc::ServerWriteReactor<v1::GeneratedPuzzle>* Generate(
      grpc::CallbackServerContext* call,
      const v1::GenerateRequest* request) override;

 private:
  // Checks the caller, runs `answer` and finishes: the unary calls the engine
  // answers at once, without work on the pool.
  grpc::ServerUnaryReactor* AnswerInline(grpc::CallbackServerContext* call,
                                         const char* method,
                                         absl::FunctionRef<void()> answer);

  ServiceContext* const context_;
};

}  // namespace qs::server

#endif  // QS_SERVER_SOLVER_SERVICE_H_
