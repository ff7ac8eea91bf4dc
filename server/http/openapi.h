// The OpenAPI 3.0 document of the HTTP/JSON front (GET /v1/openapi.json),
// generated from the protobuf descriptors of the routes' messages
// (api_routes.h) and the backends' parameter descriptions, so that no copy of
// the API is kept by hand: JSON names, enums, the oneofs and each backend
// parameter's bounds, unit, default and help.
#ifndef QS_SERVER_HTTP_OPENAPI_H_
#define QS_SERVER_HTTP_OPENAPI_H_

#include <string>

#include "qs/v1/solve.pb.h"

namespace qs::server::http {

std::string OpenApiDocument(const v1::ListBackendsResponse& backends);

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_OPENAPI_H_
