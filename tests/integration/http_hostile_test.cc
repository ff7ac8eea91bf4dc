// The HTTP front against hostile and careless clients, over loopback raw
// sockets: chunked and oversized bodies without a token (refused unread, the
// process's memory flat), slowloris connections (headers trickled or never
// finished) and the per-client bound, clients that never read a streamed
// answer, deep JSON, forged and oversized request ids, the drain with a
// queue, the lower-case bearer scheme and curl -d's form content type.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "spdlog/sinks/ostream_sink.h"
#include "spdlog/spdlog.h"
#include "tests/testing/test_server.h"
#include "tests/testing/timing.h"

namespace qs {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

constexpr char kToken[] = "s3cret";

// A small solve: the 6-queens problem.
constexpr char kSmallSolve[] =
    R"({"puzzle":{"queens":{"rows":6}},"params":{"numReads":4,"seed":"1"}})";

// An empty 9x9 Sudoku with ten million sweeps per read: runs far longer than
// any test waits.
std::string EmptySudoku() {
  std::string cells = "0";
  for (int i = 1; i < 81; ++i) cells += ",0";
  return absl::StrCat(R"({"sudoku":{"cells":[)", cells, "]}}");
}

std::string EndlessSolve() {
  return absl::StrCat(R"({"puzzle":)", EmptySudoku(),
                      R"(,"params":{"backend":"cpu-sa","numReads":2,)"
                      R"("numSweeps":10000000,"seed":"1"}})");
}

// Resident memory of this process (the server runs in it), bytes.
int64_t ResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (absl::StartsWith(line, "VmRSS:"))
      return std::atoll(line.c_str() + 6) * 1024;
  }
  return 0;
}

// A loopback connection whose reads give up after `timeout_seconds`.
int Connect(int port, int timeout_seconds = 10) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  timeval timeout{.tv_sec = timeout_seconds, .tv_usec = 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
            0);
  return fd;
}

bool SendAll(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n =
        send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

// Reads until `text` has arrived, the peer closed, or the read timed out.
std::string ReadUntil(int fd, const std::string& text) {
  std::string received;
  char buffer[4096];
  while (!absl::StrContains(received, text)) {
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    received.append(buffer, static_cast<size_t>(n));
  }
  return received;
}

// How many of `fds` the server has closed, waiting up to a second (scaled)
// for `expected` of them.
int CountClosed(const std::vector<int>& fds, int expected) {
  int closed = 0;
  testing::WaitUntil(
      [&] {
        closed = 0;
        for (int fd : fds) {
          pollfd p{.fd = fd, .events = POLLRDHUP, .revents = 0};
          if (poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP)) != 0)
            ++closed;
        }
        return closed >= expected;
      },
      absl::Seconds(1));
  return closed;
}

// True when the server closed the connection (EOF or reset) before the
// read timeout.
bool ClosedByServer(int fd) {
  char buffer[4096];
  for (;;) {
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n == 0) return true;
    if (n < 0) return errno == ECONNRESET;
  }
}

std::string Post(const std::string& path, const std::string& body,
                 const std::string& headers = "") {
  return absl::StrCat("POST ", path,
                      " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ",
                      body.size(), "\r\n", headers, "\r\n", body);
}

// A gRPC Solve with the token, read to its end: its status.
grpc::Status GrpcSolve(v1::Solver::Stub& stub,
                       const v1::SolveRequest& request) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", absl::StrCat("Bearer ", kToken));
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(30));
  auto reader = stub.Solve(&context, request);
  v1::SolveResponse event;
  while (reader->Read(&event)) {
  }
  return reader->Finish();
}

std::string Bearer() {
  return absl::StrCat("Authorization: Bearer ", kToken, "\r\n");
}

class HttpHostileTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string dir =
        absl::StrCat(::testing::TempDir(), "/qs_http_hostile_", getpid());
    std::system(absl::StrCat("mkdir -p ", dir).c_str());
    token_file_ = new std::string(dir + "/token.txt");
    std::ofstream(*token_file_) << kToken << "\n";
  }
  static void TearDownTestSuite() { delete token_file_; }

  // A server with the token and its HTTP front on a free loopback port.
  std::unique_ptr<testing::TestServer> Start(server::ServerOptions options) {
    options.http.address = "127.0.0.1:0";
    options.auth_token_file = *token_file_;
    auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
    EXPECT_NE(server, nullptr);
    return server;
  }

  static httplib::Client Client(int port) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(10);
    client.set_bearer_token_auth(kToken);
    return client;
  }

  static std::string* token_file_;
};

