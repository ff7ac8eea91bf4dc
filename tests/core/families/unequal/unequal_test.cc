// Energy, reduction and rule tests of the Futoshiki / Unequal QUBO
// (core/families/unequal/unequal.h, docs/unequal.md): ground energy 0 of
// known solutions in every reduction, each broken rule costing energy (a sign
// or a bar exactly 1), the exact ground states of small puzzles against the
// rules, what the reduction clamps stage by stage, the validator's rule names
// and bad specs.
#include "core/families/unequal/unequal.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// `sgt-unequal --generate 1 4dk` and its unique solution (found by the rules'
// count below).
constexpr char kId4[] = "4:0,0R,0,0,0,0R,0D,0,0,0,0,0,0U,0,0,0,";
constexpr char kSolved4[] = "4213/2431/1324/3142";
// `sgt-unequal --generate 1 5adt` (adjacent mode) and its unique solution.
constexpr char kIdAdjacent5[] =
    "5a:0,0R,0DL,0,1,0,2,4U,0,0D,1,0,0RD,0RDL,0UDL,4RD,0L,0UR,0UL,0U,0U,0,5R,"
    "0L,2,";
constexpr char kSolvedAdjacent5[] = "24351/52413/15234/43125/31542";

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("unequal", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

v1::PuzzleSolution Board(const std::string& rows) {
  v1::PuzzleSolution board;
  for (char ch : rows) {
    if (ch == '/') continue;
    board.add_cells(ch == '.' ? 0 : ch - '0');
  }
  return board;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction = v1::REDUCTION_FULL) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewUnequalCompiler()->Compile(spec, options);
  EXPECT_OK(problem);
  return *std::move(problem);
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations()) rules.push_back(v.rule());
  return rules;
}

std::vector<std::string> Violations(const v1::PuzzleSpec& spec,
                                    const v1::PuzzleSolution& board) {
  auto report = NewUnequalCompiler()->Validate(spec, board);
  EXPECT_OK(report);
  return report.ok() ? RulesOf(*report) : std::vector<std::string>{"error"};
}

double FullEnergy(const v1::PuzzleSpec& spec, const v1::PuzzleSolution& board) {
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto bits = NewUnequalCompiler()->Encode(spec, problem, board);
  EXPECT_OK(bits);
  return bits.ok() ? problem.full_model.Energy(*bits) : -1;
}

// The digits d -> n + 1 - d of a board: a Latin square again.
v1::PuzzleSolution Reversed(const v1::PuzzleSolution& board, int n) {
  v1::PuzzleSolution out = board;
  for (int k = 0; k < out.cells_size(); ++k)
    out.set_cells(k, n + 1 - board.cells(k));
  return out;
}

TEST(UnequalCompilerTest, ModelHasOneHotDigitsAndStages) {
  const CompiledProblem problem = CompileOrDie(Parse(kId4));
  EXPECT_EQ(problem.kind, "unequal");
  EXPECT_EQ(problem.full_model.num_variables(), 64);
  EXPECT_EQ(problem.ground_energy, 0.0);
  EXPECT_EQ(problem.height, 4);
  EXPECT_EQ(problem.full_model.labels()[(2 * 4 + 1) * 4 + 3], "r3c2d4");
  ASSERT_GE(problem.stages.size(), 5u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "clues");
  EXPECT_EQ(problem.stages[2].name, "chains");
  EXPECT_EQ(problem.stages[3].name, "signs");
  EXPECT_EQ(problem.stages[4].name, "latin");
  EXPECT_EQ(problem.stages.back().variables, problem.model.num_variables());
  // Couplers: each cell's C(4,2) digit pairs, each line's C(4,2) cell pairs
  // per digit, and a sign's pairs d <= e that are not already a line's pair
  // (d = e on two cells of a line merges): 4 signs x 6 pairs d < e.
  EXPECT_EQ(problem.full_model.num_couplers(), 16 * 6 + 2 * 4 * 4 * 6 + 4 * 6);
}

TEST(UnequalCompilerTest, SolutionsScoreTheGroundEnergyInEveryReduction) {
  auto compiler = NewUnequalCompiler();
  for (const auto& [id, solved] :
       {std::pair<const char*, const char*>{kId4, kSolved4},
        std::pair<const char*, const char*>{kIdAdjacent5, kSolvedAdjacent5}}) {
    const v1::PuzzleSpec spec = Parse(id);
    for (v1::Reduction reduction :
         {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
      SCOPED_TRACE(absl::StrCat(id, " ", v1::Reduction_Name(reduction)));
      const CompiledProblem problem = CompileOrDie(spec, reduction);
      auto bits = compiler->Encode(spec, problem, Board(solved));
      ASSERT_OK(bits);
      EXPECT_EQ(problem.full_model.Energy(*bits), 0.0);
      EXPECT_TRUE(problem.variables.IsConsistent(*bits));
      EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
      const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
      EXPECT_EQ(decoded.rows(0), std::string(solved).substr(0, problem.width));
      auto report = compiler->Validate(spec, decoded);
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid())
          << ::testing::PrintToString(RulesOf(*report));
    }
  }
}

