// BatchReactor: one SolveBatch stream (bidirectional). Items are read one at a
// time; each runs as its own solve on the request pool under admission control,
// at most `max_in_flight` at once per stream; results are written in completion
// order, one write in flight. While `max_in_flight` items already wait, the
// reactor stops reading, so HTTP/2 flow control slows a fast sender instead of
// the server buffering without bound. A bad item gets its own status in its
// BatchResult and never fails the stream; an item the server cannot admit now
// (overloaded, draining) gets UNAVAILABLE so that the client can retry it
// elsewhere. The stream ends OK once the client has half-closed and every item
// has its result; a cancel stops every item.
#ifndef QS_SERVER_BATCH_REACTOR_H_
#define QS_SERVER_BATCH_REACTOR_H_

#include "grpcpp/grpcpp.h"
#include "qs/v1/solver_service.grpc.pb.h"
#include "server/service_context.h"

namespace qs::server {

grpc::ServerBidiReactor<v1::BatchItem, v1::BatchResult>* StartSolveBatch(
    ServiceContext* context, grpc::CallbackServerContext* call);

}  // namespace qs::server

#endif  // QS_SERVER_BATCH_REACTOR_H_
