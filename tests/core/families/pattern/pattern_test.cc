// Energy, reduction and rule tests of the Nonogram QUBO (docs/pattern.md):
// the ground energy 0 of known solutions in every reduction, a higher energy
// for every broken rule and every single flip, the QUBO's zero-energy states
// against the game's rules and the exact rules on every assignment of small
// puzzles, the reduction stage by stage, the validator's rules, bad input and
// the generator.
#include "core/families/pattern/pattern.h"

#include <set>
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/no_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NoSampler;

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// sgt-pattern --generate 3 10x10 (tests/data/pattern), with its unique
// solution.
constexpr char k10x10[] =
    "10x10:3.1/4.2/3/3.4/1/1.1/1/9/5.3/9/4/4.3/4.3/1.3/1.3/3/1.1.1/2.3/1.1.3/"
    "2.1.5";
constexpr char k10x10Solution[] =
    "####....../####...###/####...###/.#.....###/.....#.###/.......###/"
    "...#...#.#/...##..###/.#.#...###/##.#.#####";
// Tatham's example of a puzzle no line-at-a-time solver can start, with a
// unique solution.
constexpr char kNotLineSolvable[] = "4x4:2/1/2/1/1.1/2/1/1";

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("pattern", text);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewPatternCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

v1::PuzzleSolution Board(const std::string& rows) {
  v1::PuzzleSolution board;
  for (char ch : rows) {
    if (ch != '/') board.add_cells(ch == '#' ? 1 : 0);
  }
  return board;
}

PatternGrid GridOf(const v1::PuzzleSpec& spec) {
  auto grid = PatternGridOf(spec.pattern());
  EXPECT_TRUE(grid.ok()) << grid.status();
  return *std::move(grid);
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations())
    rules.push_back(v.rule() + "@" + v.location());
  return rules;
}

// Puts run `run` of `line` at `start` alone (its other starts cleared).
void Place(std::vector<uint8_t>& bits, const PatternLine& line, int run,
           int start) {
  for (int s = line.lo[run]; s <= line.hi[run]; ++s) bits[line.Var(run, s)] = 0;
  bits[line.Var(run, start)] = 1;
}

TEST(PatternCompilerTest, ModelHasOneStartVariablePerRunAndStart) {
  const v1::PuzzleSpec spec = Parse("5x3:1/1/2/2/2/1.3/3/1");
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  // Rows: 1.3 fills its 5 cells (1 start each), 3 has 3 starts, 1 has 5;
  // columns of 3 cells: 1, 1 (3 starts each), 2, 2, 2 (2 starts each).
  EXPECT_EQ(problem.full_model.num_variables(), 2 + 3 + 5 + 3 + 3 + 2 * 3);
  EXPECT_EQ(NewPatternCompiler()->ModelVariables(spec), 22);
  EXPECT_EQ(problem.ground_energy, 0.0);
  EXPECT_EQ(problem.full_model.labels()[0], "r1k1s1");
  EXPECT_EQ(problem.full_model.labels()[1], "r1k2s3");
  EXPECT_EQ(problem.full_model.labels()[2], "r2k1s1");
  EXPECT_EQ(problem.one_hot_groups.size(), 7u);  // 7 runs with 2+ starts
}

TEST(PatternCompilerTest, SolutionScoresTheGroundEnergyInEveryReduction) {
  const v1::PuzzleSpec spec = Parse(k10x10);
  auto compiler = NewPatternCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem, Board(k10x10Solution));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), 0.0);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
    const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
    EXPECT_EQ(decoded.rows(0), "####......");
    EXPECT_EQ(decoded.rows(9), "##.#.#####");
    auto report = compiler->Validate(spec, decoded);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << ::testing::PrintToString(RulesOf(*report));
  }
}

