// The "dwave" backend through the real gRPC server and the qsolve CLI, with the
// SAPI emulator standing in for D-Wave: the NYT Sudoku solves with a valid
// board over gRPC and again from the CLI (which reuses the server's cached
// embedding), ListBackends reports the backend's state, /metrics carries QPU
// time and chain statistics, and a cancelled call sends DELETE for its queued
// problem.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

constexpr char kToken[] = "INTEGRATION-token-5150";

std::string RunCommand(const std::string& command, int* exit_code) {
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    out.append(buffer, n);
  const int status = pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string Qsolve() {
  const char* dir = std::getenv("QS_BINARY_DIR");
  return absl::StrCat(dir != nullptr ? dir : "build", "/clients/qsolve");
}

server::ServerOptions DwaveServerOptions(
    const sapi_emulator::SapiEmulator& emulator) {
  server::ServerOptions options;
  options.backends.dwave.emplace();
  options.backends.dwave->endpoint = emulator.endpoint();
  options.backends.dwave->token = kToken;
  options.backends.dwave->solver = "Advantage_emulator_P16";
  return options;
}

class DwaveServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.queue_delay = absl::Milliseconds(20);
    options.run_time = absl::Milliseconds(20);
    options.sweeps = 10000;
    options.flip_probability = 0.0001;
    emulator_ = new sapi_emulator::SapiEmulator(options);
    ASSERT_OK(emulator_->Start());
    server_ =
        testing::TestServer::Start(DwaveServerOptions(*emulator_)).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    delete emulator_;
  }

  static sapi_emulator::SapiEmulator* emulator_;
  static testing::TestServer* server_;
};

sapi_emulator::SapiEmulator* DwaveServiceTest::emulator_ = nullptr;
testing::TestServer* DwaveServiceTest::server_ = nullptr;

TEST_F(DwaveServiceTest, NytSudokuOverGrpcAndFromTheCli) {
  auto stub = server_->NewStub();
  {
    grpc::ClientContext context;
    v1::ListBackendsResponse backends;
    ASSERT_TRUE(
        stub->ListBackends(&context, v1::ListBackendsRequest(), &backends)
            .ok());
    bool listed = false;
    for (const auto& b : backends.backends()) {
      if (b.name() == "dwave") listed = b.available();
    }
    EXPECT_TRUE(listed);
  }

  v1::SolveRequest request;
  request.set_request_id("nyt-qpu");
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(qs::testing::kNytPuzzle);
  request.mutable_compile()->set_reduction(v1::REDUCTION_FULL);
  request.mutable_params()->set_backend("dwave");
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_seed(1);
  request.mutable_params()->mutable_dwave()->set_label("nyt over grpc");
  const testing::SolveStream stream =
      testing::RunSolve(*stub, request, /*deadline_seconds=*/900);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  const v1::SolveSummary* summary = stream.summary();
  ASSERT_NE(summary, nullptr);
  const v1::DwaveInfo& d = summary->backend().dwave();
  std::printf(
      "gRPC: NYT Sudoku on %s: embedding %.2f s, max chain %u, %u qubits, "
      "chain-break fraction %.4f, "
      "%u/%u valid\n",
      d.solver().c_str(), d.embedding_seconds(), d.max_chain_length(),
      d.physical_qubits(), d.mean_chain_break_fraction(), summary->num_valid(),
      summary->reads_done());
  EXPECT_TRUE(summary->best_valid());
  EXPECT_EQ(summary->best_energy(), -81);
  EXPECT_EQ(summary->backend().name(), "dwave");
  EXPECT_GT(d.qpu_access_time_us(), 0);

  // The same puzzle from the CLI: the server's embedding cache answers.
  int exit_code = -1;
  const std::string out = RunCommand(
      absl::StrCat(Qsolve(), " solve --addr ", server_->address(),
                   " --kind sudoku --input '", qs::testing::kNytPuzzle,
                   "' --backend dwave --reads 1000 --seed 3 --label cli-demo",
                   " --deadline 900 --json"),
      &exit_code);
  ASSERT_EQ(exit_code, 0) << out;
  std::vector<std::string> lines = absl::StrSplit(out, '\n', absl::SkipEmpty());
  ASSERT_FALSE(lines.empty());
  google::protobuf::Struct last;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(lines.back(), &last).ok())
      << lines.back();
  const auto& f = last.fields();
  EXPECT_TRUE(f.at("valid").bool_value());
  EXPECT_EQ(f.at("backend").string_value(), "dwave");
  std::string grid;
  for (const auto& row : f.at("board").list_value().values())
    grid += row.string_value();
  EXPECT_EQ(grid, qs::testing::kNytSolution);
  ASSERT_TRUE(f.contains("dwave"));
  const auto& w = f.at("dwave").struct_value().fields();
  EXPECT_TRUE(w.at("embedding_cached").bool_value());
  EXPECT_EQ(w.at("solver").string_value(), "Advantage_emulator_P16");

  // One submission per solve reached the emulator; the labels came through.
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), 2);

  auto metrics = server_->ScrapeMetrics();
  ASSERT_OK(metrics);
  EXPECT_THAT(*metrics, HasSubstr("qs_dwave_qpu_access_seconds_total{solver="
                                  "\"Advantage_emulator_P16\"}"));
  EXPECT_THAT(*metrics, HasSubstr("qs_dwave_chain_break_fraction"));
  EXPECT_THAT(*metrics,
              HasSubstr("qs_dwave_embeddings_total{result=\"cached\"} 1"));
}

