// TLS, mutual TLS and the bearer token over loopback gRPC, with a throwaway CA
// made by openssl for this test: a TLS server refuses plaintext clients, a
// mutual-TLS server refuses clients without a certificate signed by the CA, and
// with a token every Solver call needs "authorization: Bearer <token>"
// (UNAUTHENTICATED otherwise) while health stays open.
#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "server/auth.h"
#include "tests/testing/test_files.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::qs::testing::ReadFile;

class SecurityTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(
        absl::StrCat(::testing::TempDir(), "/qs_tls_", getpid()));
    const std::string d = *dir_;
    const std::string key =
        "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    const std::string script = absl::StrCat(
        "set -e; mkdir -p ", d, "; cd ", d, ";", "openssl req -x509 ", key,
        " -keyout ca.key -out ca.pem -days 1 -subj /CN=qs-test-ca 2>/dev/null;",
        "openssl req ", key,
        " -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null;",
        "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1' > san.ext;",
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key "
        "-CAcreateserial -out server.pem -days 1 "
        "-extfile san.ext 2>/dev/null;",
        "openssl req ", key,
        " -keyout client.key -out client.csr -subj /CN=qs-client 2>/dev/null;",
        "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key "
        "-CAcreateserial -out client.pem -days 1 "
        "2>/dev/null;",
        "openssl req -x509 ", key,
        " -keyout other.key -out other.pem -days 1 -subj /CN=stranger "
        "2>/dev/null;",
        "true");
    std::ofstream(d + ".sh") << script;
    ASSERT_EQ(std::system(("bash " + d + ".sh").c_str()), 0) << script;
    std::ofstream(File("token.txt")) << "s3cret-token\n";
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string File(const std::string& name) {
    return *dir_ + "/" + name;
  }

  static std::shared_ptr<grpc::Channel> TlsChannel(
      const std::string& address, bool client_cert,
      const std::string& cert = "client") {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadFile(File("ca.pem"));
    if (client_cert) {
      ssl.pem_cert_chain = ReadFile(File(cert + ".pem"));
      ssl.pem_private_key = ReadFile(File(cert + ".key"));
    }
    return grpc::CreateChannel(address, grpc::SslCredentials(ssl));
  }

  static grpc::StatusCode ListBackends(
      const std::shared_ptr<grpc::Channel>& channel,
      const std::string& token = "") {
    auto stub = v1::Solver::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(5));
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    v1::ListBackendsResponse response;
    return stub->ListBackends(&context, v1::ListBackendsRequest(), &response)
        .error_code();
  }

  static std::string* dir_;
};

std::string* SecurityTest::dir_ = nullptr;

TEST_F(SecurityTest, TlsServerRefusesPlaintext) {
  server::ServerOptions options;
  options.tls.cert_file = File("server.pem");
  options.tls.key_file = File("server.key");
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(ListBackends(TlsChannel(server->address(), false)),
            grpc::StatusCode::OK);
  EXPECT_EQ(ListBackends(grpc::CreateChannel(
                server->address(), grpc::InsecureChannelCredentials())),
            grpc::StatusCode::UNAVAILABLE);
}

TEST_F(SecurityTest, MutualTlsNeedsACertificateFromTheCa) {
  server::ServerOptions options;
  options.tls.cert_file = File("server.pem");
  options.tls.key_file = File("server.key");
  options.tls.client_ca_file = File("ca.pem");
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(ListBackends(TlsChannel(server->address(), true)),
            grpc::StatusCode::OK);
  EXPECT_EQ(ListBackends(TlsChannel(server->address(), false)),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(ListBackends(TlsChannel(server->address(), true, "other")),
            grpc::StatusCode::UNAVAILABLE);
}

TEST_F(SecurityTest, BearerTokenOnEveryCallHealthOpen) {
  server::ServerOptions options;
  options.auth_token_file = File("token.txt");
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(),
                                     grpc::InsecureChannelCredentials());
  EXPECT_EQ(ListBackends(channel), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ListBackends(channel, "wrong"), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(ListBackends(channel, "s3cret-token"), grpc::StatusCode::OK);

  v1::SolveRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(std::string(81, '.'));
  auto stub = v1::Solver::NewStub(channel);
  EXPECT_EQ(testing::RunSolve(*stub, request).status.error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  grpc::ClientContext batch_context;
  auto batch = stub->SolveBatch(&batch_context);
  batch->WritesDone();
  v1::BatchResult result;
  while (batch->Read(&result)) {
  }
  EXPECT_EQ(batch->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);

  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  grpc::health::v1::HealthCheckResponse response;
  ASSERT_TRUE(
      health->Check(&context, grpc::health::v1::HealthCheckRequest(), &response)
          .ok());
  EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

TEST_F(SecurityTest, BadCertificateFilesAreReported) {
  server::ServerOptions options;
  options.tls.cert_file = File("missing.pem");
  options.tls.key_file = File("server.key");
  options.address = "127.0.0.1:0";
  options.metrics_address = "";
  auto server = server::Server::Start(options);
  EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(server.status().message()),
              ::testing::HasSubstr("--tls_cert_file"));
  server::ServerOptions empty_token;
  empty_token.address = "127.0.0.1:0";
  empty_token.metrics_address = "";
  empty_token.auth_token_file = File("empty-token.txt");
  std::ofstream(File("empty-token.txt")).flush();
  EXPECT_EQ(server::Server::Start(empty_token).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ConstantTimeEqualsTest, ComparesWholeStrings) {
  EXPECT_TRUE(server::ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(server::ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(server::ConstantTimeEquals("abc", "abcd"));
  EXPECT_FALSE(server::ConstantTimeEquals("", "a"));
  EXPECT_TRUE(server::ConstantTimeEquals("", ""));
}

}  // namespace
}  // namespace qs
