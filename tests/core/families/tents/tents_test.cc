// Energy and rule tests of the Tents & Trees QUBO ([Mata Ali & Mencia 2024]
// §2.5, eq. 22): ground energy N_T / 4 of known solutions in every reduction,
// higher energy for every single change, exact ground states against the game's
// rules on 4x4 and 5x5 boards, the pairing rule the QUBO cannot express, and
// bad input.
#include "core/families/tents/tents.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/one_hot_groups.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/tents_oracle.h"

namespace qs {
namespace {

using ::qs::testing::GameFromSolvedBoard;
using ::qs::testing::GameFromTrees;
using ::qs::testing::StatusIs;
using ::qs::testing::TentsGame;
using ::qs::testing::TentsSpec;
using ::testing::Contains;
using ::testing::HasSubstr;

// An 8x8 board from `sgt-tents --generate` (game ID
// 8x8:abjcedccdfcdd,1,3,0,1,3,1,2,1,1,2,1,2,2,1,1,2), with its unique solution.
constexpr char kSolved8x8[] =
    "TA..A.../....T.TA/.T.A..../.A.T.TA./.TA...AT/...AT.../.TA...A./...AT.T.";

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewTentsCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

v1::PuzzleSolution Board(const std::vector<uint8_t>& tents) {
  v1::PuzzleSolution solution;
  for (uint8_t t : tents) solution.add_cells(t);
  return solution;
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations())
    rules.push_back(v.rule() + "@" + v.location());
  return rules;
}

// Number of groups of `problem.one_hot_groups` that do not hold exactly one 1
// in the reduced state `reduced`.
int GroupsBrokenBy(const CompiledProblem& problem,
                   const std::vector<uint8_t>& reduced) {
  return testing::GroupsBroken(problem.one_hot_groups, reduced);
}

TEST(TentsCompilerTest, ModelHasThePapersTermsAndStages) {
  std::vector<uint8_t> tents;
  const TentsGame game = GameFromSolvedBoard(kSolved8x8, &tents);
  ASSERT_EQ(game.NumTrees(), 12);
  const CompiledProblem problem =
      CompileOrDie(TentsSpec(game), v1::REDUCTION_FULL);
  EXPECT_EQ(problem.full_model.num_variables(), 64);
  EXPECT_EQ(problem.ground_energy, 3.0);  // 12 trees, 1/4 each
  ASSERT_EQ(problem.stages.size(), 4u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "trees");
  EXPECT_EQ(problem.stages[1].fixed_zero, 12);
  EXPECT_EQ(problem.stages[2].name, "outside_regions");
  EXPECT_EQ(problem.stages[3].name, "zero_lines");
  EXPECT_EQ(problem.stages[3].variables, problem.model.num_variables());
  // Full model couplers: 8 rows and 8 columns of C(8,2) pairs, 7x7x2 diagonal
  // and 7x8x2 straight neighbour pairs (the straight ones coincide with
  // row/column pairs and merge), tree regions add pairs that are neither
  // (opposite sides of a tree are already in one line, corners are diagonal
  // neighbours).
  EXPECT_EQ(problem.full_model.num_couplers(), 2 * 8 * 28 + 2 * 49);
  EXPECT_EQ(problem.full_model.labels()[2 * 8 + 4], "r3c5");
}

TEST(TentsCompilerTest, SolutionScoresTheGroundEnergyInEveryModel) {
  std::vector<uint8_t> tents;
  const TentsGame game = GameFromSolvedBoard(kSolved8x8, &tents);
  const v1::PuzzleSpec spec = TentsSpec(game);
  auto compiler = NewTentsCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem, Board(tents));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), 3.0);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits))
        << v1::Reduction_Name(reduction);
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 3.0)
        << v1::Reduction_Name(reduction);
    const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
    EXPECT_EQ(decoded.rows(0), "TA..A...");
    EXPECT_EQ(decoded.rows(7), "...AT.T.");
    auto report = compiler->Validate(spec, decoded);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << ::testing::PrintToString(RulesOf(*report));
  }
}

