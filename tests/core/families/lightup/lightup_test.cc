// Energy, reduction and rule tests of the Light Up QUBO (lightup.h,
// docs/lightup.md): the ground energy 0 of a known solution in every
// reduction, each broken rule scoring at least 1, an exhaustive check on
// small boards that the valid boards are exactly the assignments of energy 0
// and every other one scores at least 1 (against the ray-casting oracle of
// lightup_oracle.h), the tightness of the segment weight, the reduction's
// stages and exactly-one groups, the validator's rule names and bad input.
#include "core/families/lightup/lightup.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/lightup/lightup_oracle.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::LightupGame;
using ::qs::testing::LightupGameOf;
using ::qs::testing::LightupSpecOf;
using ::qs::testing::OracleSolutions;
using ::qs::testing::OracleValid;
using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// `sgt-lightup --generate` 7x7 (the format's example) and its only solution
// (found by `sat`; Count says 1).
constexpr char kGameId[] = "7x7:b2a0iBe0g1e2i1aBb";
constexpr char kSolved[] =
    ".L2.0.L/..L..../#...L.0/L....../1....L2/......L/L.1L#..";

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("lightup", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewLightupCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

v1::PuzzleSolution RowsBoard(const std::string& rows) {
  v1::PuzzleSolution solution;
  for (absl::string_view row : absl::StrSplit(rows, '/'))
    solution.add_rows(std::string(row));
  return solution;
}

std::vector<uint8_t> LightsOf(const std::string& rows) {
  std::vector<uint8_t> out;
  for (char ch : rows) {
    if (ch != '/') out.push_back(ch == 'L' || ch == '*');
  }
  return out;
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations())
    rules.push_back(v.rule() + "@" + v.location());
  return rules;
}

double Energy(const CompiledProblem& problem, const std::string& rows) {
  return problem.full_model.Energy(LightsOf(rows));
}

std::vector<std::string> Validate(const v1::PuzzleSpec& spec,
                                  const std::string& rows) {
  auto report = NewLightupCompiler()->Validate(spec, RowsBoard(rows));
  EXPECT_OK(report);
  return report.ok() ? RulesOf(*report) : std::vector<std::string>{"error"};
}

TEST(LightupCompilerTest, ModelOverEveryCellWithGroundEnergyZero) {
  const CompiledProblem problem =
      CompileOrDie(Parse(kGameId), v1::REDUCTION_FULL);
  EXPECT_EQ(problem.kind, "lightup");
  EXPECT_EQ(problem.full_model.num_variables(), 49);
  ASSERT_TRUE(problem.ground_energy.has_value());
  EXPECT_EQ(*problem.ground_energy, 0.0);
  EXPECT_EQ(problem.full_model.labels()[2 * 7 + 4], "r3c5");
  ASSERT_GE(problem.stages.size(), 4u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "blacks");
  EXPECT_EQ(problem.stages[1].fixed_zero, 8);  // 2 plain, 6 numbered
  EXPECT_EQ(problem.stages[2].name, "zero_clues");
  EXPECT_EQ(problem.stages[3].name, "full_clues");
  EXPECT_EQ(problem.stages.back().variables, problem.model.num_variables());
  // The offset: 1 per white cell (the lit terms) and k^2 per number.
  EXPECT_EQ(problem.full_model.offset(), 41 + 4 + 0 + 0 + 1 + 4 + 1);
}

TEST(LightupCompilerTest, SolutionScoresTheGroundEnergyInEveryModel) {
  const v1::PuzzleSpec spec = Parse(kGameId);
  auto compiler = NewLightupCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem, RowsBoard(kSolved));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), 0.0);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
    const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
    std::vector<std::string> rows(decoded.rows().begin(), decoded.rows().end());
    EXPECT_EQ(rows, std::vector<std::string>(absl::StrSplit(kSolved, '/')));
    EXPECT_EQ(decoded.cells(1), 1);  // a light
    EXPECT_EQ(decoded.cells(2), 0);  // the 2
    auto report = compiler->Validate(spec, decoded);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << ::testing::PrintToString(RulesOf(*report));
  }
}

