// The server's command-line flags (ABSL_FLAG, defined in flags.cc) and their
// translation to ServerOptions.
#ifndef QS_SERVER_FLAGS_H_
#define QS_SERVER_FLAGS_H_

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "server/server.h"

namespace qs::server {

// Reads every server flag. INVALID_ARGUMENT names a flag with a bad value.
absl::StatusOr<ServerOptions> OptionsFromFlags();
absl::Duration ShutdownGraceFromFlags();
// Applies --log_level; INVALID_ARGUMENT for an unknown level.
absl::Status ConfigureLoggingFromFlags();

}  // namespace qs::server

#endif  // QS_SERVER_FLAGS_H_