TEST(UnequalCompilerTest, EachBrokenSignCostsOne) {
  // Reversing the digits keeps the Latin square and breaks all 4 signs.
  const v1::PuzzleSpec spec = Parse(kId4);
  const v1::PuzzleSolution reversed = Reversed(Board(kSolved4), 4);
  EXPECT_EQ(FullEnergy(spec, reversed), 4.0);
  EXPECT_THAT(
      Violations(spec, reversed),
      ElementsAre("inequality", "inequality", "inequality", "inequality"));
}

TEST(UnequalCompilerTest, EachBrokenBarAndMissingBarCostsOne) {
  // Without its givens, the adjacent puzzle's solution with its digits
  // shifted by one (5 -> 1) is a Latin square that breaks the bars where it
  // makes 4 and 5 into 5 and 1, and misses a bar where 5 and 1 become 1 and 2.
  v1::PuzzleSpec spec = Parse(kIdAdjacent5);
  spec.mutable_unequal()->clear_givens();
  v1::PuzzleSolution shifted = Board(kSolvedAdjacent5);
  for (int k = 0; k < shifted.cells_size(); ++k)
    shifted.set_cells(k, shifted.cells(k) % 5 + 1);
  const std::vector<std::string> rules = Violations(spec, shifted);
  EXPECT_THAT(rules, Contains("bar"));
  EXPECT_THAT(rules, Contains("missing_bar"));
  EXPECT_THAT(rules, Each(::testing::AnyOf("bar", "missing_bar")));
  EXPECT_EQ(FullEnergy(spec, shifted), static_cast<double>(rules.size()));
}

TEST(UnequalCompilerTest, LatinRulesCostEnergy) {
  const v1::PuzzleSpec spec = Parse(kId4);
  struct Case {
    const char* name;
    const char* board;
    const char* rule;
  };
  // Each board breaks the named rule (and maybe others); the QUBO scores it
  // above the ground energy.
  for (const Case& c : {
           Case{"empty cell", "4213/2431/1324/314.", "empty_cell"},
           // (1,1) and (1,2) swapped: 2 > 4 breaks the sign; columns repeat.
           Case{"column duplicate", "2413/2431/1324/3142", "column_duplicate"},
           Case{"row duplicate", "4213/2431/1324/3144", "row_duplicate"},
       }) {
    SCOPED_TRACE(c.name);
    EXPECT_THAT(Violations(spec, Board(c.board)), Contains(c.rule));
    EXPECT_GE(FullEnergy(spec, Board(c.board)), 1.0);
  }
  // Two digits in one cell: the cell's one-hot term and the lines' terms.
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto bits = NewUnequalCompiler()->Encode(spec, problem, Board(kSolved4));
  ASSERT_OK(bits);
  (*bits)[0 * 4 + 0] = 1;  // (1,1) holds 4 and 1
  EXPECT_GE(problem.full_model.Energy(*bits), 1.0);
  const v1::PuzzleSolution decoded =
      NewUnequalCompiler()->Decode(spec, problem, *bits);
  EXPECT_EQ(decoded.rows(0), "*213");
  EXPECT_THAT(Violations(spec, decoded), Contains("multiple_digits"));
}