TEST(TentsCompilerTest, OneHotGroupsHoldOneTentInTheSolution) {
  std::vector<uint8_t> tents;
  const TentsGame game = GameFromSolvedBoard(kSolved8x8, &tents);
  const v1::PuzzleSpec spec = TentsSpec(game);
  auto compiler = NewTentsCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem, Board(tents));
    ASSERT_OK(bits);
    const std::vector<uint8_t> reduced = problem.variables.Restrict(*bits);
    ASSERT_FALSE(problem.one_hot_groups.empty());
    EXPECT_EQ(testing::MalformedGroups(problem.one_hot_groups,
                                       problem.model.num_variables()),
              0);
    EXPECT_EQ(GroupsBrokenBy(problem, reduced), 0);
  }
  // Rows 1, 3, 6, 7 and columns 1, 4, 6, 8 hold one tent each: one group per
  // line in every model.
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  ASSERT_EQ(none.one_hot_groups.size(), 8u);
  for (const auto& group : none.one_hot_groups) EXPECT_EQ(group.size(), 8u);
  // After the full reduction (column 3 holds no tent), the trees at (1,2) and
  // (8,4) keep two open cells each, diagonal neighbours: their groups come
  // before the lines'.
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_EQ(full.one_hot_groups.size(), 2u + 8u);
  auto labels = [&](const std::vector<int32_t>& group) {
    std::vector<std::string> out;
    for (int32_t v : group)
      out.push_back(full.full_model.labels()[full.variables.representative(v)]);
    return out;
  };
  EXPECT_EQ(labels(full.one_hot_groups[0]),
            (std::vector<std::string>{"r1c1", "r2c2"}));
  EXPECT_EQ(labels(full.one_hot_groups[1]),
            (std::vector<std::string>{"r7c4", "r8c5"}));
}

TEST(TentsCompilerTest, EverySingleCellChangeScoresHigher) {
  std::vector<uint8_t> tents;
  const TentsGame game = GameFromSolvedBoard(kSolved8x8, &tents);
  const v1::PuzzleSpec spec = TentsSpec(game);
  auto compiler = NewTentsCompiler();
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  auto bits = compiler->Encode(spec, none, Board(tents));
  ASSERT_OK(bits);
  for (int cell = 0; cell < 64; ++cell) {
    std::vector<uint8_t> changed = *bits;
    changed[cell] ^= 1;  // a tent added, removed, or put on a tree
    EXPECT_GT(none.full_model.Energy(changed), 3.0) << "cell " << cell;
    if (full.variables.source(cell).reduced >= 0) {
      EXPECT_GT(full.model.Energy(full.variables.Restrict(changed)), 3.0)
          << "cell " << cell;
    }
    auto report =
        compiler->Validate(spec, compiler->Decode(spec, none, changed));
    ASSERT_OK(report);
    EXPECT_FALSE(report->valid()) << "cell " << cell;
  }
}

struct SmallPuzzle {
  const char* name;
  const char* trees;
  std::vector<int> row_counts;
  std::vector<int> col_counts;
  int valid_boards;      // solutions of the game
  int pairing_failures;  // boards that meet every rule but the pairing
};