TEST(PatternCompilerTest, EverySingleFlipScoresHigher) {
  const v1::PuzzleSpec spec = Parse(k10x10);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto bits =
      NewPatternCompiler()->Encode(spec, problem, Board(k10x10Solution));
  ASSERT_OK(bits);
  for (size_t v = 0; v < bits->size(); ++v) {
    std::vector<uint8_t> flipped = *bits;
    flipped[v] ^= 1;
    EXPECT_GE(problem.full_model.Energy(flipped), 1.0)
        << problem.full_model.labels()[v];
  }
}

// Each broken rule of the formulation, on the 10x10 solution.
TEST(PatternCompilerTest, EachBrokenRuleCostsAtLeastOne) {
  const v1::PuzzleSpec spec = Parse(k10x10);
  const PatternGrid grid = GridOf(spec);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto solved =
      NewPatternCompiler()->Encode(spec, problem, Board(k10x10Solution));
  ASSERT_OK(solved);
  const PatternLine& row1 = grid.row(0);  // 4, at 0
  const PatternLine& row2 = grid.row(1);  // 4 3, at 0 and 7
  const PatternLine& row7 = grid.row(6);  // 1 1 1, at 3, 7 and 9
  const PatternLine& col1 = grid.col(0);  // 3 1, at 0 and 9
  ASSERT_THAT(row2.runs, ElementsAre(4, 3));
  ASSERT_THAT(row7.runs, ElementsAre(1, 1, 1));
  ASSERT_THAT(col1.runs, ElementsAre(3, 1));
  struct Case {
    const char* rule;
    std::vector<uint8_t> bits;
  };
  std::vector<Case> cases;
  auto add = [&](const char* rule) -> std::vector<uint8_t>& {
    cases.push_back({rule, *solved});
    return cases.back().bits;
  };
  add("a run without a start")[row1.Var(0, 0)] = 0;
  // Two starts of one run draw a run one cell too long.
  add("a run of the wrong length (two starts)")[row1.Var(0, 1)] = 1;
  {
    std::vector<uint8_t>& bits = add("runs touching");
    Place(bits, row2, 0, 2);
    Place(bits, row2, 1, 6);
  }
  {
    std::vector<uint8_t>& bits = add("runs out of order");
    Place(bits, row7, 0, 5);
    Place(bits, row7, 1, 2);
  }
  // The row keeps its clue, the columns no longer agree with it.
  Place(add("a row the columns do not match"), row1, 0, 1);
  Place(add("a column the rows do not match"), col1, 0, 1);
  for (const Case& c : cases) {
    EXPECT_GE(problem.full_model.Energy(c.bits), 1.0) << c.rule;
  }
}

TEST(PatternCompilerTest, GivenCellsArePenalisedAndValidated) {
  // Two diagonal solutions; the given picks one.
  for (const bool filled : {true, false}) {
    SCOPED_TRACE(filled ? "given filled" : "given empty");
    v1::PuzzleSpec spec = Parse("2x2:1/1/1/1");
    if (filled) {
      spec.mutable_pattern()->add_filled(0);
    } else {
      spec.mutable_pattern()->add_empty(0);
    }
    auto compiler = NewPatternCompiler();
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    const std::string good = filled ? "#./.#" : ".#/#.";
    const std::string bad = filled ? ".#/#." : "#./.#";
    auto good_bits = compiler->Encode(spec, problem, Board(good));
    auto bad_bits = compiler->Encode(spec, problem, Board(bad));
    ASSERT_OK(good_bits);
    ASSERT_OK(bad_bits);
    EXPECT_EQ(problem.full_model.Energy(*good_bits), 0.0);
    EXPECT_GE(problem.full_model.Energy(*bad_bits), 1.0);
    auto report = compiler->Validate(spec, Board(bad));
    ASSERT_OK(report);
    EXPECT_THAT(RulesOf(*report), ElementsAre("given_cell@cell (1,1)"));
    // The clues reduction settles the given's row and column (their other
    // start is dropped), line solving the rest: only the given's solution
    // is left.
    const CompiledProblem clued = CompileOrDie(spec, v1::REDUCTION_CLUES);
    EXPECT_TRUE(clued.variables.IsConsistent(*good_bits));
    EXPECT_FALSE(clued.variables.IsConsistent(*bad_bits));
    EXPECT_EQ(clued.model.num_variables(), 4);
    const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
    EXPECT_TRUE(full.variables.IsConsistent(*good_bits));
    EXPECT_EQ(full.model.num_variables(), 0);
  }
}