TEST(UnequalCompilerTest, GivensAreKeptByClamping) {
  // The full model states the game without its givens (as Sudoku's); the
  // reductions clamp them, so a board against a given cannot be sampled.
  const v1::PuzzleSpec spec = Parse(kIdAdjacent5);
  // The solution's digits reversed: every bar and unbarred pair holds, every
  // given is wrong.
  const v1::PuzzleSolution reversed = Reversed(Board(kSolvedAdjacent5), 5);
  EXPECT_THAT(Violations(spec, reversed), Each("given_mismatch"));
  EXPECT_EQ(FullEnergy(spec, reversed), 0.0);
  for (v1::Reduction reduction : {v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = NewUnequalCompiler()->Encode(spec, problem, reversed);
    ASSERT_OK(bits);
    EXPECT_FALSE(problem.variables.IsConsistent(*bits));
  }
}

TEST(UnequalCompilerTest, ValidatorNamesEveryRuleWithItsPlace) {
  const v1::PuzzleSpec spec = Parse("4:2,0R,0,0,0,0,0,0,0,0,0,0,0,0,0,0,");
  v1::PuzzleSolution board = Board("1123/2.41/3212/4231");
  board.set_cells(15, -1);
  auto report = NewUnequalCompiler()->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  std::vector<std::string> found;
  for (const auto& v : report->violations())
    found.push_back(v.rule() + "@" + v.location());
  EXPECT_THAT(found, Contains("empty_cell@cell (2,2)"));
  EXPECT_THAT(found, Contains("multiple_digits@cell (4,4)"));
  EXPECT_THAT(found, Contains("given_mismatch@cell (1,1)"));
  EXPECT_THAT(found, Contains("row_duplicate@row 1"));
  EXPECT_THAT(found, Contains("column_duplicate@column 2"));
  EXPECT_THAT(found, Contains("inequality@cells (1,2) and (1,3)"));

  const v1::PuzzleSpec adjacent =
      Parse("adjacent/. .|. ./. . . ./. . . ./. . . .");
  auto bars =
      NewUnequalCompiler()->Validate(adjacent, Board("1342/2413/3124/4231"));
  ASSERT_OK(bars);
  found.clear();
  for (const auto& v : bars->violations())
    found.push_back(v.rule() + "@" + v.location());
  // (1,2)=3 and (1,3)=4 carry the bar and differ by one; (1,1)=1 and (2,1)=2
  // differ by one without a bar; (2,3)=1 and (2,4)=3 fine.
  EXPECT_THAT(found, Contains("missing_bar@cells (1,1) and (2,1)"));
  EXPECT_THAT(found, Not(Contains("bar@cells (1,2) and (1,3)")));
  auto broken =
      NewUnequalCompiler()->Validate(adjacent, Board("1423/2314/3142/4231"));
  ASSERT_OK(broken);
  EXPECT_THAT(RulesOf(*broken), Contains("bar"));
}

TEST(UnequalCompilerTest, ExactGroundStatesAreTheBoardsOfTheRules) {
  auto compiler = NewUnequalCompiler();
  auto encoder = BuiltinEncoders().ForSpec(Parse(kId4));
  ASSERT_OK(encoder);
  for (const char* text : {
           // 3x3 with signs: (1,1) > (1,2), (2,2) < (3,2).
           ".>. ./. . ./. ^ ./. . .",
           // A chain in a column and a given.
           ". . ./v . ./. . ./v . ./. . 2",
           // Adjacent mode, the bars of 123/231/312 and of 132/213/321:
           // bars and the pairs without one.
           ".|.|./--./.|. ./-.-/. .|.",
           ". .|./-.-/.|. ./--./.|.|.",
           // No clue: all 12 Latin squares of side 3.
           ". . ./. . ./. . .",
       }) {
    SCOPED_TRACE(text);
    const v1::PuzzleSpec spec = Parse(text);
    // Givens clamped, everything else free: the QUBO's terms alone decide.
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_CLUES);
    auto ground = FindGroundStates(problem.model, 1000, nullptr);
    ASSERT_OK(ground);
    EXPECT_EQ(ground->energy, 0.0);
    std::set<std::vector<uint8_t>> qubo_boards;
    for (const auto& state : ground->states) {
      const std::vector<uint8_t> full = problem.variables.Expand(state);
      auto report =
          compiler->Validate(spec, compiler->Decode(spec, problem, full));
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid())
          << ::testing::PrintToString(RulesOf(*report));
      qubo_boards.insert(full);
    }
    EXPECT_EQ(ground->count, static_cast<int64_t>(qubo_boards.size()));
    std::set<std::vector<uint8_t>> rule_boards;
    auto solved =
        SolveRules(**encoder, spec, 27, 1000, [&](std::vector<uint8_t> bits) {
          rule_boards.insert(std::move(bits));
        });
    ASSERT_OK(solved);
    EXPECT_EQ(qubo_boards, rule_boards);
    EXPECT_FALSE(rule_boards.empty());
    // The reduced model keeps every board of the rules at energy 0.
    const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
    for (const auto& bits : rule_boards) {
      EXPECT_TRUE(full.variables.IsConsistent(bits));
      EXPECT_EQ(full.model.Energy(full.variables.Restrict(bits)), 0.0);
    }
  }
}