TEST(LightupCompilerTest, EverySingleCellChangeScoresAtLeastOne) {
  const v1::PuzzleSpec spec = Parse(kGameId);
  auto compiler = NewLightupCompiler();
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  const std::vector<uint8_t> bits = LightsOf(kSolved);
  for (int cell = 0; cell < 49; ++cell) {
    std::vector<uint8_t> changed = bits;
    changed[cell] ^= 1;  // a light added (on white or black) or removed
    EXPECT_GE(none.full_model.Energy(changed), 1.0) << "cell " << cell;
    if (full.variables.source(cell).reduced >= 0) {
      EXPECT_GE(full.model.Energy(full.variables.Restrict(changed)), 1.0)
          << "cell " << cell;
    }
    auto report =
        compiler->Validate(spec, compiler->Decode(spec, none, changed));
    ASSERT_OK(report);
    EXPECT_FALSE(report->valid()) << "cell " << cell;
  }
}

// Each rule broken alone, on the solved 7x7 board or a small one: the energy
// and the validator's rule.
TEST(LightupCompilerTest, AnUnlitCellCostsOneEach) {
  const v1::PuzzleSpec spec = Parse(kGameId);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  // The light at (3,5) removed: it alone lit its own cell; no number is
  // next to it.
  const std::string board =
      ".L2.0.L/..L..../#.....0/L....../1....L2/......L/L.1L#..";
  EXPECT_EQ(Energy(problem, board), 1.0);
  EXPECT_THAT(Validate(spec, board), ElementsAre("unlit_cell@cell (3,5)"));
  // One light in the middle of a 3x5 board lights its row and column and
  // leaves 8 cells dark: 8.
  const v1::PuzzleSpec open = LightupSpecOf(LightupGameOf("...../...../....."));
  const CompiledProblem open_problem = CompileOrDie(open, v1::REDUCTION_NONE);
  EXPECT_EQ(Energy(open_problem, "...../..L../....."), 8.0);
  EXPECT_EQ(Validate(open, "...../..L../.....").size(), 8u);
}

TEST(LightupCompilerTest, LightsThatSeeEachOtherCostEnergy) {
  const v1::PuzzleSpec spec = Parse(kGameId);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  // A second light at (4,4) in row 4 (with (4,1)) and column 4 (with
  // (6,4)); no number is next to it.
  const std::string board =
      ".L2.0.L/..L..../#...L.0/L..L.../1....L2/......L/L.1L#..";
  EXPECT_GE(Energy(problem, board), 1.0);
  EXPECT_THAT(Validate(spec, board),
              ElementsAre("lights_see_each_other@cells (4,1) and (4,4)",
                          "lights_see_each_other@cells (4,4) and (7,4)"));
}

TEST(LightupCompilerTest, AWrongNumberCostsItsSquaredMiss) {
  // A light at (2,2) lights every white cell, but the 1 has no light beside
  // it.
  const v1::PuzzleSpec spec = LightupSpecOf(LightupGameOf("1./.."));
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  EXPECT_EQ(Energy(problem, "1./.L"), 1.0);
  EXPECT_THAT(Validate(spec, "1./.L"),
              ElementsAre("number_mismatch@cell (1,1)"));
  // Two lights beside it, one too many.
  EXPECT_THAT(Validate(spec, "1L/L."),
              ElementsAre("number_mismatch@cell (1,1)"));
  EXPECT_EQ(Energy(problem, "1L/L."), 1.0);
}

TEST(LightupCompilerTest, ALightOnABlackCellCostsOne) {
  const v1::PuzzleSpec spec = Parse(kGameId);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  const std::string board =
      ".L2.0.L/..L..../*...L.0/L....../1....L2/......L/L.1L#..";
  EXPECT_EQ(Energy(problem, board), 1.0);
  EXPECT_THAT(Validate(spec, board), ElementsAre("light_on_black@cell (3,1)"));
  // The reduction fixes black cells, so no reduced model can hold it.
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.variables.source(14).reduced, -1);
}

TEST(LightupCompilerTest, ValidatorNamesBlackCellsTheBoardChanged) {
  const v1::PuzzleSpec spec = Parse(kGameId);
  // (1,1) drawn black, the 2 at (1,3) drawn as a 3 and the 0 at (1,5) as '#'.
  EXPECT_THAT(
      Validate(spec,
               "#L3.#.L/..L..../#...L.0/L....../1....L2/......L/"
               "L.1L#.."),
      ElementsAre("black_mismatch@cell (1,1)", "black_mismatch@cell (1,3)",
                  "black_mismatch@cell (1,5)"));
}

