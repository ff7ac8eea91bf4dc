// Limits and overload over loopback gRPC: a model over the size limit gets
// RESOURCE_EXHAUSTED before anything is built; a full admission queue turns
// requests away at once with UNAVAILABLE; a drain makes health NOT_SERVING,
// turns new calls away and stops running solves after the grace period; the
// memory trimmer runs beside requests.
#include <chrono>
#include <thread>

#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/test_server.h"
#include "tests/testing/timing.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

v1::SolveRequest LongSolve() {
  v1::SolveRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_num_sweeps(1000000);
  return request;
}

// The NYT solution with every fourth cell blanked: solved in milliseconds.
v1::SolveRequest ShortSolve() {
  std::string grid = testing::kNytSolution;
  for (size_t cell = 0; cell < grid.size(); cell += 4) grid[cell] = '.';
  v1::SolveRequest request;
  *request.mutable_puzzle() = testing::SudokuSpecFromString(grid);
  request.mutable_params()->set_num_reads(4);
  return request;
}

// Starts a solve and waits for its header, so that it holds its admission slot.
struct RunningSolve {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::SolveResponse>> reader;
  explicit RunningSolve(v1::Solver::Stub& stub) {
    reader = stub.Solve(&context, LongSolve());
    v1::SolveResponse header;
    EXPECT_TRUE(reader->Read(&header) && header.has_header());
  }
  grpc::StatusCode Cancel() {
    context.TryCancel();
    v1::SolveResponse event;
    while (reader->Read(&event)) {
    }
    return reader->Finish().error_code();
  }
};

TEST(AdmissionTest, OverSizeModelIsResourceExhausted) {
  server::ServerOptions options;
  options.limits.max_variables = 10000;
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  v1::SolveRequest request;
  v1::SudokuPuzzle* sudoku = request.mutable_puzzle()->mutable_sudoku();
  sudoku->set_box_size(5);  // 25x25: 15625 variables
  for (int k = 0; k < 625; ++k) sudoku->add_cells(0);
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  EXPECT_EQ(stream.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(stream.status.error_message(), HasSubstr("15625 variables"));
  v1::CompileRequest compile;
  *compile.mutable_puzzle() = request.puzzle();
  v1::CompileResponse response;
  grpc::ClientContext context;
  EXPECT_EQ(stub->Compile(&context, compile, &response).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST(AdmissionTest, FullQueueIsUnavailableAtOnce) {
  server::ServerOptions options;
  options.worker_threads = 1;
  options.max_concurrent_requests = 1;
  options.max_queued_requests = 1;
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  RunningSolve first(*stub);  // runs
  grpc::ClientContext queued_context;
  auto queued = stub->Solve(&queued_context,
                            LongSolve());  // waits for the request thread
  // Wait until the second call is admitted (queued) before sending the third.
  bool saw_unavailable = false;
  for (int attempt = 0; attempt < 50 && !saw_unavailable; ++attempt) {
    const testing::SolveStream third =
        testing::RunSolve(*stub, LongSolve(), 10);
    if (third.status.error_code() == grpc::StatusCode::UNAVAILABLE) {
      saw_unavailable = true;
      EXPECT_THAT(third.status.error_message(), HasSubstr("retry"));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  EXPECT_TRUE(saw_unavailable);
  EXPECT_EQ(first.Cancel(), grpc::StatusCode::CANCELLED);
  queued_context.TryCancel();
  v1::SolveResponse event;
  while (queued->Read(&event)) {
  }
  EXPECT_EQ(queued->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

TEST(AdmissionTest, DrainStopsRunningSolvesAndTurnsNewOnesAway) {
  auto server = testing::TestServer::Start({}, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(),
                                     grpc::InsecureChannelCredentials());
  auto stub = v1::Solver::NewStub(channel);
  auto running = std::make_unique<RunningSolve>(*stub);
  std::thread drain([&] { server->server().Drain(absl::Milliseconds(200)); });
  // The running solve ends UNAVAILABLE once the grace period is over.
  v1::SolveResponse event;
  while (running->reader->Read(&event)) {
  }
  const grpc::Status status = running->reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE)
      << status.error_message();
  drain.join();
}

grpc::health::v1::HealthCheckResponse::ServingStatus Health(
    grpc::health::v1::Health::Stub& health, const std::string& service) {
  grpc::ClientContext context;
  context.set_deadline(testing::ScaledDeadline(absl::Seconds(5)));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = health.Check(&context, request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response.status();
}

// While a drain waits for a running solve, health says NOT_SERVING and a new
// call is refused, UNAVAILABLE naming the drain (not ended by its deadline, or
// by the closed server).
TEST(AdmissionTest, DrainTurnsHealthNotServingAndRefusesNewCalls) {
  auto server = testing::TestServer::Start({}, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto channel = grpc::CreateChannel(server->address(),
                                     grpc::InsecureChannelCredentials());
  auto stub = v1::Solver::NewStub(channel);
  auto health = grpc::health::v1::Health::NewStub(channel);
  using grpc::health::v1::HealthCheckResponse;
  EXPECT_EQ(Health(*health, "qs.v1.Solver"), HealthCheckResponse::SERVING);
  RunningSolve running(*stub);
  // A grace period far longer than the checks: the drain waits for
  // `running`, which the test cancels once it has looked.
  absl::Notification drain_started;
  std::thread drain([&] {
    drain_started.Notify();
    server->server().Drain(testing::Scaled(absl::Seconds(60)));
  });
  drain_started.WaitForNotification();
  EXPECT_TRUE(testing::WaitUntil(
      [&] {
        return Health(*health, "qs.v1.Solver") ==
               HealthCheckResponse::NOT_SERVING;
      },
      absl::Seconds(5)));
  EXPECT_EQ(Health(*health, ""), HealthCheckResponse::NOT_SERVING);
  // Health turns before admission closes; a short solve that slipped in
  // between is tried again.
  testing::SolveStream after;
  EXPECT_TRUE(testing::WaitUntil(
      [&] {
        after =
            testing::RunSolve(*stub, ShortSolve(), testing::ScaledSeconds(5));
        return !after.status.ok();
      },
      absl::Seconds(5)));
  EXPECT_EQ(after.status.error_code(), grpc::StatusCode::UNAVAILABLE)
      << after.status.error_message();
  EXPECT_THAT(after.status.error_message(), HasSubstr("draining"));
  EXPECT_TRUE(after.events.empty());
  // The drain returns once the running solve has ended.
  running.Cancel();
  drain.join();
}

// The memory trimmer runs beside the requests (here every millisecond) without
// disturbing them, and the server stops with it.
TEST(AdmissionTest, ServesWhileTrimmingMemory) {
  server::ServerOptions options;
  options.memory_trim_interval = absl::Milliseconds(1);
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  std::string grid = testing::kNytSolution;
  for (size_t cell = 0; cell < grid.size(); cell += 4) grid[cell] = '.';
  for (int k = 0; k < 10; ++k) {
    v1::SolveRequest request;
    *request.mutable_puzzle() = testing::SudokuSpecFromString(grid);
    request.mutable_params()->set_num_reads(10);
    request.mutable_params()->set_seed(k);
    const testing::SolveStream stream = testing::RunSolve(*stub, request, 30);
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    ASSERT_NE(stream.summary(), nullptr);
    EXPECT_EQ(stream.summary()->best_energy(), -81);
  }
  server.reset();
}

}  // namespace
}  // namespace qs