// Every assignment of small puzzles' start variables: energy 0 exactly on the
// assignments of valid boards, at least 1 elsewhere, and the valid ones are
// exactly the exact rules' solutions.
TEST(PatternCompilerTest, ZeroEnergyStatesAreExactlyTheRulesSolutions) {
  struct Small {
    const char* id;
    int solutions;
  };
  const Small puzzles[] = {{"2x2:1/1/1/1", 2},
                           {"2x2:1/1/1/1,Ad", 1},
                           // The columns ask for the row runs touching
                           // (".##."): only the order term refuses it.
                           {"4x1:/1/1//1.1", 0},
                           {"2x2:1/1/1/1,cb", 1},
                           {"3x3:1/3/1/1/3/1", 1},
                           {"3x3:1.1/1/1.1/1.1/1/1.1", 1},
                           {"3x3:1/1/1/1/1/1", 6},
                           {"3x2:2/1/1/3/1", 1},
                           {"3x3:/2/1/1/1/1", 2},
                           {"3x3:1.1/1/1.1/1/1.1/1.1", 0}};
  auto compiler = NewPatternCompiler();
  for (const Small& p : puzzles) {
    SCOPED_TRACE(p.id);
    const v1::PuzzleSpec spec = Parse(p.id);
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    const int n = problem.full_model.num_variables();
    ASSERT_LE(n, 20);
    std::set<std::vector<uint8_t>> ground;
    std::vector<uint8_t> bits(n);
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
      for (int v = 0; v < n; ++v) bits[v] = (mask >> v) & 1;
      const double energy = problem.full_model.Energy(bits);
      const v1::PuzzleSolution board = compiler->Decode(spec, problem, bits);
      auto report = compiler->Validate(spec, board);
      ASSERT_OK(report);
      auto encoded = compiler->Encode(spec, problem, board);
      const bool valid = report->valid() && encoded.ok() && *encoded == bits;
      if (valid) {
        EXPECT_EQ(energy, 0.0) << mask;
        ground.insert(bits);
      } else {
        EXPECT_GE(energy, 1.0) << mask;
      }
    }
    EXPECT_EQ(static_cast<int>(ground.size()), p.solutions);
    auto encoder = BuiltinEncoders().ForSpec(spec);
    ASSERT_OK(encoder);
    std::set<std::vector<uint8_t>> rules;
    auto solved =
        SolveRules(**encoder, spec, n, 100, [&](std::vector<uint8_t> solution) {
          rules.insert(std::move(solution));
        });
    ASSERT_OK(solved);
    EXPECT_TRUE(solved->enumeration.complete);
    EXPECT_EQ(rules, ground);
  }
}

TEST(PatternCompilerTest, ReductionClampsWhatTheCluesForceStageByStage) {
  const v1::PuzzleSpec spec = Parse(k10x10);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_EQ(problem.stages.size(), 4u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "clues");
  EXPECT_EQ(problem.stages[2].name, "overlap");
  EXPECT_EQ(problem.stages[3].name, "line_solving");
  const int n = problem.full_model.num_variables();
  EXPECT_EQ(problem.stages[0].variables, n);
  // Row 10 (2 1 5) fills its line: its three runs have one start each.
  EXPECT_EQ(problem.stages[1].fixed_one, 3);
  EXPECT_EQ(problem.stages[1].fixed_zero, 0);
  // The overlap fixes cells, which drop starts across the grid.
  EXPECT_GT(problem.stages[2].fixed_zero, 0);
  EXPECT_LT(problem.stages[2].variables, problem.stages[1].variables);
  // Tatham's puzzles solve line by line: nothing is left to sample.
  EXPECT_EQ(problem.stages[3].variables, 0);
  EXPECT_EQ(problem.model.num_variables(), 0);
  EXPECT_TRUE(problem.one_hot_groups.empty());
  int fixed = 0;
  for (const ReductionStage& stage : problem.stages)
    fixed += stage.fixed_zero + stage.fixed_one;
  EXPECT_EQ(fixed, n);
  // The clues stage alone keeps every run's starts open but the full line's.
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.stages.size(), 2u);
  EXPECT_EQ(clues.model.num_variables(), n - 3);
}