// The bound of docs/lightup.md §2 is tight: on a line of m white cells with
// lights at both ends, the segment term (m - 1) outweighs the m - 2 cells
// between them, each lit twice along the line and scoring -1, by exactly 1.
// A segment weight of m - 2 would give a board without a valid light layout
// the ground energy.
TEST(LightupCompilerTest, SegmentWeightBeatsTheCellsLitTwiceByOne) {
  for (int m = 2; m <= 12; ++m) {
    SCOPED_TRACE(m);
    const std::string line(m, '.');
    const CompiledProblem problem =
        CompileOrDie(LightupSpecOf(LightupGameOf(line)), v1::REDUCTION_NONE);
    std::string ends = line;
    ends.front() = ends.back() = 'L';
    EXPECT_EQ(Energy(problem, ends), 1.0);
    EXPECT_EQ(Energy(problem, "L" + line.substr(1)), 0.0);
  }
}

// Small boards, every assignment of the full model (black cells included):
// energy 0 exactly on the oracle's valid boards, at least 1 elsewhere; the
// exact rules count the same boards; the reduced model's ground states are
// those boards; and every exactly-one group holds one light on each.
void CheckExhaustively(const std::string& grid) {
  SCOPED_TRACE(grid);
  const LightupGame game = LightupGameOf(grid);
  const v1::PuzzleSpec spec = LightupSpecOf(game);
  if (!CheckLightupSpec(spec.lightup()).ok()) return;  // a number too large
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  const int n = game.size();
  ASSERT_LE(n, 20);
  std::set<std::vector<uint8_t>> valid;
  int violations = 0;
  for (uint64_t bits = 0; bits < (uint64_t{1} << n); ++bits) {
    const std::vector<uint8_t> x = testing::BitsOf(bits, n);
    const double energy = none.full_model.Energy(x);
    if (OracleValid(game, x)) {
      valid.insert(x);
      violations += energy != 0.0;
    } else {
      violations += energy < 1.0;
    }
  }
  EXPECT_EQ(violations, 0);
  const auto listed = OracleSolutions(game);
  EXPECT_EQ(valid,
            std::set<std::vector<uint8_t>>(listed.begin(), listed.end()));
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  for (CountMethod method : {CountMethod::kSat, CountMethod::kBdd}) {
    auto count = CountRuleSolutions(**encoder, spec, n, 1000, method, nullptr);
    ASSERT_OK(count);
    EXPECT_TRUE(count->complete);
    EXPECT_EQ(count->count, valid.size());
  }
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  for (const std::vector<uint8_t>& board : valid) {
    EXPECT_TRUE(full.variables.IsConsistent(board));
    const std::vector<uint8_t> reduced = full.variables.Restrict(board);
    for (const auto& group : full.one_hot_groups) {
      int ones = 0;
      for (int32_t v : group) ones += reduced[v];
      EXPECT_EQ(ones, 1);
    }
    for (const auto& group : none.one_hot_groups) {
      int ones = 0;
      for (int32_t v : group) ones += board[v];
      EXPECT_EQ(ones, 1);
    }
  }
  if (valid.empty() || full.model.num_variables() == 0) return;
  auto ground = FindGroundStates(full.model, 1 << 16, nullptr);
  ASSERT_OK(ground);
  EXPECT_EQ(ground->energy, 0.0);
  std::set<std::vector<uint8_t>> ground_boards;
  for (const auto& state : ground->states)
    ground_boards.insert(full.variables.Expand(state));
  EXPECT_EQ(ground_boards, valid);
}

TEST(LightupCompilerTest, ExhaustiveOnHandMadeBoards) {
  for (const char* grid :
       {"......", "..../..../..../....", ".1#/...", ".1./#..",
        "...../.4.../.....", "0.../.#../..2./....", "..#../.1.../...#./2....",
        "...../...../.....", ".#./#.#/.#.", "1./..", "2.1/.../1.2",
        "..../.##./.##./...."}) {
    CheckExhaustively(grid);
  }
}

TEST(LightupCompilerTest, ExhaustiveOnRandomBoards) {
  std::mt19937 rng(20261129);
  for (int k = 0; k < 24; ++k) {
    const int rows = 3 + k % 2, cols = 4 + (k / 2) % 2;
    std::string grid;
    for (int r = 0; r < rows; ++r) {
      if (r > 0) grid.push_back('/');
      for (int c = 0; c < cols; ++c) {
        const int draw = static_cast<int>(rng() % 10);
        grid.push_back(draw < 7 ? '.' : draw == 7 ? '#' : "0123"[rng() % 4]);
      }
    }
    CheckExhaustively(grid);
  }
}

