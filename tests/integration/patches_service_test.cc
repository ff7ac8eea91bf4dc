// LinkedIn Patches through a running server: a level parsed from its text by
// Solver.Parse is solved by `auto` as it is and with its exact engines off
// (the QUBO samplers alone) into its only tiling, counted, drawn with its
// answer, and generated; a board parsed with the level is validated.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

// A generated 6x6 level and its tiling (docs/patches.md).
constexpr char kLevel[] =
    ". w3 . t6 . . / . . s9 . . . / . . . . . . / . . . t3 t2 t / "
    ". w3 . . . . / . w2 s1 . s1 t2";
constexpr char kTiling[] = "aaabbf/cccbbf/cccbbf/cccdef/gggdek/hhidjk";

class PatchesServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = testing::TestServer::Start({}, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static v1::ParseResponse Parse(const std::string& board = "") {
    v1::ParseRequest request;
    request.set_kind("patches");
    request.set_text(kLevel);
    request.set_board(board);
    v1::ParseResponse response;
    grpc::ClientContext context;
    const grpc::Status status =
        server_->NewStub()->Parse(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  static testing::TestServer* server_;
};

testing::TestServer* PatchesServiceTest::server_ = nullptr;

std::string JoinRows(const v1::PuzzleSolution& board) {
  std::string out;
  for (const std::string& row : board.rows())
    out += (out.empty() ? "" : "/") + row;
  return out;
}

TEST_F(PatchesServiceTest, AutoSolvesALevelWithAndWithoutTheExactEngines) {
  const v1::ParseResponse parsed = Parse();
  EXPECT_EQ(parsed.family(), "patches");
  ASSERT_EQ(parsed.puzzle().patches().clues_size(), 11);
  for (const bool exact_off : {false, true}) {
    SCOPED_TRACE(exact_off ? "exact off" : "auto");
    v1::SolveRequest request;
    *request.mutable_puzzle() = parsed.puzzle();
    request.mutable_params()->set_seed(7);
    // The reduction's last stage is left out, so that the samplers search.
    request.mutable_compile()->set_reduction(v1::REDUCTION_CLUES);
    if (exact_off)
      request.mutable_params()->mutable_auto_()->set_exact(v1::EXACT_OFF);
    request.mutable_params()->set_time_limit_seconds(20);
    const testing::SolveStream stream =
        testing::RunSolve(*server_->NewStub(), request);
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    const v1::CompileStats& stats = stream.events.front().header().stats();
    EXPECT_EQ(stats.puzzle_kind(), "patches");
    EXPECT_EQ(stats.ground_energy(), 0.0);
    ASSERT_EQ(stats.stages_size(), 2);
    EXPECT_EQ(stats.stages(1).name(), "other_clues");
    EXPECT_GT(stats.variables(), 0u);
    const v1::SolveSummary* summary = stream.summary();
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->best_valid());
    EXPECT_EQ(summary->best_energy(), 0.0);
    EXPECT_EQ(JoinRows(summary->best_solution()), kTiling);
    EXPECT_EQ(summary->best_solution().cells(35), 10);
    EXPECT_EQ(summary->backend().auto_().exact(),
              exact_off ? v1::EXACT_OFF : v1::EXACT_RACE);
  }
}

TEST_F(PatchesServiceTest, CountsValidatesDrawsAndGenerates) {
  auto stub = server_->NewStub();
  const v1::ParseResponse parsed = Parse(kTiling);
  {
    v1::CountRequest request;
    *request.mutable_puzzle() = parsed.puzzle();
    v1::CountResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub->Count(&context, request, &response).ok());
    EXPECT_EQ(response.count(), 1u);
    EXPECT_TRUE(response.unique());
  }
  {
    v1::ValidateRequest request;
    *request.mutable_puzzle() = parsed.puzzle();
    *request.mutable_solution() = parsed.board();
    request.mutable_solution()->set_cells(0, 1);  // a cell of b's patch
    v1::ValidateResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub->Validate(&context, request, &response).ok());
    EXPECT_FALSE(response.report().valid());
    EXPECT_THAT(response.report().violations(),
                ::testing::Contains(::testing::Property(&v1::Violation::rule,
                                                        "not_rectangle")));
  }
  {
    v1::DrawRequest request;
    *request.mutable_puzzle() = parsed.puzzle();
    *request.mutable_solution() = parsed.board();
    v1::DrawResponse response;
    grpc::ClientContext context;
    ASSERT_TRUE(stub->Draw(&context, request, &response).ok());
    EXPECT_EQ(response.picture().rects_size(), 11);
    EXPECT_EQ(response.picture().cells(3).glyph(), "tall");
    EXPECT_EQ(response.picture().cells(3).text(), "6");
  }
  {
    v1::GenerateRequest request;
    request.set_family("patches");
    request.set_rows(7);
    request.set_seed(3);
    grpc::ClientContext context;
    auto reader = stub->Generate(&context, request);
    v1::GeneratedPuzzle made;
    ASSERT_TRUE(reader->Read(&made));
    EXPECT_TRUE(made.unique());
    EXPECT_EQ(made.puzzle().patches().rows(), 7u);
    EXPECT_EQ(made.puzzle_kind(), "patches");
    while (reader->Read(&made)) {
    }
    EXPECT_TRUE(reader->Finish().ok());
  }
}

}  // namespace
}  // namespace qs
