// How a call's absl::Status (numerically a gRPC code) reads over HTTP: the
// status line follows the mapping of Google's API design guide
// (INVALID_ARGUMENT 400, UNAUTHENTICATED 401, RESOURCE_EXHAUSTED 429,
// CANCELLED 499, UNAVAILABLE 503, DEADLINE_EXCEEDED 504 ...) and the body is
// Google's error object: {"error":{"code":400,"status":"INVALID_ARGUMENT",
// "message":"sudoku.cells[17]: ..."}}.
#ifndef QS_SERVER_HTTP_HTTP_STATUS_H_
#define QS_SERVER_HTTP_HTTP_STATUS_H_

#include <string>

#include "absl/status/status.h"

namespace qs::server::http {

// The HTTP status of a call that ended with `code` (200 for OK).
int HttpStatusFor(absl::StatusCode code);

// The JSON error object of `status` (not OK), without a trailing newline.
// Its "code" is `http_status` when given (413, 415 ...), else the mapping's.
std::string ErrorJson(const absl::Status& status, int http_status = 0);

// A JSON string literal of `text`, quotes included.
std::string JsonQuote(const std::string& text);

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_HTTP_STATUS_H_
