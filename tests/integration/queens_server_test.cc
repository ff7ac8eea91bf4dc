// The queens family ([Mata Ali & Mencia 2024] §2.1-2.2) through a running
// server: every stored LinkedIn puzzle (tests/data/queens/linkedin_queens.txt),
// parsed from its region letters as `qsolve --kind queens` parses it, is solved
// over gRPC to the stored solution; `qsolve` solves a LinkedIn puzzle and
// 8-queens and prints the boards as rows of 'Q' and '.'; bad queens input comes
// back INVALID_ARGUMENT naming the field.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/linkedin_queens.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

class QueensServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = testing::TestServer::Start({}, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static testing::TestServer* server_;
};

testing::TestServer* QueensServerTest::server_ = nullptr;

std::vector<testing::LinkedInPuzzle> StoredPuzzles() {
  std::string error;
  std::vector<testing::LinkedInPuzzle> puzzles = testing::ReadLinkedInPuzzles(
      testing::SourceDir() + "/tests/data/queens/linkedin_queens.txt", &error);
  EXPECT_TRUE(error.empty()) << error;
  return puzzles;
}

std::vector<std::string> Rows(const std::string& slashed) {
  return absl::StrSplit(slashed, '/');
}

TEST_F(QueensServerTest, SolvesEveryStoredLinkedInPuzzle) {
  auto stub = server_->NewStub();
  const std::vector<testing::LinkedInPuzzle> puzzles = StoredPuzzles();
  ASSERT_GE(puzzles.size(), 10u);
  for (const testing::LinkedInPuzzle& puzzle : puzzles) {
    auto spec = formats::ParsePuzzleText("queens", testing::RegionRows(puzzle));
    ASSERT_TRUE(spec.ok()) << spec.status();
    v1::SolveRequest request;
    *request.mutable_puzzle() = *spec;
    // The default 1000 sweeps; enough reads for the hardest puzzles (1-5 % of
    // reads at 100 reads x 1000 sweeps), stopping at the first valid board.
    request.mutable_params()->set_num_reads(1000);
    request.mutable_params()->set_seed(7);
    request.mutable_params()->set_stop_at_first_valid(true);
    const testing::SolveStream stream = testing::RunSolve(*stub, request);
    ASSERT_TRUE(stream.status.ok())
        << puzzle.name << ": " << stream.status.error_message();
    ASSERT_TRUE(stream.events.front().has_header());
    const v1::CompileStats& stats = stream.events.front().header().stats();
    EXPECT_EQ(stats.puzzle_kind(), "queens");
    EXPECT_EQ(stats.variables_total(),
              static_cast<uint32_t>(puzzle.n * puzzle.n));
    EXPECT_EQ(stats.ground_energy(), 0);
    const v1::SolveSummary* summary = stream.summary();
    ASSERT_NE(summary, nullptr);
    EXPECT_EQ(summary->termination(), v1::TARGET_REACHED) << puzzle.name;
    EXPECT_TRUE(summary->best_valid()) << puzzle.name;
    EXPECT_EQ(summary->best_energy(), 0) << puzzle.name;
    EXPECT_THAT(
        summary->best_solution().rows(),
        ::testing::ElementsAreArray(Rows(testing::SolutionRows(puzzle))))
        << puzzle.name;
  }
}

TEST_F(QueensServerTest, BadQueensInputNamesTheField) {
  auto stub = server_->NewStub();
  // Five colour regions on a 4x4 board.
  auto spec = formats::ParsePuzzleText("queens", "AABB/AABB/CCDD/CCDE");
  ASSERT_TRUE(spec.ok()) << spec.status();
  v1::SolveRequest request;
  *request.mutable_puzzle() = *spec;
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  EXPECT_EQ(stream.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(stream.status.error_message(),
              HasSubstr("queens.regions: the 5 regions hold 5 queens"));
  // A pre-placed queen on a cell that is not on the board.
  v1::SolveRequest masked = request;
  *masked.mutable_puzzle() =
      *formats::ParsePuzzleText("queens", "AABB/A#BB/CCDD/CCDD");
  masked.mutable_puzzle()->mutable_queens()->add_given_queens(5);
  EXPECT_THAT(testing::RunSolve(*stub, masked).status.error_message(),
              HasSubstr("queens.given_queens[0]: cell (2,2) is masked"));
}

using testing::CommandResult;
using testing::LastJsonLine;
using testing::RunQsolve;

std::vector<std::string> Board(const google::protobuf::Struct& summary) {
  std::vector<std::string> rows;
  if (!summary.fields().contains("board")) return rows;
  for (const auto& row : summary.fields().at("board").list_value().values())
    rows.push_back(row.string_value());
  return rows;
}

TEST_F(QueensServerTest, QsolveSolvesQueensAndNQueens) {
  const std::string addr = absl::StrCat(" --addr ", server_->address(), " ");
  const testing::LinkedInPuzzle puzzle = StoredPuzzles().at(0);
  const CommandResult linked = RunQsolve(absl::StrCat(
      "solve", addr, "--kind queens --input '", testing::RegionRows(puzzle),
      "' --reads 1000 --seed 3 --stop_at_first_valid --json"));
  ASSERT_EQ(linked.exit_code, 0) << linked.out;
  const google::protobuf::Struct summary = LastJsonLine(linked.out);
  EXPECT_TRUE(summary.fields().at("valid").bool_value()) << linked.out;
  EXPECT_THAT(Board(summary),
              ::testing::ElementsAreArray(Rows(testing::SolutionRows(puzzle))));

  const CommandResult eight = RunQsolve(
      absl::StrCat("solve", addr, "--kind nqueens --input 8 --seed 8 --json"));
  ASSERT_EQ(eight.exit_code, 0) << eight.out;
  const google::protobuf::Struct eight_summary = LastJsonLine(eight.out);
  EXPECT_TRUE(eight_summary.fields().at("valid").bool_value()) << eight.out;
  EXPECT_EQ(eight_summary.fields().at("ground_energy").number_value(), 0);
  const std::vector<std::string> rows = Board(eight_summary);
  ASSERT_EQ(rows.size(), 8u);
  for (const std::string& row : rows) {
    EXPECT_EQ(row.size(), 8u);
    EXPECT_EQ(std::count(row.begin(), row.end(), 'Q'), 1) << row;
    EXPECT_EQ(std::count(row.begin(), row.end(), '.'), 7) << row;
  }

  const CommandResult torus = RunQsolve(absl::StrCat(
      "solve", addr,
      "--kind nqueens --input '6 torus' --reads 50 --seed 6 --json"));
  ASSERT_EQ(torus.exit_code, 0) << torus.out;
  EXPECT_FALSE(LastJsonLine(torus.out).fields().at("valid").bool_value());
}

}  // namespace
}  // namespace qs