TEST(UnequalRulesTest, CountsLatinSquaresAndTheUniqueSolution) {
  auto encoder = BuiltinEncoders().ForSpec(Parse(kId4));
  ASSERT_OK(encoder);
  auto one = CountRuleSolutions(**encoder, Parse(kId4), 64, 10,
                                CountMethod::kAuto, nullptr);
  ASSERT_OK(one);
  EXPECT_TRUE(one->complete);
  EXPECT_EQ(one->count, 1u);
  // No clues: the 576 Latin squares of side 4.
  auto all = CountRuleSolutions(**encoder, Parse("..../..../..../...."), 64,
                                1000, CountMethod::kAuto, nullptr);
  ASSERT_OK(all);
  EXPECT_EQ(all->count, 576u);
  auto adjacent = CountRuleSolutions(**encoder, Parse(kIdAdjacent5), 125, 10,
                                     CountMethod::kAuto, nullptr);
  ASSERT_OK(adjacent);
  EXPECT_EQ(adjacent->count, 1u);
}

// The variable of digit d (1-based) of cell (r, c), 1-based, in a side-n
// model: its fixed value, or -1 when the reduction left it free.
int Fixed(const CompiledProblem& problem, int r, int c, int d) {
  const int n = problem.height;
  const auto& source =
      problem.variables.source(((r - 1) * n + c - 1) * n + d - 1);
  return source.reduced >= 0 ? -1 : source.value;
}

TEST(UnequalReductionTest, CluesClampTheGivenCell) {
  const CompiledProblem problem =
      CompileOrDie(Parse("2.../..../..../...."), v1::REDUCTION_CLUES);
  ASSERT_EQ(problem.stages.size(), 2u);
  EXPECT_EQ(problem.stages[1].name, "clues");
  EXPECT_EQ(problem.stages[1].fixed_one, 1);
  EXPECT_EQ(problem.stages[1].fixed_zero, 3);
  EXPECT_EQ(Fixed(problem, 1, 1, 2), 1);
  EXPECT_EQ(Fixed(problem, 1, 1, 1), 0);
  EXPECT_EQ(Fixed(problem, 1, 2, 2), -1);  // Latin propagation is FULL's
}

TEST(UnequalReductionTest, ChainsRemoveTheDigitsTheyCannotHold) {
  // (1,1) > (1,2) > (1,3) in a 4x4 grid: (1,1) is 3 or 4, (1,3) 1 or 2, and
  // (1,2) 2 or 3; nothing else is decided.
  const CompiledProblem problem = CompileOrDie(Parse(".>.>../..../..../...."));
  ASSERT_GE(problem.stages.size(), 3u);
  EXPECT_EQ(problem.stages[2].name, "chains");
  EXPECT_EQ(problem.stages[2].fixed_zero, 6);
  for (int d : {1, 2}) EXPECT_EQ(Fixed(problem, 1, 1, d), 0);
  for (int d : {3, 4}) EXPECT_EQ(Fixed(problem, 1, 3, d), 0);
  EXPECT_EQ(Fixed(problem, 1, 2, 1), 0);
  EXPECT_EQ(Fixed(problem, 1, 2, 4), 0);
  EXPECT_EQ(Fixed(problem, 1, 1, 4), -1);
  EXPECT_EQ(Fixed(problem, 1, 2, 2), -1);
  // Read from below too: (2,1) < (3,1) < (4,1) (signs '^').
  const CompiledProblem up =
      CompileOrDie(Parse("..../..../^.../..../^.../...."));
  for (int d : {3, 4}) EXPECT_EQ(Fixed(up, 2, 1, d), 0);
  for (int d : {1, 2}) EXPECT_EQ(Fixed(up, 4, 1, d), 0);
}

TEST(UnequalReductionTest, SignsAndLatinPropagateToAFixedPoint) {
  // 3 > (1,2) and the given 3 leaving row 1 and column 1: (1,2) is 1 or 2;
  // a second round finds nothing more and adds no stage.
  const CompiledProblem problem = CompileOrDie(Parse("3>.../..../..../...."));
  std::vector<std::string> names;
  for (const ReductionStage& s : problem.stages) names.push_back(s.name);
  EXPECT_THAT(names, ElementsAre("model", "clues", "chains", "signs", "latin"));
  // Signs: (1,2) < 3, so not 3 or 4; Latin: the 3 leaves row 1 and column 1.
  EXPECT_EQ(Fixed(problem, 1, 2, 4), 0);
  EXPECT_EQ(Fixed(problem, 1, 2, 3), 0);
  EXPECT_EQ(Fixed(problem, 1, 3, 3), 0);
  EXPECT_EQ(Fixed(problem, 4, 1, 3), 0);
  EXPECT_EQ(problem.stages[3].fixed_zero, 1);  // the 3; the chain took the 4
  // `sgt-unequal --generate 1 4de` is decided by the reduction in two
  // rounds: nothing is left to sample.
  const CompiledProblem solved =
      CompileOrDie(Parse("4:0,0L,0,0D,0,0,0,0L,0U,0,0,0,0,0L,0,0,"));
  EXPECT_EQ(solved.model.num_variables(), 0);
  ASSERT_EQ(solved.stages.size(), 7u);
  EXPECT_EQ(solved.stages[5].name, "signs_2");
  EXPECT_EQ(solved.stages[6].name, "latin_2");
}