std::vector<SmallPuzzle> SmallPuzzles() {
  return {
      // `sgt-tents --generate 3 4x4de` and `--generate 3 5x5de`.
      {"sgt 4x4:cceb", "...A/...A/..../.A..", {1, 0, 1, 1}, {1, 0, 1, 1}, 1, 0},
      {"sgt 4x4:c_hb", "...A/A.../..../.A..", {1, 0, 1, 1}, {1, 0, 2, 0}, 1, 0},
      {"sgt 4x4:bedb", "..A./..../A.../.A..", {1, 1, 0, 1}, {2, 0, 0, 1}, 1, 0},
      {"sgt 5x5:iacaea",
       "...../....A/.A.../A.A../...A.",
       {1, 0, 2, 0, 2},
       {2, 0, 2, 0, 1},
       1,
       0},
      {"sgt 5x5:abgbbf",
       ".A..A/...../..A../A..A./.....",
       {1, 1, 0, 2, 1},
       {1, 1, 1, 1, 1},
       1,
       0},
      {"sgt 5x5:aakbcb",
       ".A.A./...../...../A..A./..A..",
       {1, 1, 1, 1, 1},
       {2, 1, 0, 1, 1},
       1,
       0},
      // Several solutions.
      {"4x4 two solutions",
       ".A../.A../..../.A..",
       {1, 1, 0, 1},
       {1, 0, 2, 0},
       2,
       0},
      {"4x4 two solutions",
       "..../..A./AA.A/....",
       {0, 2, 0, 2},
       {1, 1, 0, 2},
       2,
       0},
      {"5x5 three solutions",
       ".A.../....A/...../A.A.A/.....",
       {2, 0, 1, 0, 2},
       {2, 0, 1, 0, 2},
       3,
       0},
      // Minima of eq. 22 that are no solution: two trees share one tent while a
      // third has two.
      {"5x5 pairing",
       "...../..A.A/...../..A../A..A.",
       {2, 0, 1, 1, 1},
       {1, 0, 2, 0, 2},
       1,
       1},
      {"4x4 no solution",
       "..../.A.A/..../..A.",
       {0, 1, 0, 2},
       {0, 1, 1, 1},
       0,
       1},
  };
}

TEST(TentsCompilerTest, ExactGroundStatesAreTheBoardsOfTheRules) {
  auto compiler = NewTentsCompiler();
  for (const SmallPuzzle& p : SmallPuzzles()) {
    SCOPED_TRACE(p.name);
    const TentsGame game = GameFromTrees(p.trees, p.row_counts, p.col_counts);
    const v1::PuzzleSpec spec = TentsSpec(game);
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
    ASSERT_LE(problem.model.num_variables(), 30);
    auto ground = FindGroundStates(problem.model, 1000, nullptr);
    ASSERT_OK(ground);
    std::set<std::vector<uint8_t>> ground_boards, ground_valid;
    for (const auto& state : ground->states) {
      const std::vector<uint8_t> full = problem.variables.Expand(state);
      ground_boards.insert(full);
      // The exactly-one groups hold on every board of the ground energy.
      if (ground->energy == game.NumTrees() / 4.0) {
        EXPECT_EQ(GroupsBrokenBy(problem, state), 0);
      }
      auto report =
          compiler->Validate(spec, compiler->Decode(spec, problem, full));
      ASSERT_OK(report);
      if (report->valid()) ground_valid.insert(full);
    }
    const auto qubo_boards =
        testing::AllBoards(game, testing::SatisfiesQuboRules);
    const auto valid_boards =
        testing::AllBoards(game, testing::IsValidTentsBoard);
    EXPECT_EQ(ground->energy, game.NumTrees() / 4.0);
    EXPECT_EQ(ground->count, static_cast<int64_t>(ground_boards.size()));
    EXPECT_EQ(ground_boards, std::set<std::vector<uint8_t>>(qubo_boards.begin(),
                                                            qubo_boards.end()));
    EXPECT_EQ(ground_valid, std::set<std::vector<uint8_t>>(valid_boards.begin(),
                                                           valid_boards.end()));
    EXPECT_EQ(static_cast<int>(valid_boards.size()), p.valid_boards);
    EXPECT_EQ(static_cast<int>(qubo_boards.size() - valid_boards.size()),
              p.pairing_failures);
    EXPECT_EQ(testing::SolveTents(game, 10).size(), valid_boards.size());
  }
}