std::string* HttpHostileTest::token_file_ = nullptr;

TEST_F(HttpHostileTest, ChunkedBodyWithoutTokenIsRefusedUnread) {
  auto server = Start({});
  const int port = server->server().http_port();
  const int fd = Connect(port, testing::ScaledSeconds(10));
  ASSERT_TRUE(SendAll(fd,
                      "POST /v1/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Transfer-Encoding: chunked\r\n\r\n"));
  // The refusal comes from the head alone, before any body byte is sent (a
  // server that waited for the body would leave this read to time out).
  const std::string answer = ReadUntil(fd, "}}");
  EXPECT_THAT(answer, HasSubstr("HTTP/1.1 401"));
  EXPECT_THAT(answer, HasSubstr("UNAUTHENTICATED"));
  const int64_t before = ResidentBytes();
  // Up to 256 MiB in 64 KiB chunks, until the server closes.
  const std::string chunk =
      absl::StrCat("10000\r\n", std::string(1 << 16, '['), "\r\n");
  int64_t sent = 0;
  while (sent < (int64_t{256} << 20) && SendAll(fd, chunk)) sent += 1 << 16;
  const int64_t growth = ResidentBytes() - before;
  close(fd);
  EXPECT_LT(growth, int64_t{32} << 20) << "sent " << sent;
  EXPECT_EQ(Client(port).Get("/healthz")->status, 200);
}

TEST_F(HttpHostileTest, OversizedBodiesGet413BeforeOrWhileRead) {
  server::ServerOptions options;
  options.http.max_body_bytes = 1 << 20;
  auto server = Start(options);
  const int port = server->server().http_port();
  // Declared: refused from the headers, with the token.
  int fd = Connect(port);
  ASSERT_TRUE(
      SendAll(fd, absl::StrCat("POST /v1/solve HTTP/1.1\r\nHost: x\r\n",
                               Bearer(), "Content-Length: 300000000\r\n\r\n")));
  std::string answer = ReadUntil(fd, "}}");
  close(fd);
  EXPECT_THAT(answer, HasSubstr("HTTP/1.1 413"));
  EXPECT_THAT(answer, HasSubstr(R"("code":413)"));
  EXPECT_THAT(answer, HasSubstr("--http_max_body_mb"));
  // Chunked: refused once past the limit. The answer is read while the body
  // is still being sent, so that it is in hand before the server's close
  // can reset the connection; a server that read on without answering
  // leaves the read to time out.
  fd = Connect(port, testing::ScaledSeconds(10));
  ASSERT_TRUE(SendAll(
      fd, absl::StrCat("POST /v1/solve HTTP/1.1\r\nHost: x\r\n", Bearer(),
                       "Transfer-Encoding: chunked\r\n\r\n")));
  std::thread reader([&] { answer = ReadUntil(fd, "}}"); });
  const std::string chunk =
      absl::StrCat("10000\r\n", std::string(1 << 16, ' '), "\r\n");
  for (int k = 0; k < 64 && SendAll(fd, chunk); ++k) {
  }
  reader.join();
  close(fd);
  EXPECT_THAT(answer, HasSubstr("HTTP/1.1 413"));
  EXPECT_THAT(answer, HasSubstr(R"("code":413)"));
}

