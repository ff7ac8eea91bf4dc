// Preprocessing (CompileOptions.preprocess) through a running server: `qsolve
// compile --preprocess` with --json reports the variables after it (209 for
// the NYT puzzle with qpro) and refuses unknown names; Compile over gRPC
// reports the stages and statistics; a preprocessed Sudoku still solves with
// cpu-sa, to its known solution and energy; a puzzle preprocessing solves
// outright (an empty model) comes back valid.
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/sudoku_grid.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::RunQsolve;

// The tests that run the qsolve binary carry "Cli" in their name, which the
// TSan stage leaves out (docs/testing.md).
class PreprocessCliTest : public testing::SharedServerTest {};
class PreprocessServiceTest : public testing::SharedServerTest {};

double JsonNumber(const CommandResult& result, const std::string& field) {
  return LastJsonLine(result.out).fields().at(field).number_value();
}

TEST_F(PreprocessCliTest, CompileJsonReportsVariablesAfterPreprocessing) {
  const std::string compile = absl::StrCat(
      "compile", Addr(), "--kind sudoku --input '", testing::kNytPuzzle,
      "' --reduction full --json --preprocess ");
  const CommandResult none = RunQsolve(compile + "none");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(JsonNumber(none, "variables"), 211);
  const CommandResult roof = RunQsolve(compile + "roof");
  ASSERT_EQ(roof.exit_code, 0) << roof.err;
  EXPECT_EQ(JsonNumber(roof, "variables"),
            211 - JsonNumber(roof, "removed_by_preprocess"));
  EXPECT_LE(JsonNumber(roof, "roof_lower_bound"), -81);
  const CommandResult qpro = RunQsolve(compile + "qpro");
  ASSERT_EQ(qpro.exit_code, 0) << qpro.err;
  EXPECT_EQ(JsonNumber(qpro, "variables"), 209);
  EXPECT_EQ(JsonNumber(qpro, "variables_total"), 729);
  EXPECT_THAT(qpro.out, HasSubstr("\"name\":\"qpro\""));

  const CommandResult bad = RunQsolve(compile + "fast");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--preprocess"));
}

TEST_F(PreprocessServiceTest, CompileOverGrpcReportsTheStages) {
  auto stub = server_->NewStub();
  v1::CompileRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_options()->set_preprocess(v1::PREPROCESS_QPRO);
  v1::CompileResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub->Compile(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  const v1::CompileStats& stats = response.stats();
  ASSERT_EQ(stats.stages_size(), 5);
  EXPECT_EQ(stats.stages(3).name(), "roof");
  EXPECT_EQ(stats.stages(4).name(), "qpro");
  EXPECT_EQ(stats.variables(), 209u);
  EXPECT_EQ(stats.removed_by_preprocess(), 2u);
  EXPECT_EQ(response.variable_map_size(), 209);

  request.mutable_options()->set_preprocess(static_cast<v1::Preprocess>(7));
  grpc::ClientContext bad_context;
  const grpc::Status bad = stub->Compile(&bad_context, request, &response);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.error_message(), HasSubstr("options.preprocess"));
}

TEST_F(PreprocessServiceTest, PreprocessedSudokuSolvesWithCpuSa) {
  auto stub = server_->NewStub();
  v1::SolveRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_compile()->set_preprocess(v1::PREPROCESS_QPRO);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(3000);
  request.mutable_params()->set_num_sweeps(3000);
  request.mutable_params()->set_seed(2024);
  request.mutable_params()->set_stop_at_first_valid(true);
  request.mutable_params()->mutable_cpu_sa()->set_beta_hot(1.0);
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  ASSERT_TRUE(stream.events.front().has_header());
  EXPECT_EQ(stream.events.front().header().stats().variables(), 209u);
  const v1::SolveSummary* summary = stream.summary();
  ASSERT_NE(summary, nullptr);
  EXPECT_TRUE(summary->best_valid());
  EXPECT_EQ(summary->best_energy(), -81);
  std::string grid;
  for (uint32_t cell : summary->best_solution().cells())
    grid += static_cast<char>('0' + cell);
  EXPECT_EQ(grid, testing::kNytSolution);
}

TEST_F(PreprocessServiceTest, EmptyModelSolvesOnEveryQuboBackend) {
  // Every empty cell of this 4x4 puzzle has one candidate left by the givens:
  // the QPRO rules fix every variable, and the samplers get an empty model.
  auto stub = server_->NewStub();
  v1::SolveRequest request;
  *request.mutable_puzzle() = testing::SudokuGridSpec("12.43.1..1.34.21");
  request.mutable_compile()->set_reduction(v1::REDUCTION_CLUES);
  request.mutable_compile()->set_preprocess(v1::PREPROCESS_QPRO);
  request.mutable_params()->set_num_reads(3);
  request.mutable_params()->set_seed(5);
  for (const char* backend : {"cpu-sa", "exact"}) {
    SCOPED_TRACE(backend);
    request.mutable_params()->set_backend(backend);
    const testing::SolveStream stream = testing::RunSolve(*stub, request);
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    EXPECT_EQ(stream.events.front().header().stats().variables(), 0u);
    const v1::SolveSummary* summary = stream.summary();
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->best_valid());
    EXPECT_EQ(summary->best_energy(), -16);
  }
}

TEST_F(PreprocessCliTest, PuzzleSolvedByPreprocessingComesBackValid) {
  const CommandResult result = RunQsolve(absl::StrCat(
      "solve", Addr(),
      "--kind sudoku --input '12.4 3.1. .1.3 4.21' --reduction clues "
      "--preprocess qpro --reads 4 --seed 1 --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct summary = LastJsonLine(result.out);
  EXPECT_TRUE(summary.fields().at("valid").bool_value()) << result.out;
  EXPECT_EQ(summary.fields().at("energy").number_value(), -16);
  EXPECT_THAT(result.out, HasSubstr("\"variables\":0"));
}

}  // namespace
}  // namespace qs
