// GenerateReactor: one server-streaming Generate call, shaped like the
// SolveReactor (docs/architecture.md §5): checks and admission on the gRPC
// thread, the work (SolveEngine::Generate) on the request pool, one write in
// flight from a queue, cancel and deadline through the Interrupter, shared
// state in a shared_ptr so that the job may outlive the reactor. Each puzzle is
// written as soon as it is made.
#ifndef QS_SERVER_GENERATE_REACTOR_H_
#define QS_SERVER_GENERATE_REACTOR_H_

#include "grpcpp/grpcpp.h"
#include "qs/v1/solver_service.grpc.pb.h"
#include "server/service_context.h"

namespace qs::server {

// Creates the reactor for one call; it deletes itself when the call is done.
grpc::ServerWriteReactor<v1::GeneratedPuzzle>* StartGenerate(
    ServiceContext* context, grpc::CallbackServerContext* call,
    const v1::GenerateRequest* request);

}  // namespace qs::server

#endif  // QS_SERVER_GENERATE_REACTOR_H_