TEST_F(HttpHostileTest, SlowlorisConnectionsDoNotStallOthers) {
  auto server = Start({});
  const int port = server->server().http_port();
  // 200 connections from the test's own address with unfinished heads.
  std::vector<int> slow;
  for (int k = 0; k < 200; ++k) {
    slow.push_back(Connect(port));
    SendAll(slow.back(), "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  }
  httplib::Client client = Client(port);
  client.set_read_timeout(testing::ScaledSeconds(3));
  auto health = client.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto solve =
      client.Post("/v1/solve?stream=false", kSmallSolve, "application/json");
  ASSERT_TRUE(solve);
  EXPECT_EQ(solve->status, 200) << solve->body;
  for (int fd : slow) close(fd);
}

TEST_F(HttpHostileTest, HeadsPastTheirDeadlineAndTheClientBoundAreClosed) {
  server::ServerOptions options;
  options.http.header_timeout = absl::Milliseconds(300);
  options.http.max_connections_per_client = 8;
  auto server = Start(options);
  const int port = server->server().http_port();
  // A head trickled past its deadline: the connection is closed.
  const int trickle = Connect(port);
  SendAll(trickle, "GET /healthz HTTP/1.1\r\n");
  EXPECT_TRUE(ClosedByServer(trickle));
  close(trickle);
  // Twelve idle connections from one address: four of them make room.
  std::vector<int> idle;
  for (int k = 0; k < 12; ++k) idle.push_back(Connect(port));
  EXPECT_EQ(CountClosed(idle, 4), 4);
  for (int fd : idle) close(fd);
  // A new client is served whatever the idle ones do.
  std::vector<int> more;
  for (int k = 0; k < 8; ++k) more.push_back(Connect(port));
  auto health = Client(port).Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  for (int fd : more) close(fd);
}

TEST_F(HttpHostileTest, ClientsThatNeverReadDoNotStarveOthers) {
  server::ServerOptions options;
  options.max_concurrent_requests = 12;
  options.http.write_timeout = absl::Milliseconds(500);
  auto server = Start(options);
  const int port = server->server().http_port();
  std::vector<int> silent;
  for (int k = 0; k < 10; ++k) {
    silent.push_back(Connect(port));
    SendAll(silent.back(),
            Post("/v1/solve", EndlessSolve(),
                 absl::StrCat(Bearer(), "Content-Type: application/json\r\n")));
  }
  httplib::Client client = Client(port);
  client.set_read_timeout(testing::ScaledSeconds(5));
  auto health = client.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto compile = client.Post(
      "/v1/compile", R"({"puzzle":{"queens":{"rows":8}}})", "application/json");
  ASSERT_TRUE(compile);
  EXPECT_EQ(compile->status, 200) << compile->body;
  for (int fd : silent) close(fd);
}

TEST_F(HttpHostileTest, DeepJsonIsRefusedBeforeParsing) {
  auto server = Start({});
  httplib::Client client = Client(server->server().http_port());
  const int64_t before = ResidentBytes();
  auto parse =
      client.Post("/v1/parse", std::string(15 << 20, '['), "application/json");
  ASSERT_TRUE(parse);
  EXPECT_EQ(parse->status, 400);
  EXPECT_THAT(parse->body, HasSubstr("nested deeper than 64"));
  EXPECT_LT(ResidentBytes() - before, int64_t{128} << 20);
  for (const char* path : {"/v1/solve", "/v1/format", "/v1/solve_batch"}) {
    auto deep = client.Post(path, std::string(100, '{'), "application/json");
    ASSERT_TRUE(deep) << path;
    EXPECT_EQ(deep->status, 400) << path;
  }
}

TEST_F(HttpHostileTest, RequestIdsAreBoundedAndLoggedEscaped) {
  std::ostringstream log;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
  spdlog::default_logger()->sinks().push_back(sink);
  auto server = Start({});
  const int port = server->server().http_port();
  httplib::Client client = Client(port);
  const std::string forged = "ok\nrpc=Solve request_id=forged status=OK";
  const std::string body = absl::StrCat(R"({"requestId":)", Json(forged).dump(),
                                        R"(,"puzzle":{"queens":{"rows":6}}})");
  auto refused =
      client.Post("/v1/solve?stream=false", body, "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  EXPECT_THAT(refused->body, HasSubstr("request_id"));
  auto long_id =
      client.Post("/v1/solve?stream=false",
                  absl::StrCat(R"({"requestId":")", std::string(1 << 20, 'a'),
                               R"(","puzzle":{"queens":{"rows":6}}})"),
                  "application/json");
  ASSERT_TRUE(long_id);
  EXPECT_EQ(long_id->status, 400);
  EXPECT_THAT(long_id->body, HasSubstr("request_id: at most 128"));
  auto header = client.Post("/v1/solve?stream=false",
                            {{"X-Request-Id", std::string(200, 'b')}},
                            kSmallSolve, "application/json");
  ASSERT_TRUE(header);
  EXPECT_EQ(header->status, 400);
  EXPECT_TRUE(header->get_header_value("X-Request-Id").empty());
  // A 1 MB header: the head is cut at its cap and answered 400.
  auto huge = client.Post("/v1/solve?stream=false",
                          {{"X-Request-Id", std::string(1 << 20, 'c')}},
                          kSmallSolve, "application/json");
  ASSERT_TRUE(huge);
  EXPECT_EQ(huge->status, 400);
  auto good =
      client.Post("/v1/solve?stream=false", {{"X-Request-Id", "job-42"}},
                  kSmallSolve, "application/json");
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 200);
  EXPECT_EQ(good->get_header_value("X-Request-Id"), "job-42");
  // gRPC takes the same rule.
  auto stub = server->NewStub();
  v1::SolveRequest request;
  request.set_request_id(forged);
  request.mutable_puzzle()->mutable_queens()->set_rows(6);
  const grpc::Status status = GrpcSolve(*stub, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("request_id"));
  server.reset();
  spdlog::default_logger()->sinks().pop_back();
  int escaped = 0;
  for (absl::string_view line : absl::StrSplit(log.str(), '\n')) {
    EXPECT_FALSE(absl::StartsWith(line, "rpc=Solve request_id=forged")) << line;
    EXPECT_LT(line.size(), 4096u);
    if (absl::StrContains(line, "request_id=ok\\x0arpc=Solve")) ++escaped;
  }
  EXPECT_EQ(escaped, 2);  // the HTTP call and the gRPC call
}

