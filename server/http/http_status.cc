// gRPC code -> HTTP status, and the JSON error body.
#include "server/http/http_status.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qs::server::http {

int HttpStatusFor(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kCancelled:
      return 499;  // "client closed request", as Google's guide has it
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    default:  // UNKNOWN, INTERNAL, DATA_LOSS and codes past the table
      return 500;
  }
}

std::string JsonQuote(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += absl::StrFormat("\\u%04x", c);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string ErrorJson(const absl::Status& status, int http_status) {
  return absl::StrCat(
      R"({"error":{"code":)",
      http_status != 0 ? http_status : HttpStatusFor(status.code()),
      R"(,"status":)", JsonQuote(absl::StatusCodeToString(status.code())),
      R"(,"message":)", JsonQuote(std::string(status.message())), "}}");
}

}  // namespace qs::server::http
