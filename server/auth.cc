// TLS credentials and bearer-token checks.
#include "server/auth.h"

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace qs::server {
namespace {

absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     const char* what) {
  std::ifstream in(path);
  if (!in)
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": cannot read ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsOptions& tls) {
  if (tls.cert_file.empty()) {
    if (!tls.key_file.empty() || !tls.client_ca_file.empty()) {
      return absl::InvalidArgumentError(
          "--tls_key_file and --tls_client_ca_file need --tls_cert_file");
    }
    return grpc::InsecureServerCredentials();
  }
  auto cert = ReadFile(tls.cert_file, "--tls_cert_file");
  if (!cert.ok()) return cert.status();
  auto key = ReadFile(tls.key_file, "--tls_key_file");
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!tls.client_ca_file.empty()) {
    auto ca = ReadFile(tls.client_ca_file, "--tls_client_ca_file");
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    options.client_certificate_request =
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

absl::StatusOr<TokenAuthorizer> TokenAuthorizer::FromFile(
    const std::string& path) {
  auto text = ReadFile(path, "--auth_token_file");
  if (!text.ok()) return text.status();
  std::string token(absl::StripAsciiWhitespace(*text));
  if (token.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("--auth_token_file: ", path, " is empty"));
  return TokenAuthorizer(std::move(token));
}

bool ConstantTimeEquals(const std::string& a, const std::string& b) {
  // Compare over the longer length so that the running time depends on the
  // lengths only.
  const size_t n = std::max(a.size(), b.size());
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t k = 0; k < n; ++k) {
    const unsigned char x = k < a.size() ? static_cast<unsigned char>(a[k]) : 0;
    const unsigned char y = k < b.size() ? static_cast<unsigned char>(b[k]) : 0;
    diff |= x ^ y;
  }
  return diff == 0;
}

absl::Status TokenAuthorizer::Check(
    const grpc::CallbackServerContext& call) const {
  if (token_.empty()) return absl::OkStatus();
  const auto& metadata = call.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return CheckHeader(nullptr);
  const std::string value(it->second.data(), it->second.size());
  return CheckHeader(&value);
}

absl::Status TokenAuthorizer::CheckHeader(
    const std::string* authorization) const {
  if (token_.empty()) return absl::OkStatus();
  if (authorization == nullptr) {
    return absl::UnauthenticatedError(
        "missing 'authorization: Bearer <token>' (gRPC metadata or HTTP "
        "header)");
  }
  // The scheme is case-insensitive (RFC 7235 section 2.1).
  constexpr absl::string_view kBearer = "Bearer ";
  if (!absl::StartsWithIgnoreCase(*authorization, kBearer) ||
      !ConstantTimeEquals(authorization->substr(kBearer.size()), token_)) {
    return absl::UnauthenticatedError("invalid bearer token");
  }
  return absl::OkStatus();
}

}  // namespace qs::server
