// The binary encoding of queens puzzles (core/families/queens/queens_binary.h):
// its Hubo scores every solution at the ground energy 0 and every other board
// above it (exhaustively on small boards, with the exact Hubo enumeration),
// decodes and encodes boards both ways, and refuses the rules it cannot state.
#include "core/families/queens/queens_binary.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/compile/registry.h"
#include "core/exact/encoder.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/nqueens_spec.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NQueens;
using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

const PuzzleCompiler& Queens() {
  return **BuiltinCompilers().ForSpec(NQueens(1));
}

CompiledProblem CompileBinary(const v1::PuzzleSpec& spec) {
  v1::CompileOptions options;
  options.set_encoding(v1::ENCODING_BINARY);
  absl::StatusOr<CompiledProblem> problem = Queens().Compile(spec, options);
  EXPECT_OK(problem);
  return problem.ok() ? *std::move(problem) : CompiledProblem();
}

// Every solution of the one-hot rules (CaDiCaL), as one-hot cells.
std::set<std::vector<uint8_t>> OneHotSolutions(const v1::PuzzleSpec& spec) {
  std::set<std::vector<uint8_t>> solutions;
  const RulesEncoder& encoder = **BuiltinEncoders().ForSpec(spec);
  const int cells = static_cast<int>(Queens().ModelVariables(spec));
  auto solved =
      SolveRules(encoder, spec, cells, 100000,
                 [&](std::vector<uint8_t> s) { solutions.insert(s); });
  EXPECT_OK(solved);
  return solutions;
}

// The one-hot cells of every ground state of the binary model, which must be
// at energy 0.
std::set<std::vector<uint8_t>> BinaryGroundStates(
    const CompiledProblem& problem) {
  auto ground = FindHuboGroundStates(*problem.higher_order, 1 << 20, nullptr);
  EXPECT_OK(ground);
  EXPECT_EQ(ground->energy, 0.0);
  EXPECT_EQ(ground->count, static_cast<int64_t>(ground->states.size()));
  std::set<std::vector<uint8_t>> boards;
  for (const auto& bits : ground->states)
    boards.insert(QueensBinaryToCells(bits, problem.height, problem.width));
  return boards;
}

TEST(QueensBinaryTest, EightQueensHas24VariablesAndNoQubo) {
  const CompiledProblem problem = CompileBinary(NQueens(8));
  ASSERT_TRUE(problem.higher_order.has_value());
  EXPECT_EQ(problem.higher_order->num_variables, 24);
  EXPECT_EQ(problem.model.num_variables(), 0);
  EXPECT_EQ(problem.full_model.num_variables(), 24);
  EXPECT_EQ(problem.variables.num_full(), 24);
  EXPECT_EQ(problem.full_model.labels()[0], "b(1,0)");
  EXPECT_EQ(problem.full_model.labels()[23], "b(8,2)");
  EXPECT_EQ(problem.ground_energy, 0.0);
  EXPECT_EQ(SampledVariables(problem), 24);
  // Two rows' codes meet in monomials of up to all 2 * 3 bits.
  EXPECT_EQ(problem.higher_order->max_order(), 6);
  // Row pairs give at most (2^3 - 1)^2 = 49 mixed monomials each.
  const int64_t terms =
      static_cast<int64_t>(problem.higher_order->terms.size());
  EXPECT_LE(terms, 8 * 7 + 28 * 49);
  EXPECT_GT(terms, 28 * 20);
}

TEST(QueensBinaryTest, GroundStatesAreExactlyTheSolutionsUpToSix) {
  for (int n = 1; n <= 6; ++n) {
    SCOPED_TRACE(n);
    const v1::PuzzleSpec spec = NQueens(n);
    const std::set<std::vector<uint8_t>> solutions = OneHotSolutions(spec);
    const CompiledProblem problem = CompileBinary(spec);
    if (solutions.empty()) {
      auto ground =
          FindHuboGroundStates(*problem.higher_order, 1, nullptr, nullptr);
      ASSERT_OK(ground);
      EXPECT_GT(ground->energy, 0.0);  // n = 2, 3: no board scores 0
      continue;
    }
    EXPECT_EQ(BinaryGroundStates(problem), solutions);
  }
}

TEST(QueensBinaryTest, LinkedInGroundStatesAreItsSolutions) {
  // A 5x5 LinkedIn puzzle: colour regions, adjacent-diagonal attacks and a
  // given queen (lower case).
  auto spec = formats::ParseQueensText("AABBB/AaBBC/DDBCC/DDECC/DEEEC");
  ASSERT_OK(spec);
  const std::set<std::vector<uint8_t>> solutions = OneHotSolutions(*spec);
  ASSERT_FALSE(solutions.empty());
  EXPECT_EQ(BinaryGroundStates(CompileBinary(*spec)), solutions);
}