TEST(LightupReductionTest, AFourLightsItsNeighboursAndDarkensTheCorners) {
  const CompiledProblem problem = CompileOrDie(
      LightupSpecOf(LightupGameOf(".../.4./...")), v1::REDUCTION_FULL);
  std::vector<std::string> names;
  for (const ReductionStage& s : problem.stages) names.push_back(s.name);
  EXPECT_THAT(names,
              ElementsAre("model", "blacks", "zero_clues", "full_clues",
                          "lit_lines#1", "lone_lighters#1", "numbers#1"));
  EXPECT_EQ(problem.stages[1].fixed_zero, 1);
  EXPECT_EQ(problem.stages[3].fixed_one, 4);
  EXPECT_EQ(problem.stages[4].fixed_zero, 4);
  EXPECT_EQ(problem.model.num_variables(), 0);
  for (int cell : {1, 3, 5, 7}) {
    EXPECT_EQ(problem.variables.source(cell).reduced, -1);
    EXPECT_EQ(problem.variables.source(cell).value, 1);
  }
  EXPECT_TRUE(problem.one_hot_groups.empty());
}

TEST(LightupReductionTest, ZeroCluesDarkenTheirNeighbours) {
  const CompiledProblem problem = CompileOrDie(
      LightupSpecOf(LightupGameOf("..../.0../....")), v1::REDUCTION_FULL);
  ASSERT_GE(problem.stages.size(), 3u);
  EXPECT_EQ(problem.stages[2].name, "zero_clues");
  EXPECT_EQ(problem.stages[2].fixed_zero, 4);
  for (int cell : {1, 4, 6, 9})
    EXPECT_EQ(problem.variables.source(cell).reduced, -1);
}

TEST(LightupReductionTest, RoundsRunToAFixedPoint) {
  // (1,1) can only be lit by itself; the 1 then darkens (1,3) and (2,2),
  // which leaves (2,3) as the only light for (1,3).
  const CompiledProblem problem =
      CompileOrDie(LightupSpecOf(LightupGameOf(".1./#..")), v1::REDUCTION_FULL);
  std::vector<std::string> names;
  for (const ReductionStage& s : problem.stages) names.push_back(s.name);
  EXPECT_THAT(names,
              ElementsAre("model", "blacks", "zero_clues", "full_clues",
                          "lit_lines#1", "lone_lighters#1", "numbers#1",
                          "lit_lines#2", "lone_lighters#2", "numbers#2"));
  EXPECT_EQ(problem.stages[5].fixed_one, 1);
  EXPECT_EQ(problem.stages[6].fixed_zero, 2);
  EXPECT_EQ(problem.stages[8].fixed_one, 1);
  EXPECT_EQ(problem.model.num_variables(), 0);
  const std::vector<uint8_t> board =
      problem.variables.Expand(std::vector<uint8_t>{});
  EXPECT_EQ(board, (std::vector<uint8_t>{1, 0, 0, 0, 0, 1}));
  // REDUCTION_CLUES stops after the black cells.
  const CompiledProblem clues = CompileOrDie(
      LightupSpecOf(LightupGameOf(".1./#..")), v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.stages.size(), 2u);
  EXPECT_EQ(clues.model.num_variables(), 4);
}

TEST(LightupReductionTest, ExactlyOneGroupsOfSegmentsAndNumbers) {
  // Row 2 must light (2,3), whose column holds no other cell; (1,1)'s row
  // holds only itself, so column 1 must light it; the 1 takes one of (1,1)
  // and (2,2). Nothing is fixed beyond the black cells.
  const CompiledProblem problem =
      CompileOrDie(LightupSpecOf(LightupGameOf(".1#/...")), v1::REDUCTION_FULL);
  EXPECT_EQ(problem.model.num_variables(), 4);
  auto r = [&](int cell) { return problem.variables.source(cell).reduced; };
  std::set<std::vector<int32_t>> groups(problem.one_hot_groups.begin(),
                                        problem.one_hot_groups.end());
  std::set<std::vector<int32_t>> expected;
  for (std::vector<int32_t> group : std::vector<std::vector<int32_t>>{
           {r(0), r(3)}, {r(0), r(4)}, {r(3), r(4), r(5)}}) {
    std::sort(group.begin(), group.end());
    expected.insert(group);
  }
  EXPECT_EQ(groups, expected);
}

