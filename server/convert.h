// The one place where absl::Status becomes grpc::Status. Abseil's codes are
// numerically gRPC's, so the mapping is a cast plus the message.
#ifndef QS_SERVER_CONVERT_H_
#define QS_SERVER_CONVERT_H_

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace qs::server {

grpc::Status ToGrpcStatus(const absl::Status& status);

// "OK", "INVALID_ARGUMENT" ...: the label used in metrics and logs.
std::string StatusCodeName(grpc::StatusCode code);

}  // namespace qs::server

#endif  // QS_SERVER_CONVERT_H_