TEST(QueensBinaryTest, EverySolutionOfEightQueensScoresZeroAndMovesDoNot) {
  const v1::PuzzleSpec spec = NQueens(8);
  const std::set<std::vector<uint8_t>> solutions = OneHotSolutions(spec);
  ASSERT_EQ(solutions.size(), 92u);
  const CompiledProblem problem = CompileBinary(spec);
  const Hubo& hubo = *problem.higher_order;
  for (const std::vector<uint8_t>& cells : solutions) {
    auto bits = QueensCellsToBinary(cells, 8, 8);
    ASSERT_OK(bits);
    EXPECT_EQ(hubo.Energy(*bits), 0.0);
    // Any other code in any row breaks the board: a column taken twice, a
    // diagonal, or a code past the board (the model has 3 bits for 8 columns,
    // so every code is a column here).
    for (int r = 0; r < 8; ++r) {
      const int column = QueensBinaryColumn(*bits, 3, r);
      for (int c = 0; c < 8; ++c) {
        if (c == column) continue;
        std::vector<uint8_t> moved = *bits;
        for (int i = 0; i < 3; ++i) moved[r * 3 + i] = (c >> i) & 1;
        EXPECT_GE(hubo.Energy(moved), 1.0);
      }
    }
  }
}

TEST(QueensBinaryTest, CodesPastTheBoardArePenalised) {
  // 6 columns in 3 bits: codes 6 and 7 name no column.
  const CompiledProblem problem = CompileBinary(NQueens(6));
  const std::vector<uint8_t> cells = *OneHotSolutions(NQueens(6)).begin();
  auto bits = QueensCellsToBinary(cells, 6, 6);
  ASSERT_OK(bits);
  for (int code : {6, 7}) {
    std::vector<uint8_t> off = *bits;
    for (int i = 0; i < 3; ++i) off[i] = (code >> i) & 1;
    EXPECT_GE(problem.higher_order->Energy(off), 1.0);
    const std::vector<uint8_t> decoded = QueensBinaryToCells(off, 6, 6);
    EXPECT_EQ(std::count(decoded.begin(), decoded.begin() + 6, 1), 0);
  }
}

TEST(QueensBinaryTest, DecodeValidateEncodeRoundTrip) {
  const v1::PuzzleSpec spec = NQueens(8);
  const CompiledProblem problem = CompileBinary(spec);
  for (const std::vector<uint8_t>& cells : OneHotSolutions(spec)) {
    auto bits = QueensCellsToBinary(cells, 8, 8);
    ASSERT_OK(bits);
    const v1::PuzzleSolution board = Queens().Decode(spec, problem, *bits);
    auto report = Queens().Validate(spec, board);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    auto encoded = Queens().Encode(spec, problem, board);
    ASSERT_OK(encoded);
    EXPECT_EQ(*encoded, *bits);
  }
  // A broken board decodes and is reported, not hidden.
  std::vector<uint8_t> zeros(24, 0);  // every queen in column 1
  auto report = Queens().Validate(spec, Queens().Decode(spec, problem, zeros));
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  // A board with an empty row has no binary assignment.
  v1::PuzzleSolution empty = Queens().Decode(spec, problem, zeros);
  empty.set_cells(0, 0);
  EXPECT_THAT(Queens().Encode(spec, problem, empty),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 1 holds 0 queens")));
}

TEST(QueensBinaryTest, RefusesRulesItCannotState) {
  v1::CompileOptions options;
  options.set_encoding(v1::ENCODING_BINARY);
  v1::PuzzleSpec two_per_row;
  two_per_row.mutable_queens()->set_rows(4);
  two_per_row.mutable_queens()->set_cols(8);
  for (int r = 0; r < 4; ++r) two_per_row.mutable_queens()->add_row_counts(2);
  for (int c = 0; c < 8; ++c) two_per_row.mutable_queens()->add_col_counts(1);
  EXPECT_THAT(Queens().Compile(two_per_row, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("compile.encoding: the binary encoding gives "
                                 "every row exactly one queen")));
  v1::PuzzleSpec two_per_column;
  two_per_column.mutable_queens()->set_rows(8);
  two_per_column.mutable_queens()->set_cols(4);
  two_per_column.mutable_queens()->set_attack(v1::QUEENS_ATTACK_NONE);
  for (int c = 0; c < 4; ++c)
    two_per_column.mutable_queens()->add_col_counts(2);
  EXPECT_THAT(Queens().Compile(two_per_column, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("column 1 may hold 2")));
  EXPECT_THAT(Queens().Compile(NQueens(128), options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("compile.encoding")));
}

}  // namespace
}  // namespace qs
