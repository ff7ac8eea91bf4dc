// SolveBatch over loopback gRPC: every item gets exactly one result tagged with
// its id, bad items get their own status without failing the stream, items may
// carry samples, and a cancel ends the stream CANCELLED.
#include <algorithm>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/log_capture.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/test_server.h"
#include "tests/testing/timing.h"

namespace qs {
namespace {

// The NYT solution with every k-th cell blanked: a puzzle that clamping leaves
// small.
v1::SolveRequest EasySudoku(int k, int seed) {
  std::string grid = testing::kNytSolution;
  for (size_t cell = seed % k; cell < grid.size(); cell += k) grid[cell] = '.';
  v1::SolveRequest request;
  *request.mutable_puzzle() = testing::SudokuSpecFromString(grid);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(20);
  request.mutable_params()->set_seed(seed);
  return request;
}

TEST(SolveBatchTest, EveryItemGetsOneResult) {
  server::ServerOptions options;
  options.max_batch_in_flight = 3;
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  grpc::ClientContext context;
  auto stream = stub->SolveBatch(&context);
  std::map<std::string, int> expected_code;
  for (int k = 0; k < 24; ++k) {
    v1::BatchItem item;
    item.set_id(absl::StrCat("item-", k));
    *item.mutable_request() = EasySudoku(4 + k % 3, k);
    expected_code[item.id()] = 0;
    if (k == 5) {  // a bad puzzle
      item.mutable_request()->mutable_puzzle()->mutable_sudoku()->set_cells(0,
                                                                            42);
      expected_code[item.id()] = 3;
    }
    if (k == 9) {  // a bad parameter
      item.mutable_request()->mutable_params()->set_num_reads(0);
      expected_code[item.id()] = 3;
    }
    if (k == 11)
      item.mutable_request()->mutable_params()->set_max_sample_events(2);
    ASSERT_TRUE(stream->Write(item));
  }
  stream->WritesDone();
  std::map<std::string, int> results;
  v1::BatchResult result;
  while (stream->Read(&result)) {
    ++results[result.id()];
    EXPECT_EQ(result.status_code(), expected_code[result.id()])
        << result.id() << ": " << result.status_message();
    EXPECT_FALSE(result.server_instance().empty());
    if (result.status_code() != 0) {
      EXPECT_THAT(result.status_message(),
                  ::testing::AnyOf(::testing::HasSubstr("sudoku.cells[0]"),
                                   ::testing::HasSubstr("params.num_reads")));
      continue;
    }
    EXPECT_TRUE(result.summary().best_valid()) << result.id();
    EXPECT_EQ(result.summary().best_energy(), -81);
    EXPECT_EQ(result.stats().variables_total(), 729u);
    EXPECT_EQ(result.samples_size(), result.id() == "item-11" ? 2 : 0);
  }
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(results.size(), 24u);
  for (const auto& [id, count] : results) EXPECT_EQ(count, 1) << id;
}

// The cancel races the server's read of the item: it may land before the read,
// after it, or while the item runs. Each round takes one of those orders; a
// stream that never ended would keep the server's drain (its destructor)
// waiting. The client sees CANCELLED from its own cancel whatever the server
// does; the server's log line of each stream says that the server ended it
// CANCELLED, which it does only once no item of the stream runs.
TEST(SolveBatchTest, CancelEndsTheStream) {
  constexpr int kRounds = 48;
  testing::LogCapture log;
  auto server = testing::TestServer::Start({}, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  for (int round = 0; round < kRounds; ++round) {
    // A new channel each round: the first call's setup shifts the timing.
    auto stub = server->NewStub();
    grpc::ClientContext context;
    auto stream = stub->SolveBatch(&context);
    v1::BatchItem item;
    item.set_id("long");
    *item.mutable_request()->mutable_puzzle() =
        testing::SudokuSpecFromString(testing::kNytPuzzle);
    item.mutable_request()->mutable_params()->set_backend("cpu-sa");
    item.mutable_request()->mutable_params()->set_num_reads(1000);
    item.mutable_request()->mutable_params()->set_num_sweeps(1000000);
    ASSERT_TRUE(stream->Write(item));
    context.TryCancel();
    v1::BatchResult result;
    while (stream->Read(&result)) {
    }
    EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED)
        << "round " << round;
  }
  // Each item runs for minutes unless the cancel stopped it: the server ends
  // (and logs) a stream only once none of its items runs.
  EXPECT_TRUE(testing::WaitUntil(
      [&] { return log.CountLines({"rpc=SolveBatch "}) == kRounds; },
      absl::Seconds(10)))
      << log.Text();
  // A stream whose item the server read ends CANCELLED. (When the cancel
  // beats the first read, the failed read looks like the client's half-close
  // and the empty stream is logged OK.)
  EXPECT_GT(log.CountLines({"rpc=SolveBatch ", "items=1 status=CANCELLED"}), 0)
      << log.Text();
  EXPECT_EQ(log.CountLines({"rpc=SolveBatch ", "items=1 status=CANCELLED"}),
            log.CountLines({"rpc=SolveBatch ", "items=1 "}))
      << log.Text();
  // The server is free again: a short solve goes through.
  const testing::SolveStream after =
      testing::RunSolve(*server->NewStub(), EasySudoku(5, 1), 20);
  EXPECT_TRUE(after.status.ok()) << after.status.error_message();
}

TEST(SolveBatchTest, InstanceNameInResultsAndSolveHeaders) {
  server::ServerOptions options;
  options.instance_name = "replica-7";
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  const testing::SolveStream solve =
      testing::RunSolve(*stub, EasySudoku(5, 3), 20);
  ASSERT_TRUE(solve.status.ok()) << solve.status.error_message();
  ASSERT_TRUE(solve.events.front().has_header());
  EXPECT_EQ(solve.events.front().header().server_instance(), "replica-7");
  grpc::ClientContext context;
  auto stream = stub->SolveBatch(&context);
  v1::BatchItem item;
  item.set_id("one");
  *item.mutable_request() = EasySudoku(5, 4);
  ASSERT_TRUE(stream->Write(item));
  stream->WritesDone();
  v1::BatchResult result;
  ASSERT_TRUE(stream->Read(&result));
  EXPECT_EQ(result.server_instance(), "replica-7");
  EXPECT_TRUE(stream->Finish().ok());
}

// With one request thread, the items of a stream run one after another: the
// later ones report the wait in their queue phase, in the results and in the
// server's qs_solve_phase_seconds{phase="queue"}.
TEST(SolveBatchTest, ItemsReportTheirQueueTime) {
  server::ServerOptions options;
  options.max_concurrent_requests = 1;
  options.max_batch_in_flight = 3;
  auto server = testing::TestServer::Start(options, /*with_metrics=*/true);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  grpc::ClientContext context;
  auto stream = stub->SolveBatch(&context);
  for (int k = 0; k < 3; ++k) {
    v1::BatchItem item;
    item.set_id(absl::StrCat("q", k));
    *item.mutable_request() = EasySudoku(3, k);
    item.mutable_request()->mutable_params()->set_num_reads(60);
    ASSERT_TRUE(stream->Write(item));
  }
  stream->WritesDone();
  double max_queue = 0;
  int results = 0;
  v1::BatchResult result;
  while (stream->Read(&result)) {
    ++results;
    ASSERT_EQ(result.status_code(), 0) << result.status_message();
    const v1::Timings& t = result.summary().timings();
    max_queue = std::max(max_queue, t.queue_seconds());
    EXPECT_GE(t.total_seconds(), t.queue_seconds() + t.sample_seconds());
  }
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(results, 3);
  EXPECT_GT(max_queue, 0);
  auto metrics = server->ScrapeMetrics();
  ASSERT_TRUE(metrics.ok()) << metrics.status();
  EXPECT_THAT(*metrics, ::testing::HasSubstr(
                            "qs_solve_phase_seconds_count{phase=\"queue\"} 3"));
  EXPECT_THAT(*metrics,
              ::testing::Not(::testing::HasSubstr(
                  "qs_solve_phase_seconds_sum{phase=\"queue\"} 0\n")));
}

TEST(SolveBatchTest, EmptyBatchEndsOk) {
  auto server = testing::TestServer::Start({}, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  grpc::ClientContext context;
  auto stream = stub->SolveBatch(&context);
  stream->WritesDone();
  v1::BatchResult result;
  EXPECT_FALSE(stream->Read(&result));
  EXPECT_TRUE(stream->Finish().ok());
}

}  // namespace
}  // namespace qs
