// An in-process qs server on loopback ports for integration tests: real gRPC,
// real /metrics. Create one per test binary when metrics are on (the metrics
// exposer takes about 2 s to stop).
#ifndef QS_TESTS_TESTING_TEST_SERVER_H_
#define QS_TESTS_TESTING_TEST_SERVER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "qs/v1/solver_service.grpc.pb.h"
#include "server/server.h"

namespace qs::testing {

class TestServer {
 public:
  // Starts on 127.0.0.1 with free ports; metrics on when `with_metrics`.
  static std::unique_ptr<TestServer> Start(server::ServerOptions options = {},
                                           bool with_metrics = true);

  const std::string& address() const { return address_; }
  int metrics_port() const { return server_->metrics_port(); }
  server::Server& server() { return *server_; }
  std::unique_ptr<v1::Solver::Stub> NewStub() const;

  // GET http://127.0.0.1:<metrics_port>/metrics.
  absl::StatusOr<std::string> ScrapeMetrics() const;

 private:
  std::unique_ptr<server::Server> server_;
  std::string address_;
};

// Reads a whole Solve stream. `status` is the call's final status.
struct SolveStream {
  std::vector<v1::SolveResponse> events;
  grpc::Status status;
  const v1::SolveSummary* summary() const;
};
SolveStream RunSolve(v1::Solver::Stub& stub, const v1::SolveRequest& request,
                     double deadline_seconds = 60);

// A Sudoku puzzle spec from an 81-character string ('.' blank).
v1::PuzzleSpec SudokuSpecFromString(const std::string& grid);

// Directory of the source tree (tests read their data from there).
std::string SourceDir();

// A fixture whose tests share one server without metrics, started once per
// suite, for tests that drive it with the qsolve binary: Addr() is
// " --addr HOST:PORT ".
class SharedServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = TestServer::Start({}, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static std::string Addr() { return " --addr " + server_->address() + " "; }
  static inline TestServer* server_ = nullptr;
};

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_TEST_SERVER_H_