// Cancels a D-Wave solve once its submission reached the emulator and expects
// the queued problem to be deleted. With `slow_submit` the cancel lands while
// the submission's answer is still on its way.
void CancelAfterSubmissionSendsDelete(bool slow_submit) {
  sapi_emulator::Options options;
  options.tokens = {kToken};
  options.queue_delay = absl::Seconds(60);  // the problem stays PENDING
  sapi_emulator::SapiEmulator emulator(options);
  ASSERT_OK(emulator.Start());
  if (slow_submit) {
    sapi_emulator::Fault fault;
    fault.route = "submit";
    fault.kind = "slow";
    fault.delay = absl::Milliseconds(1500);
    emulator.AddFault(fault);
  }
  auto server = testing::TestServer::Start(DwaveServerOptions(emulator),
                                           /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  auto stub = server->NewStub();
  v1::SolveRequest request;
  // A 4x4 Sudoku (box size 2): embeds at once.
  request.mutable_puzzle()->mutable_sudoku()->set_box_size(2);
  for (int v : {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1})
    request.mutable_puzzle()->mutable_sudoku()->add_cells(v);
  request.mutable_params()->set_backend("dwave");
  request.mutable_params()->set_num_reads(10);
  grpc::ClientContext context;
  auto reader = stub->Solve(&context, request);
  v1::SolveResponse header;
  ASSERT_TRUE(reader->Read(&header));
  EXPECT_TRUE(header.has_header());
  for (int i = 0; i < 2000 && emulator.CountRequests("submit", "POST") == 0;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(emulator.CountRequests("submit", "POST"), 1);
  context.TryCancel();
  v1::SolveResponse event;
  while (reader->Read(&event)) {
  }
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  bool deleted = false;
  for (int i = 0; i < 500 && !deleted; ++i) {
    deleted = emulator.CountRequests("cancel", "DELETE") == 1;
    if (!deleted) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(deleted);
}

TEST(DwaveCancelServiceTest, CancelledCallSendsDelete) {
  CancelAfterSubmissionSendsDelete(/*slow_submit=*/false);
}

TEST(DwaveCancelServiceTest, CancelDuringSubmissionStillDeletes) {
  CancelAfterSubmissionSendsDelete(/*slow_submit=*/true);
}

}  // namespace
}  // namespace qs