TEST_F(HttpHostileTest, DrainRefusesQueuedCallsAndStopsRunningOnes) {
  server::ServerOptions options;
  options.max_concurrent_requests = 1;
  options.max_queued_requests = 4;
  auto server = Start(options);
  const int port = server->server().http_port();
  const std::string headers =
      absl::StrCat(Bearer(), "Content-Type: application/json\r\n");
  const int running = Connect(port, 30);
  SendAll(running, Post("/v1/solve", EndlessSolve(), headers));
  ASSERT_THAT(ReadUntil(running, "\"header\""), HasSubstr("200 OK"));
  const int queued_http = Connect(port, 30);
  SendAll(queued_http, Post("/v1/solve?stream=false", EndlessSolve(), headers));
  auto stub = server->NewStub();
  v1::SolveRequest request;
  request.mutable_puzzle()->mutable_queens()->set_rows(6);
  grpc::Status queued_grpc;
  std::thread grpc_call([&] { queued_grpc = GrpcSolve(*stub, request); });
  for (int k = 0; k < 500; ++k) {  // wait for both to queue
    auto health = Client(port).Get("/healthz");
    if (health && Json::parse(health->body)["queued"] == 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  server->server().Drain(absl::Milliseconds(300));
  grpc_call.join();
  EXPECT_EQ(queued_grpc.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(queued_grpc.error_message(), HasSubstr("draining"));
  const std::string queued_answer = ReadUntil(queued_http, "}}");
  EXPECT_THAT(queued_answer, HasSubstr("HTTP/1.1 503"));
  EXPECT_THAT(queued_answer, HasSubstr("draining"));
  const std::string rest = ReadUntil(running, "\r\n0\r\n\r\n");
  EXPECT_THAT(rest, HasSubstr("UNAVAILABLE"));
  close(running);
  close(queued_http);
}

TEST_F(HttpHostileTest, LowerCaseBearerFormBodiesAndAnswerBudget) {
  auto server = Start({});
  const int port = server->server().http_port();
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(10);
  // curl -d: a 20 KB JSON body sent as a form.
  const std::string body = absl::StrCat(std::string(20000, ' '), kSmallSolve);
  auto form = client.Post("/v1/solve?stream=false",
                          {{"Authorization", absl::StrCat("bearer ", kToken)}},
                          body, "application/x-www-form-urlencoded");
  ASSERT_TRUE(form);
  EXPECT_EQ(form->status, 200) << form->body;
  // A one-object answer past the budget is refused before the solve.
  auto big = Client(port).Post(
      "/v1/solve?stream=false",
      absl::StrCat(R"({"puzzle":)", EmptySudoku(),
                   R"(,"params":{"maxSampleEvents":100000}})"),
      "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 429);
  EXPECT_THAT(big->body, HasSubstr("params.max_sample_events"));
}

}  // namespace
}  // namespace qs
