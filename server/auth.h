// Transport security and caller authentication: server credentials from
// certificate files (TLS, or mutual TLS when a client CA is given) and an
// optional bearer token that every qs.v1.Solver call must present as
// "authorization: Bearer <token>" (gRPC metadata or HTTP header). The token is
// compared in constant time and never logged. The health service stays open so
// that probes need no secret.
#ifndef QS_SERVER_AUTH_H_
#define QS_SERVER_AUTH_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"

namespace qs::server {

struct TlsOptions {
  std::string cert_file;       // PEM server certificate chain; empty: plaintext
  std::string key_file;        // PEM private key
  std::string client_ca_file;  // PEM CA bundle; when set, clients must present
                               // a certificate it signed
};

// Insecure credentials when cert_file is empty; else TLS (mTLS with a client
// CA). Errors name the file.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& tls);

class TokenAuthorizer {
 public:
  // No token: every call is let through.
  TokenAuthorizer() = default;
  // Reads the token from a file (surrounding whitespace trimmed); an empty file
  // is an error.
  static absl::StatusOr<TokenAuthorizer> FromFile(const std::string& path);
  explicit TokenAuthorizer(std::string token) : token_(std::move(token)) {}

  bool enabled() const { return !token_.empty(); }
  // OK, or UNAUTHENTICATED without saying what was expected.
  absl::Status Check(const grpc::CallbackServerContext& call) const;
  // The same check of an "Authorization" header's value (HTTP front);
  // `authorization` is null when the header is missing.
  absl::Status CheckHeader(const std::string* authorization) const;

 private:
  std::string token_;
};

// Constant-time comparison: the time taken does not depend on where the strings
// differ.
bool ConstantTimeEquals(const std::string& a, const std::string& b);

}  // namespace qs::server

#endif  // QS_SERVER_AUTH_H_