TEST(LightupReductionTest, AContradictionStopsTheRounds) {
  // (1,1) can only be lit by itself, but the 0 beside it darkens it.
  const CompiledProblem problem =
      CompileOrDie(LightupSpecOf(LightupGameOf(".0/#.")), v1::REDUCTION_FULL);
  EXPECT_EQ(problem.stages.back().name, "lone_lighters#1");
  EXPECT_EQ(*problem.ground_energy, 0.0);
  // Everything is fixed, and the one board left is no valid board.
  ASSERT_EQ(problem.model.num_variables(), 0);
  EXPECT_GE(problem.full_model.Energy(
                problem.variables.Expand(std::vector<uint8_t>{})),
            1.0);
}

TEST(LightupCompilerTest, RejectsBadInputNamingTheField) {
  auto compiler = NewLightupCompiler();
  const v1::CompileOptions options;
  const v1::PuzzleSpec good = Parse(kGameId);
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
  spec.mutable_lightup()->set_rows(0);
  expect_error(spec, "lightup.rows: must be 1..100, got 0");
  spec = good;
  spec.mutable_lightup()->set_cols(101);
  expect_error(spec, "lightup.cols");
  spec = good;
  spec.mutable_lightup()->mutable_blacks(1)->set_cell(49);
  expect_error(spec, "lightup.blacks[1].cell: 49 out of range 0..48");
  spec = good;
  spec.mutable_lightup()->mutable_blacks(1)->set_cell(2);
  expect_error(spec, "lightup.blacks[1].cell: 2 (1,3) listed twice");
  spec = good;
  spec.mutable_lightup()->mutable_blacks(0)->set_lights(5);
  expect_error(spec, "lightup.blacks[0].lights: 5 > 4");
  spec = good;
  spec.mutable_lightup()->mutable_blacks(0)->set_lights(4);
  expect_error(spec,
               "lightup.blacks[0].lights: 4 lights do not fit on the 3 white "
               "side neighbours of (1,3)");
  v1::PuzzleSolution short_board;
  short_board.add_cells(0);
  EXPECT_THAT(compiler->Validate(good, short_board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells: expected 49")));
  v1::PuzzleSolution bad_value;
  for (int k = 0; k < 49; ++k) bad_value.add_cells(k == 3 ? 2 : 0);
  EXPECT_THAT(compiler->Validate(good, bad_value),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[3]: value 2 out of range")));
  EXPECT_THAT(compiler->Validate(good, RowsBoard(".L2.0.L/..L..../#...L.0/"
                                                 "L....X./1....L2/......L/"
                                                 "L.1L#..")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.rows[3][5]")));
}

TEST(LightupCompilerTest, CouplerBoundIsALowerBound) {
  auto compiler = NewLightupCompiler();
  // All white 7x7: 14 segments of 21 pairs and 49 cells of 36 cross pairs,
  // each pair from two corners; exact.
  const v1::PuzzleSpec open = LightupSpecOf(
      LightupGameOf("......./......./......./......./......./......./......."));
  EXPECT_EQ(compiler->ModelCouplersAtLeast(open), 14 * 21 + 49 * 36 / 2);
  EXPECT_EQ(CompileOrDie(open, v1::REDUCTION_NONE).full_model.num_couplers(),
            14 * 21 + 49 * 36 / 2);
  for (const v1::PuzzleSpec& spec :
       {LightupSpecOf(LightupGameOf("1.#./..../.#.2/....")),
        LightupSpecOf(LightupGameOf(".")), Parse(kGameId)}) {
    EXPECT_LE(compiler->ModelCouplersAtLeast(spec),
              CompileOrDie(spec, v1::REDUCTION_NONE).full_model.num_couplers());
  }
}

TEST(LightupCompilerTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("lightup");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kLightup);
  EXPECT_EQ((*compiler)->ModelVariables(Parse(kGameId)), 49);
  const FamilyInfo* family = BuiltinFamilies().Find("lightup");
  ASSERT_NE(family, nullptr);
  EXPECT_THAT(family->text_kinds, ElementsAre("lightup"));
  EXPECT_NE(family->rules, nullptr);
  EXPECT_EQ(family->generators.size(), 1u);
}

}  // namespace
}  // namespace qs