TEST(PatternCompilerTest, OverlapFillsTheCellsEveryPlacementCovers) {
  // A row 4 of 5 cells covers its cells 2..4 wherever it starts, so the
  // 1-cell columns 2..4 must have their run in row 1.
  const v1::PuzzleSpec spec = Parse("5x2:1/1/1/1/1/4/1");
  const PatternGrid grid = GridOf(spec);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_EQ(problem.stages.size(), 4u);
  for (int c = 1; c <= 3; ++c) {
    const PatternLine& col = grid.col(c);
    const VariableMap::Source& top = problem.variables.source(col.Var(0, 0));
    const VariableMap::Source& bottom = problem.variables.source(col.Var(0, 1));
    EXPECT_EQ(top.reduced, -1) << c;
    EXPECT_EQ(top.value, 1) << c;
    EXPECT_EQ(bottom.reduced, -1) << c;
    EXPECT_EQ(bottom.value, 0) << c;
  }
  EXPECT_GE(problem.stages[2].fixed_one, 3);
}

TEST(PatternCompilerTest, LineSolvingLeavesWhatNoLineDecides) {
  // No row or column of Tatham's 4x4 example decides a cell: every start
  // stays open, yet the puzzle has one solution, which the reduced model
  // keeps at energy 0.
  const v1::PuzzleSpec spec = Parse(kNotLineSolvable);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  EXPECT_EQ(problem.model.num_variables(), problem.full_model.num_variables());
  EXPECT_FALSE(problem.one_hot_groups.empty());
  auto compiler = NewPatternCompiler();
  auto bits = compiler->Encode(spec, problem, Board("#..#/##../..#./..#."));
  ASSERT_OK(bits);
  EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  auto count =
      CountRuleSolutions(**encoder, spec, problem.full_model.num_variables(), 2,
                         CountMethod::kAuto, nullptr);
  ASSERT_OK(count);
  EXPECT_TRUE(count->complete);
  EXPECT_EQ(count->count, 1u);
}

