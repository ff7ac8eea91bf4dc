// Tents & Trees and the chess-piece problems ([Mata Ali & Mencia 2024]
// §2.5-2.6) through a running server: the 20 stored sgt-tents puzzles of
// tests/data/tents, read from their game IDs with the CLI's text format, are
// solved by Solve at the default settings (100 reads of 1000 sweeps) into their
// known solutions; Validate checks boards as the CLI parses them; chess boards
// in the text format are solved and bad input is refused.
#include <string>

#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/tents_data.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

class TentsChessServiceTest : public ::testing::Test {
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

testing::TestServer* TentsChessServiceTest::server_ = nullptr;

std::string JoinRows(const v1::PuzzleSolution& board) {
  std::string out;
  for (const std::string& row : board.rows()) {
    if (!out.empty()) out += '/';
    out += row;
  }
  return out;
}

TEST_F(TentsChessServiceTest, SolvesTheStoredTentsPuzzles) {
  auto stub = server_->NewStub();
  const auto puzzles = testing::ReadStoredTentsPuzzles();
  ASSERT_EQ(puzzles.size(), 20u);
  for (const auto& p : puzzles) {
    SCOPED_TRACE(p.id);
    auto spec = formats::ParsePuzzleText("tents", p.id);
    ASSERT_TRUE(spec.ok()) << spec.status();
    v1::SolveRequest request;
    *request.mutable_puzzle() = *spec;
    // cpu-sa, reads and sweeps left at their defaults.
    request.mutable_params()->set_backend("cpu-sa");
    request.mutable_params()->set_seed(42);
    const testing::SolveStream stream = testing::RunSolve(*stub, request);
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    ASSERT_TRUE(stream.events.front().has_header());
    const v1::CompileStats& stats = stream.events.front().header().stats();
    EXPECT_EQ(stats.puzzle_kind(), "tents");
    EXPECT_EQ(stats.variables_total(),
              spec->tents().rows() * spec->tents().cols());
    EXPECT_EQ(stats.ground_energy(), spec->tents().trees_size() / 4.0);
    const v1::SolveSummary* summary = stream.summary();
    ASSERT_NE(summary, nullptr);
    EXPECT_EQ(summary->reads_done(), 100u);
    EXPECT_TRUE(summary->best_valid());
    EXPECT_EQ(summary->best_energy(), stats.ground_energy());
    EXPECT_EQ(JoinRows(summary->best_solution()), p.solution);
    EXPECT_GE(summary->num_valid(), 1u);
  }
}

TEST_F(TentsChessServiceTest, ValidatesBoardsAsTheClientParsesThem) {
  auto stub = server_->NewStub();
  const testing::StoredTentsPuzzle p = testing::ReadStoredTentsPuzzles().at(0);
  auto spec = formats::ParsePuzzleText("tents", p.id);
  ASSERT_TRUE(spec.ok()) << spec.status();
  v1::ValidateRequest request;
  *request.mutable_puzzle() = *spec;
  auto board = formats::ParseBoardText("tents", *spec, p.solution);
  ASSERT_TRUE(board.ok()) << board.status();
  *request.mutable_solution() = *board;
  v1::ValidateResponse response;
  grpc::ClientContext c1;
  ASSERT_TRUE(stub->Validate(&c1, request, &response).ok());
  EXPECT_TRUE(response.report().valid());
  EXPECT_EQ(response.energy(), spec->tents().trees_size() / 4.0);

  // The first tent of row 1 moved one cell left.
  std::string moved = p.solution;
  const size_t tent = moved.find('T');
  ASSERT_NE(tent, std::string::npos);
  ASSERT_GT(tent, 0u);
  ASSERT_EQ(moved[tent - 1], '.');
  std::swap(moved[tent], moved[tent - 1]);
  board = formats::ParseBoardText("tents", *spec, moved);
  ASSERT_TRUE(board.ok()) << board.status();
  *request.mutable_solution() = *board;
  grpc::ClientContext c2;
  ASSERT_TRUE(stub->Validate(&c2, request, &response).ok());
  EXPECT_FALSE(response.report().valid());
  EXPECT_GT(response.energy(), spec->tents().trees_size() / 4.0);
  bool column_count = false;
  for (const v1::Violation& v : response.report().violations())
    column_count |= v.rule() == "column_count";
  EXPECT_TRUE(column_count);
}

TEST_F(TentsChessServiceTest, SolvesChessBoardsGivenAsText) {
  auto stub = server_->NewStub();
  struct Case {
    const char* text;
    const char* backend;
    double best_energy;
  } cases[] = {
      {"8x8 N", "cpu-sa", -32},  // the most knights on a chessboard
      {"QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD", "exact", 0},
      // Every queen reaches the middle knight: two queens a knight's move apart
      // are best.
      {"variant max/weight Q 2/QQQ/QNQ/QQQ", "exact", -4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    auto spec = formats::ParsePuzzleText("chess", c.text);
    ASSERT_TRUE(spec.ok()) << spec.status();
    v1::SolveRequest request;
    *request.mutable_puzzle() = *spec;
    request.mutable_params()->set_backend(c.backend);
    request.mutable_params()->set_seed(5);
    const testing::SolveStream stream = testing::RunSolve(*stub, request);
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    const v1::SolveSummary* summary = stream.summary();
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->best_valid());
    EXPECT_EQ(summary->best_energy(), c.best_energy);
  }
}

std::string BoardOf(const google::protobuf::Struct& summary) {
  std::string rows;
  if (!summary.fields().contains("board")) return rows;
  for (const auto& row : summary.fields().at("board").list_value().values()) {
    if (!rows.empty()) rows += '/';
    rows += row.string_value();
  }
  return rows;
}

TEST_F(TentsChessServiceTest, QsolveSolvesTentsAndChessFromTheCommandLine) {
  const std::string addr = " --addr " + server_->address();
  const testing::StoredTentsPuzzle p = testing::ReadStoredTentsPuzzles().at(10);
  const testing::CommandResult tents = testing::RunQsolve(absl::StrCat(
      "solve --kind tents --input '", p.id, "' --seed 3 --json", addr));
  ASSERT_EQ(tents.exit_code, 0) << tents.err;
  const google::protobuf::Struct summary = testing::LastJsonLine(tents.out);
  EXPECT_TRUE(summary.fields().at("valid").bool_value()) << tents.out;
  EXPECT_EQ(BoardOf(summary), p.solution);
  EXPECT_EQ(summary.fields().at("ground_energy").number_value(), 5);

  const testing::CommandResult knights = testing::RunQsolve(
      absl::StrCat("solve --kind chess --input '6x6 N' --seed 3 --json", addr));
  ASSERT_EQ(knights.exit_code, 0) << knights.err;
  const google::protobuf::Struct best = testing::LastJsonLine(knights.out);
  EXPECT_TRUE(best.fields().at("valid").bool_value()) << knights.out;
  EXPECT_EQ(best.fields().at("energy").number_value(), -18);

  const testing::CommandResult check = testing::RunQsolve(
      absl::StrCat("validate --kind tents --input '", p.id, "' --board '",
                   p.solution, "' --json", addr));
  ASSERT_EQ(check.exit_code, 0) << check.err;
  // validate --json prints the ValidateResponse.
  const google::protobuf::Struct response = testing::LastJsonLine(check.out);
  ASSERT_TRUE(response.fields().contains("report")) << check.out;
  const auto& report = response.fields().at("report").struct_value().fields();
  ASSERT_TRUE(report.contains("valid")) << check.out;
  EXPECT_TRUE(report.at("valid").bool_value());
  EXPECT_EQ(response.fields().at("energy").number_value(), 5);

  const testing::CommandResult bad = testing::RunQsolve(
      absl::StrCat("compile --kind chess --input 'QQ/QX'", addr));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("unknown piece 'X'"));
}

TEST_F(TentsChessServiceTest, RefusesBadInputNamingTheField) {
  auto stub = server_->NewStub();
  auto spec = formats::ParsePuzzleText("chess", "QN/NQ/regions/AB/BA");
  ASSERT_TRUE(spec.ok()) << spec.status();
  spec->mutable_chess()->mutable_pieces(1)->set_standard(
      static_cast<v1::StandardPiece>(11));
  v1::CompileRequest request;
  *request.mutable_puzzle() = *spec;
  v1::CompileResponse response;
  grpc::ClientContext c1;
  const grpc::Status status = stub->Compile(&c1, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(),
              HasSubstr("chess.pieces[1].standard: unknown piece type 11"));

  auto tents = formats::ParsePuzzleText("tents", "4x4:cceb,1,0,1,3,1,0,1,1");
  ASSERT_TRUE(tents.ok()) << tents.status();
  *request.mutable_puzzle() = *tents;
  grpc::ClientContext c2;
  const grpc::Status tents_status = stub->Compile(&c2, request, &response);
  EXPECT_EQ(tents_status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(tents_status.error_message(),
              HasSubstr("tents.col_counts[3]: 3 tents do not fit"));
}

}  // namespace
}  // namespace qs