TEST(TentsCompilerTest, ValidatorReportsMinimaThatBreakThePairing) {
  // Trees (4,3) and (5,4) share their only tent (5,3) while tree (2,5) has two,
  // (1,5) and (3,5).
  const TentsGame game = GameFromTrees("...../..A.A/...../..A../A..A.",
                                       {2, 0, 1, 1, 1}, {1, 0, 2, 0, 2});
  const v1::PuzzleSpec spec = TentsSpec(game);
  auto compiler = NewTentsCompiler();
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  v1::PuzzleSolution unpaired;
  for (const char* row : {"..T.T", "..A.A", "....T", "T.A..", "A.TA."})
    unpaired.add_rows(row);
  auto bits = compiler->Encode(spec, problem, unpaired);
  ASSERT_OK(bits);
  EXPECT_EQ(problem.full_model.Energy(*bits),
            game.NumTrees() / 4.0);  // a minimum of eq. 22
  EXPECT_TRUE(problem.variables.IsConsistent(*bits));
  auto report = compiler->Validate(spec, unpaired);
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  // One tree and one tent are left over by any maximum pairing.
  ASSERT_EQ(report->violations_size(), 2)
      << ::testing::PrintToString(RulesOf(*report));
  EXPECT_EQ(report->violations(0).rule(), "tent_tree_pairing");
  EXPECT_THAT(report->violations(0).location(),
              ::testing::AnyOf("cell (4,3)", "cell (5,4)"));
  EXPECT_EQ(report->violations(1).rule(), "tent_tree_pairing");
  EXPECT_THAT(report->violations(1).location(),
              ::testing::AnyOf("cell (1,5)", "cell (3,5)"));
}

TEST(TentsCompilerTest, ValidatorNamesTheBrokenRules) {
  const TentsGame game = GameFromTrees("...../..A.A/...../..A../A..A.",
                                       {2, 0, 1, 1, 1}, {1, 0, 2, 0, 2});
  const v1::PuzzleSpec spec = TentsSpec(game);
  auto compiler = NewTentsCompiler();
  v1::PuzzleSolution board;
  // Two touching tents next to no tree, a tent on the tree (2,3), the tree
  // (5,4) missing.
  for (const char* row : {"TT...", "..*.A", ".....", "..A..", "A...."})
    board.add_rows(row);
  auto report = compiler->Validate(spec, board);
  ASSERT_OK(report);
  const std::vector<std::string> rules = RulesOf(*report);
  EXPECT_THAT(rules, Contains("tent_on_tree@cell (2,3)"));
  EXPECT_THAT(rules, Contains("tree_mismatch@cell (5,4)"));
  EXPECT_THAT(rules, Contains("tents_touch@cells (1,1) and (1,2)"));
  EXPECT_THAT(rules, Contains("tent_without_tree@cell (1,1)"));
  EXPECT_THAT(rules, Contains("tent_without_tree@cell (2,3)"));
  EXPECT_THAT(rules, Contains("row_count@row 2"));
  EXPECT_THAT(rules, Contains("column_count@column 5"));
  EXPECT_THAT(rules, Contains("tree_without_tent@cell (2,5)"));
  EXPECT_THAT(rules, ::testing::Not(Contains("row_count@row 1")));
  EXPECT_FALSE(report->valid());
}

