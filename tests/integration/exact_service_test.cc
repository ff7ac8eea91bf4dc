// The exact engines and the generators through a running server over loopback
// gRPC: Count (N-queens against the known sequence, toroidal boards, NYT
// Sudoku uniqueness, an sgt-tents puzzle), Solve with the "sat" backend (a
// valid board and a uniqueness proof, or a proof that there is none), and
// Generate: 20 puzzles per family, each proven unique with a Count of the exact
// backend and then solved by the annealer (backend cpu-sa) to its one solution
// ([Mücke 2024] §4).
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "formats/puzzle_text.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/tents_data.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

class ExactServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = testing::TestServer::Start({}, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static v1::CountResponse Count(const v1::PuzzleSpec& puzzle,
                                 v1::CountMethod method, uint64_t limit = 0) {
    auto stub = server_->NewStub();
    v1::CountRequest request;
    *request.mutable_puzzle() = puzzle;
    request.set_method(method);
    request.set_limit(limit);
    v1::CountResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(120));
    const grpc::Status status = stub->Count(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  static testing::TestServer* server_;
};

testing::TestServer* ExactServiceTest::server_ = nullptr;

v1::PuzzleSpec NQueens(int n, v1::QueensTopology topology) {
  v1::PuzzleSpec spec;
  spec.mutable_queens()->set_rows(n);
  spec.mutable_queens()->set_topology(topology);
  return spec;
}

TEST_F(ExactServiceTest, CountsNQueensSolutions) {
  const std::vector<uint64_t> known = {1,  0,  0,   2,   10,   4,
                                       40, 92, 352, 724, 2680, 14200};
  for (int n = 1; n <= 12; ++n) {
    const v1::CountResponse response =
        Count(NQueens(n, v1::QUEENS_TOPOLOGY_PLANE), v1::COUNT_METHOD_AUTO);
    EXPECT_EQ(response.count(), known[n - 1]) << "N = " << n;
    EXPECT_TRUE(response.complete());
    EXPECT_EQ(response.method(), v1::COUNT_METHOD_BDD);
    EXPECT_EQ(response.puzzle_kind(), "queens");
    EXPECT_EQ(response.unique(), known[n - 1] == 1);
  }
  // Enumeration stops at the limit and says so.
  const v1::CountResponse cut =
      Count(NQueens(8, v1::QUEENS_TOPOLOGY_PLANE), v1::COUNT_METHOD_SAT, 10);
  EXPECT_EQ(cut.count(), 10u);
  EXPECT_FALSE(cut.complete());
  EXPECT_EQ(cut.status(), v1::SATISFIABLE);
}

TEST_F(ExactServiceTest, CountsToroidalNQueensSolutions) {
  const std::vector<std::pair<int, uint64_t>> expected = {
      {4, 0}, {5, 10}, {6, 0}, {7, 28}, {8, 0}, {9, 0}, {11, 88}};
  for (const auto& [n, count] : expected) {
    const v1::CountResponse response =
        Count(NQueens(n, v1::QUEENS_TOPOLOGY_TORUS), v1::COUNT_METHOD_AUTO);
    EXPECT_EQ(response.count(), count) << "N = " << n;
    EXPECT_TRUE(response.complete());
    EXPECT_EQ(response.status(),
              count > 0 ? v1::SATISFIABLE : v1::UNSATISFIABLE);
  }
}

TEST_F(ExactServiceTest, NytSudokuIsUnique) {
  const v1::CountResponse response =
      Count(testing::SudokuSpecFromString(testing::kNytPuzzle),
            v1::COUNT_METHOD_AUTO);
  EXPECT_EQ(response.count(), 1u);
  EXPECT_TRUE(response.unique());
  EXPECT_TRUE(response.complete());
  EXPECT_EQ(response.method(), v1::COUNT_METHOD_SAT);  // 729 variables
  EXPECT_EQ(response.encoding().primary_variables(), 729u);
  EXPECT_GT(response.encoding().clauses(), 0u);
}

TEST_F(ExactServiceTest, SatBackendSolvesAndProvesUniqueness) {
  auto stub = server_->NewStub();
  v1::SolveRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_params()->set_backend("sat");
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  const v1::SolveSummary* summary = stream.summary();
  ASSERT_NE(summary, nullptr);
  EXPECT_TRUE(summary->best_valid());
  EXPECT_EQ(summary->exact().status(), v1::SATISFIABLE);
  EXPECT_TRUE(summary->exact().unique());
  EXPECT_EQ(summary->exact().solutions_found(), 1u);
  std::string board;
  for (const auto& row : summary->best_solution().rows()) board += row;
  int samples = 0;
  for (const auto& event : stream.events) {
    if (event.has_sample()) {
      ++samples;
      EXPECT_TRUE(event.sample().valid());
      EXPECT_EQ(event.sample().energy(), summary->ground_energy());
    }
  }
  EXPECT_EQ(samples, 1);

  // 8-queens: a valid board, not unique; max_solutions enumerates.
  v1::SolveRequest queens;
  *queens.mutable_puzzle() = NQueens(8, v1::QUEENS_TOPOLOGY_PLANE);
  queens.mutable_params()->set_backend("sat");
  queens.mutable_params()->mutable_sat()->set_max_solutions(100);
  const testing::SolveStream all = testing::RunSolve(*stub, queens);
  ASSERT_TRUE(all.status.ok()) << all.status.error_message();
  ASSERT_NE(all.summary(), nullptr);
  EXPECT_FALSE(all.summary()->exact().unique());
  EXPECT_TRUE(all.summary()->exact().complete());
  EXPECT_EQ(all.summary()->exact().solutions_found(), 92u);
  EXPECT_EQ(all.summary()->num_valid(), 92u);

  // A torus of side 6 has no solution: proven, the RPC ends OK.
  v1::SolveRequest torus;
  *torus.mutable_puzzle() = NQueens(6, v1::QUEENS_TOPOLOGY_TORUS);
  torus.mutable_params()->set_backend("sat");
  const testing::SolveStream none = testing::RunSolve(*stub, torus);
  ASSERT_TRUE(none.status.ok()) << none.status.error_message();
  ASSERT_NE(none.summary(), nullptr);
  EXPECT_EQ(none.summary()->termination(), v1::INFEASIBLE);
  EXPECT_EQ(none.summary()->exact().status(), v1::UNSATISFIABLE);
}

TEST_F(ExactServiceTest, SgtTentsPuzzleIsUniqueAndSolvedBySat) {
  const auto stored = testing::ReadStoredTentsPuzzles();
  ASSERT_FALSE(stored.empty()) << testing::TentsDataPath();
  auto spec = formats::ParseTentsText(stored[0].id);
  ASSERT_TRUE(spec.ok()) << spec.status();
  // Pairing variables: counted by CaDiCaL enumeration, whatever the size.
  const v1::CountResponse count = Count(*spec, v1::COUNT_METHOD_AUTO);
  EXPECT_EQ(count.count(), 1u);
  EXPECT_TRUE(count.unique());
  EXPECT_TRUE(count.complete());
  EXPECT_EQ(count.method(), v1::COUNT_METHOD_SAT);
  EXPECT_EQ(count.puzzle_kind(), "tents");
  EXPECT_GT(count.encoding().auxiliary_variables(), 0u);

  auto stub = server_->NewStub();
  v1::CountRequest bdd;
  *bdd.mutable_puzzle() = *spec;
  bdd.set_method(v1::COUNT_METHOD_BDD);
  v1::CountResponse refused;
  grpc::ClientContext context;
  EXPECT_EQ(stub->Count(&context, bdd, &refused).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  v1::SolveRequest request;
  *request.mutable_puzzle() = *spec;
  request.mutable_params()->set_backend("sat");
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  const v1::SolveSummary* summary = stream.summary();
  ASSERT_NE(summary, nullptr);
  EXPECT_TRUE(summary->best_valid());
  EXPECT_TRUE(summary->exact().unique());
  std::string board;
  for (const auto& row : summary->best_solution().rows()) {
    if (!board.empty()) board += '/';
    board += row;
  }
  EXPECT_EQ(board, stored[0].solution);
}

TEST_F(ExactServiceTest, RawQuboHasNoRulesToCount) {
  auto stub = server_->NewStub();
  v1::CountRequest request;
  request.mutable_puzzle()->mutable_qubo()->set_num_variables(2);
  v1::CountResponse response;
  grpc::ClientContext context;
  const grpc::Status status = stub->Count(&context, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << status.error_message();
}

struct FamilyCase {
  std::string family;
  int rows;
  int target_clues = 0;  // 0: as few as keep the solution unique
};

class GenerateTest : public ExactServiceTest,
                     public ::testing::WithParamInterface<FamilyCase> {};

// 20 puzzles of the family: each proven unique by Count on the exact engines,
// then solved by the annealer through Solve to the generated solution.
TEST_P(GenerateTest, TwentyUniquePuzzlesTheAnnealerSolves) {
  const FamilyCase& c = GetParam();
  auto stub = server_->NewStub();
  v1::GenerateRequest request;
  request.set_family(c.family);
  request.set_rows(c.rows);
  request.set_count(20);
  request.set_seed(2024);
  request.set_target_clues(c.target_clues);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(600));
  const absl::Time start = absl::Now();
  auto reader = stub->Generate(&context, request);
  std::vector<v1::GeneratedPuzzle> puzzles;
  v1::GeneratedPuzzle puzzle;
  while (reader->Read(&puzzle)) puzzles.push_back(puzzle);
  const grpc::Status status = reader->Finish();
  ASSERT_TRUE(status.ok()) << status.error_message();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  ASSERT_EQ(puzzles.size(), 20u);
  double clues = 0;
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const v1::GeneratedPuzzle& p = puzzles[i];
    SCOPED_TRACE(absl::StrCat(c.family, " puzzle ", i));
    EXPECT_EQ(p.index(), i);
    EXPECT_TRUE(p.unique());
    EXPECT_LE(p.clues(), p.clues_at_start());
    if (c.target_clues > 0) {
      EXPECT_GE(p.clues(), static_cast<uint32_t>(c.target_clues));
    }
    clues += p.clues();

    const v1::CountResponse count =
        Count(p.puzzle(), v1::COUNT_METHOD_SAT, /*limit=*/2);
    EXPECT_EQ(count.count(), 1u);
    EXPECT_TRUE(count.unique());

    v1::SolveRequest solve;
    *solve.mutable_puzzle() = p.puzzle();
    solve.mutable_params()->set_backend("cpu-sa");
    solve.mutable_params()->set_num_reads(50);
    solve.mutable_params()->set_num_sweeps(1000);
    solve.mutable_params()->set_seed(7 + i);
    solve.mutable_params()->set_stop_at_first_valid(true);
    bool solved = false;
    for (int attempt = 0; attempt < 10 && !solved; ++attempt) {
      solve.mutable_params()->set_seed(1000 * attempt + i);
      const testing::SolveStream stream = testing::RunSolve(*stub, solve);
      ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
      ASSERT_NE(stream.summary(), nullptr);
      if (!stream.summary()->best_valid()) continue;
      solved = true;
      EXPECT_EQ(stream.summary()->best_solution().SerializeAsString(),
                p.solution().SerializeAsString());
    }
    EXPECT_TRUE(solved) << "the annealer found no valid board";
  }
  std::printf(
      "%s %dx%d: 20 puzzles in %.2f s (%.2f puzzles/s), %.1f clues "
      "on average\n",
      c.family.c_str(), c.rows, c.rows, seconds, 20 / seconds, clues / 20);
}

INSTANTIATE_TEST_SUITE_P(
    Families, GenerateTest,
    // 9x9 Sudoku stops at 36 clues: the fewest-clue puzzles are beyond a
    // few annealer reads (the difficulty knob at work).
    ::testing::Values(FamilyCase{"sudoku", 4}, FamilyCase{"sudoku", 9, 36},
                      FamilyCase{"queens", 6}, FamilyCase{"queens", 8},
                      FamilyCase{"takuzu", 6}, FamilyCase{"tango", 6},
                      FamilyCase{"tents", 6}, FamilyCase{"tents", 8}),
    [](const ::testing::TestParamInfo<FamilyCase>& info) {
      return absl::StrCat(info.param.family, info.param.rows);
    });

}  // namespace
}  // namespace qs