TEST(PatternCompilerTest, ValidatorNamesEachRule) {
  const v1::PuzzleSpec spec = Parse("5x3:1/1/2/2/2/1.3/3/1");
  auto compiler = NewPatternCompiler();
  auto valid = compiler->Validate(spec, Board("#.###/..###/.#..."));
  ASSERT_OK(valid);
  EXPECT_TRUE(valid->valid());
  // Row 3's run moved right: row 3 still reads 1, columns 2 and 3 break.
  auto moved = compiler->Validate(spec, Board("#.###/..###/..#.."));
  ASSERT_OK(moved);
  EXPECT_FALSE(moved->valid());
  EXPECT_THAT(RulesOf(*moved),
              ElementsAre("column_runs@column 2", "column_runs@column 3"));
  EXPECT_THAT(moved->violations(1).message(),
              HasSubstr("runs 3, the clue says 2"));
  // Row 1's two runs merged.
  auto merged = compiler->Validate(spec, Board("#####/..###/.#..."));
  ASSERT_OK(merged);
  EXPECT_THAT(RulesOf(*merged),
              ElementsAre("row_runs@row 1", "column_runs@column 2"));
  EXPECT_THAT(merged->violations(0).message(),
              HasSubstr("runs 5, the clue says 1 3"));
  // Boards as rows of characters.
  v1::PuzzleSolution rows;
  for (const char* row : {"#.###", "..###", ".#..."}) rows.add_rows(row);
  auto from_rows = compiler->Validate(spec, rows);
  ASSERT_OK(from_rows);
  EXPECT_TRUE(from_rows->valid());
  // A board the start variables cannot draw has no encoding.
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  EXPECT_THAT(compiler->Encode(spec, problem, Board("#####/..###/.#...")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 1 has runs 5, its clue is 1 3")));
}

TEST(PatternCompilerTest, BadSpecsAreRefusedNamingTheField) {
  auto compiler = NewPatternCompiler();
  auto refuse = [&](const v1::PuzzleSpec& spec, const char* message) {
    EXPECT_THAT(
        compiler->Compile(spec, v1::CompileOptions()),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
  };
  v1::PuzzleSpec spec = Parse("5x3:1/1/2/2/2/1.3/3/1");
  v1::PuzzleSpec wrong = spec;
  wrong.mutable_pattern()->mutable_row_clues()->RemoveLast();
  refuse(wrong, "pattern.row_clues: expected 3 clues");
  wrong = spec;
  wrong.mutable_pattern()->mutable_row_clues(1)->set_runs(0, 6);
  refuse(wrong, "pattern.row_clues[1].runs[0]: 6 is not a run length");
  wrong = spec;
  wrong.mutable_pattern()->mutable_row_clues(1)->add_runs(2);
  refuse(wrong, "pattern.row_clues[1]: the runs need 6 cells");
  wrong = spec;
  wrong.mutable_pattern()->mutable_col_clues(0)->set_runs(0, 2);
  refuse(wrong, "the columns fill 9 cells, the rows 8");
  wrong = spec;
  wrong.mutable_pattern()->add_filled(15);
  refuse(wrong, "pattern.filled[0]: cell 15 out of range");
  wrong = spec;
  wrong.mutable_pattern()->add_filled(3);
  wrong.mutable_pattern()->add_empty(3);
  refuse(wrong, "pattern.empty[0]: cell 3 is given twice");
  wrong = spec;
  wrong.mutable_pattern()->set_rows(0);
  refuse(wrong, "pattern.rows: must be 1..");
}

TEST(PatternGeneratorTest, PuzzlesHaveOneSolutionThatScoresZero) {
  auto generator = BuiltinGenerators().Get("pattern");
  ASSERT_OK(generator);
  auto compiler = NewPatternCompiler();
  for (int side : {5, 10}) {
    GenerateOptions options;
    options.rows = side;
    options.cols = side + 2;
    ASSERT_OK((*generator)->Check(options));
    NoSampler sampler;
    Interrupter interrupter;
    auto generated =
        (*generator)->Generate(options, 7 + side, sampler, interrupter);
    ASSERT_OK(generated);
    const v1::PuzzleSpec& spec = generated->puzzle;
    EXPECT_EQ(spec.pattern().rows(), static_cast<uint32_t>(side));
    EXPECT_EQ(spec.pattern().cols(), static_cast<uint32_t>(side + 2));
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    EXPECT_EQ(problem.full_model.Energy(generated->solution), 0.0);
    auto report = compiler->Validate(
        spec, compiler->Decode(spec, problem, generated->solution));
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    auto encoder = BuiltinEncoders().ForSpec(spec);
    ASSERT_OK(encoder);
    auto count =
        CountRuleSolutions(**encoder, spec, problem.full_model.num_variables(),
                           2, CountMethod::kAuto, nullptr);
    ASSERT_OK(count);
    EXPECT_TRUE(count->complete);
    EXPECT_EQ(count->count, 1u);
  }
  GenerateOptions bad;
  bad.rows = bad.cols = 5;
  bad.target_clues = 3;
  EXPECT_THAT(
      (*generator)->Check(bad),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target_clues")));
}

}  // namespace
}  // namespace qs
