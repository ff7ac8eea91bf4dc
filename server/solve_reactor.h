// SolveReactor: one server-streaming Solve call (docs/architecture.md §5). On
// the gRPC thread it checks the request, asks Admission for a slot (UNAVAILABLE
// when full) and hands the work to the request pool; it never blocks in a
// reaction. The job thread runs SolveEngine::Solve and pushes events into a
// write queue; the reactor keeps one write in flight (StartWrite -> OnWriteDone
// -> next) and finishes with the engine's status once the queue is drained.
// OnCancel and the call's deadline reach the anneal through the Interrupter.
// The shared state lives in a shared_ptr so that the job may outlive the
// reactor object safely; nothing touches the reactor after Finish.
#ifndef QS_SERVER_SOLVE_REACTOR_H_
#define QS_SERVER_SOLVE_REACTOR_H_

#include "grpcpp/grpcpp.h"
#include "qs/v1/solver_service.grpc.pb.h"
#include "server/service_context.h"

namespace qs::server {

// Creates the reactor for one call; it deletes itself when the call is done.
grpc::ServerWriteReactor<v1::SolveResponse>* StartSolve(
    ServiceContext* context, grpc::CallbackServerContext* call,
    const v1::SolveRequest* request);

// A fresh request id (16 hex digits).
std::string NewRequestId();

// Bounded metric labels for a request: the compiler kind ("unknown" when the
// puzzle is unset) and the backend name ("invalid" when no such backend is
// registered).
std::string PuzzleLabel(const SolveEngine& engine,
                        const v1::PuzzleSpec& puzzle);
std::string BackendLabel(const SolveEngine& engine, const std::string& backend);

}  // namespace qs::server

#endif  // QS_SERVER_SOLVE_REACTOR_H_