TEST(TentsCompilerTest, ReadsTentsFromCellsAndTreesFromRows) {
  std::vector<uint8_t> tents;
  const TentsGame game = GameFromSolvedBoard(kSolved8x8, &tents);
  const v1::PuzzleSpec spec = TentsSpec(game);
  auto compiler = NewTentsCompiler();
  // Cells alone (1 tent, 0 otherwise): trees come from the puzzle.
  auto report = compiler->Validate(spec, Board(tents));
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
  // Cells and rows, as the client's board parser sends them; the rows' trees
  // are compared with the puzzle.
  v1::PuzzleSolution board = Board(tents);
  for (absl::string_view row : absl::StrSplit(kSolved8x8, '/'))
    board.add_rows(std::string(row));
  report = compiler->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
  board.set_rows(0, "T...A...");  // the tree at (1,2) left out
  report = compiler->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_THAT(RulesOf(*report),
              ::testing::ElementsAre("tree_mismatch@cell (1,2)"));
  // -1 is a tent on a tree.
  v1::PuzzleSolution on_tree = Board(tents);
  on_tree.set_cells(1, -1);
  report = compiler->Validate(spec, on_tree);
  ASSERT_OK(report);
  EXPECT_THAT(RulesOf(*report), Contains("tent_on_tree@cell (1,2)"));
  on_tree.set_cells(1, 2);
  EXPECT_THAT(compiler->Validate(spec, on_tree),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[1]: value 2 out of range")));
}

TEST(TentsCompilerTest, ReductionsFixTreesCellsOutsideRegionsAndEmptyLines) {
  const TentsGame game =
      GameFromTrees("...A/A.../..../.A..", {1, 0, 1, 1}, {1, 0, 2, 0});
  const v1::PuzzleSpec spec = TentsSpec(game);
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  EXPECT_EQ(none.model.num_variables(), 16);
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.model.num_variables(), 13);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  // 8 cells are next to a tree; row 2 and columns 2 and 4 hold no tent, which
  // leaves (1,1), (1,3), (3,1), (4,1) and (4,3).
  ASSERT_EQ(full.stages.size(), 4u);
  EXPECT_EQ(full.stages[2].variables, 8);
  EXPECT_EQ(full.stages[3].variables, 5);
  EXPECT_EQ(full.model.num_variables(), 5);
  EXPECT_EQ(full.full_model.labels()[full.variables.representative(4)], "r4c3");
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_DEFAULT).model.num_variables(), 5);
}

TEST(TentsCompilerTest, RejectsBadInputNamingTheField) {
  auto compiler = NewTentsCompiler();
  const v1::CompileOptions options;
  const v1::PuzzleSpec good = TentsSpec(
      GameFromTrees("...A/A.../..../.A..", {1, 0, 1, 1}, {1, 0, 2, 0}));
  ASSERT_OK(compiler->Compile(good, options));
  auto expect_error = [&](v1::PuzzleSpec spec, const std::string& message) {
    EXPECT_THAT(
        compiler->Compile(spec, options),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
    EXPECT_THAT(
        compiler->Validate(spec, v1::PuzzleSolution()),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
  };
  v1::PuzzleSpec spec = good;
  spec.mutable_tents()->set_rows(0);
  expect_error(spec, "tents.rows");
  spec = good;
  spec.mutable_tents()->set_trees(1, 16);
  expect_error(spec, "tents.trees[1]: cell 16 out of range 0..15");
  spec = good;
  spec.mutable_tents()->set_trees(1, 3);
  expect_error(spec, "tents.trees[1]: cell 3 (1,4) listed twice");
  spec = good;
  spec.mutable_tents()->mutable_row_counts()->RemoveLast();
  expect_error(spec, "tents.row_counts: expected 4 values");
  spec = good;
  spec.mutable_tents()->set_col_counts(2, 3);
  expect_error(
      spec, "tents.col_counts[2]: 3 tents do not fit in a column of 4 cells");
  spec = good;
  spec.mutable_tents()->set_col_counts(0, 2);
  expect_error(
      spec, "tents.col_counts: total 4 differs from the row counts' total 3");
  spec = good;
  spec.mutable_tents()->set_col_counts(0, 2);
  spec.mutable_tents()->set_row_counts(1, 1);
  expect_error(spec, "tents.row_counts: total 4 tents for 3 trees");
  spec = good;
  spec.mutable_tents()->set_cols(1001);
  expect_error(spec, "tents.cols");
  // Boards of the wrong shape.
  v1::PuzzleSolution short_board;
  short_board.add_cells(0);
  EXPECT_THAT(compiler->Validate(good, short_board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells: expected 16")));
  v1::PuzzleSolution bad_char;
  for (const char* row : {"...A", "A..X", "....", ".A.."})
    bad_char.add_rows(row);
  EXPECT_THAT(compiler->Validate(good, bad_char),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.rows[1][3]")));
}

TEST(TentsCompilerTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("tents");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kTents);
  EXPECT_EQ(
      (*compiler)->ModelVariables(TentsSpec(GameFromSolvedBoard(kSolved8x8))),
      64);
}

}  // namespace
}  // namespace qs