TEST(UnequalReductionTest, BarsKeepNeighboursOfTheNeighboursDigits) {
  // The bars of the square 1243/3421/2134/4312 and its given 1: the bar next
  // to it leaves (1,2) only 2, and the pair below without a bar rules out 2
  // (and the column 1) for (2,1).
  const char* grid = "1|. .|./.|. .|./-.-./.|. .|./.|. .|.";
  const CompiledProblem problem = CompileOrDie(Parse(grid));
  std::vector<std::string> names;
  for (const ReductionStage& s : problem.stages) names.push_back(s.name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names[2], "bars");
  EXPECT_EQ(Fixed(problem, 1, 2, 2), 1);
  EXPECT_EQ(Fixed(problem, 1, 2, 3), 0);
  EXPECT_EQ(Fixed(problem, 2, 1, 2), 0);
  // Sound: the square itself is kept, at energy 0.
  auto bits = NewUnequalCompiler()->Encode(Parse(grid), problem,
                                           Board("1243/3421/2134/4312"));
  ASSERT_OK(bits);
  EXPECT_TRUE(problem.variables.IsConsistent(*bits));
  EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
}

TEST(UnequalReductionTest, OneHotGroupsCoverCellsAndLines) {
  const v1::PuzzleSpec spec = Parse("..../..../..../....");
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  EXPECT_EQ(none.one_hot_groups.size(), 3u * 16);
  for (const auto& group : none.one_hot_groups) EXPECT_EQ(group.size(), 4u);
  const CompiledProblem solved =
      CompileOrDie(Parse("4:0,0L,0,0D,0,0,0,0L,0U,0,0,0,0,0L,0,0,"));
  EXPECT_EQ(solved.model.num_variables(), 0);
  EXPECT_TRUE(solved.one_hot_groups.empty());
  // A tricky one keeps cells open, and their groups.
  const CompiledProblem open = CompileOrDie(Parse(kId4));
  EXPECT_GT(open.model.num_variables(), 0);
  EXPECT_FALSE(open.one_hot_groups.empty());
}

TEST(UnequalCompilerTest, BadSpecsNameTheField) {
  auto compiler = NewUnequalCompiler();
  auto compile = [&](const v1::UnequalPuzzle& p) {
    v1::PuzzleSpec spec;
    *spec.mutable_unequal() = p;
    return compiler->Compile(spec, v1::CompileOptions()).status();
  };
  auto sign = [](v1::UnequalPuzzle& p, int a, int b) {
    v1::UnequalPair& s = *p.add_signs();
    s.set_first(a);
    s.set_second(b);
  };
  v1::UnequalPuzzle p;
  p.set_size(2);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("unequal.size")));
  p.set_size(10);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("unequal.size")));
  p.set_size(3);
  p.add_givens(1);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("unequal.givens: expected 9")));
  for (int k = 1; k < 9; ++k) p.add_givens(0);
  p.set_givens(4, 4);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("unequal.givens[4]")));
  p.set_givens(4, 0);
  p.set_givens(2, 1);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("contradictory givens")));
  p.clear_givens();
  sign(p, 0, 4);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("not side neighbours")));
  p.clear_signs();
  sign(p, 0, 9);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("unequal.signs[0]: cell 9")));
  p.clear_signs();
  sign(p, 0, 1);
  sign(p, 1, 0);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("unequal.signs[1]")));
  p.clear_signs();
  sign(p, 0, 1);
  sign(p, 1, 4);
  sign(p, 4, 3);
  sign(p, 3, 0);
  EXPECT_THAT(compile(p),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cycle")));
  p.clear_signs();
  sign(p, 0, 1);
  sign(p, 1, 2);
  sign(p, 2, 5);
  EXPECT_THAT(compile(p), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("chain of 4 cells")));
  // The same cells as bars are fine: a path of bars has no direction.
  p.set_mode(v1::UnequalPuzzle::ADJACENT);
  EXPECT_OK(compile(p));
}

}  // namespace
}  // namespace qs
