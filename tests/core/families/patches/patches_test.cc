// Tests of the Patches exact cover ([Lucas 2014] §4.1): a known tiling scores
// the ground energy 0 in every reduction and every single change scores
// higher; the reductions keep the known tiling and report their stages; an
// infeasible puzzle and bad input are refused naming the field; the validator
// names each broken rule; the rules count tilings (a generated level has one,
// an ambiguous one two) and the generator's levels are unique.
#include "core/families/patches/patches.h"

#include <set>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

// A 4x4 level and its only tiling:
//   a a b b      clue a at (1,1): square of 4; b at (2,4): square of 4;
//   a a b b      c at (3,2): wide of 3; d at (4,1): wide of 3;
//   c c c e      e at (4,4): tall of 2.
//   d d d e
constexpr char kLevel[] = "s4 . . . / . . . s4 / . w3 . . / w3 . . t2";
constexpr char kTiling[] = "aabb/aabb/ccce/ddde";

v1::PuzzleSpec Parse(const char* text) {
  auto spec = formats::ParsePuzzleText("patches", text);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

v1::PuzzleSolution Board(const v1::PuzzleSpec& spec, const char* rows) {
  auto board = formats::ParseBoardText("patches", spec, rows);
  EXPECT_TRUE(board.ok()) << board.status();
  return *board;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewPatchesCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations())
    rules.push_back(v.rule() + "@" + v.location());
  return rules;
}

TEST(PatchesCompilerTest, ModelHasOneVariablePerCandidateAndStages) {
  const v1::PuzzleSpec spec = Parse(kLevel);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  // Squares of 4 holding (1,1): 1, holding (2,4): 2; wide 1x3 holding (3,2):
  // 2; holding (4,1): 1; tall 2x1 holding (4,4): 1.
  EXPECT_EQ(problem.full_model.num_variables(), 7);
  EXPECT_EQ(NewPatchesCompiler()->ModelVariables(spec), 7);
  EXPECT_EQ(problem.ground_energy, 0.0);
  ASSERT_EQ(problem.stages.size(), 3u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "other_clues");
  EXPECT_EQ(problem.stages[2].name, "forced");
  // No candidate holds a second clue. Clues a, d and e have one candidate
  // each; e's (column 4, rows 3..4) drops the overlapping square of b (rows
  // 2..3) and wide of c (columns 2..4), which leaves one for b and c too.
  EXPECT_EQ(problem.stages[1].fixed_zero, 0);
  EXPECT_EQ(problem.stages[2].fixed_one, 5);
  EXPECT_EQ(problem.stages[2].fixed_zero, 2);
  EXPECT_EQ(problem.model.num_variables(), 0);
  EXPECT_EQ(problem.full_model.labels()[0], "p1r1c1_2x2");
}

TEST(PatchesCompilerTest, KnownTilingScoresTheGroundEnergyInEveryModel) {
  const v1::PuzzleSpec spec = Parse(kLevel);
  auto compiler = NewPatchesCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem, Board(spec, kTiling));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), 0.0);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
    const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
    EXPECT_THAT(decoded.rows(), ElementsAre("aabb", "aabb", "ccce", "ddde"));
    EXPECT_EQ(decoded.cells(11), 4);
    auto report = compiler->Validate(spec, decoded);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << ::testing::PrintToString(RulesOf(*report));
  }
}

// A level where the clues leave room: every single change of the tiling
// (a patch dropped, a second one for a clue, an overlap, a patch holding
// another clue) breaks a penalty.
TEST(PatchesCompilerTest, EverySingleChangeScoresHigher) {
  const v1::PuzzleSpec spec = Parse("a . . / . . . / . . a");
  auto compiler = NewPatchesCompiler();
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto bits = compiler->Encode(spec, none, Board(spec, "aab/aab/aab"));
  ASSERT_OK(bits);
  EXPECT_EQ(none.full_model.Energy(*bits), 0.0);
  ASSERT_EQ(bits->size(), 18u);  // 9 rectangles hold each corner
  for (size_t v = 0; v < bits->size(); ++v) {
    std::vector<uint8_t> changed = *bits;
    changed[v] ^= 1;
    EXPECT_GT(none.full_model.Energy(changed), 0.0)
        << none.full_model.labels()[v];
  }
  // Clue a's 3x3, which holds clue b, beside b's own 1x1: cell (3,3) is
  // covered twice.
  const std::vector<PatchRect> candidates =
      PatchCandidates(*CheckPatches(spec.patches()));
  std::vector<uint8_t> holding(bits->size(), 0);
  for (size_t v = 0; v < candidates.size(); ++v) {
    const PatchRect& p = candidates[v];
    if ((p.clue == 0 && p.area() == 9) || (p.clue == 1 && p.area() == 1))
      holding[v] = 1;
  }
  EXPECT_EQ(none.full_model.Energy(holding), 1.0);
}

// The model is H = sum over clues and cells of (sum - 1)^2, on any
// assignment, not only near a tiling.
TEST(PatchesCompilerTest, ModelIsTheSumOfTheSquaredCounts) {
  const v1::PuzzleSpec spec = Parse("a . t . / . . . w3 / s . . . / . a4 . .");
  const PatchesBoard board = *CheckPatches(spec.patches());
  const std::vector<PatchRect> candidates = PatchCandidates(board);
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  ASSERT_EQ(none.full_model.num_variables(),
            static_cast<int>(candidates.size()));
  Xoshiro256 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> bits(candidates.size());
    for (uint8_t& bit : bits) bit = rng.NextBelow(8) == 0;
    std::vector<int> per_clue(board.clues.size(), 0), per_cell(board.size(), 0);
    for (size_t v = 0; v < candidates.size(); ++v) {
      if (!bits[v]) continue;
      const PatchRect& p = candidates[v];
      ++per_clue[p.clue];
      for (int r = p.row; r < p.row + p.height; ++r) {
        for (int c = p.col; c < p.col + p.width; ++c)
          ++per_cell[r * board.cols + c];
      }
    }
    double h = 0;
    for (int k : per_clue) h += (k - 1) * (k - 1);
    for (int k : per_cell) h += (k - 1) * (k - 1);
    EXPECT_EQ(none.full_model.Energy(bits), h);
  }
}

// Sizes known before building: the variables exactly, the couplers from
// below, so that the server refuses a grid of clues showing nothing before
// building thousands of candidates each.
TEST(PatchesCompilerTest, SizesAreKnownBeforeBuilding) {
  auto compiler = NewPatchesCompiler();
  for (const char* text : {kLevel, "a . t . / . . . w3 / s . . . / . a4 . ."}) {
    const v1::PuzzleSpec spec = Parse(text);
    const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
    EXPECT_EQ(compiler->ModelVariables(spec), none.full_model.num_variables());
    EXPECT_LE(compiler->ModelCouplersAtLeast(spec),
              none.full_model.num_couplers());
    EXPECT_GT(compiler->ModelCouplersAtLeast(spec), 0);
  }
  v1::SolveRequest request;
  v1::PatchesPuzzle& big = *request.mutable_puzzle()->mutable_patches();
  big.set_rows(20);
  big.set_cols(20);
  big.add_clues()->set_cell(10 * 20 + 10);  // 10 x 11 x 10 x 11 rectangles
  big.add_clues()->set_cell(0);
  BackendRegistry backends;
  SolveEngine engine(&BuiltinCompilers(), &backends, SolveLimits());
  EXPECT_THAT(
      engine.CheckSolveRequest(request),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("couplers")));
}

TEST(PatchesCompilerTest, ReductionsKeepTheTilingOfGeneratedLevels) {
  WorkerPool pool(1);
  BackendRegistry backends;
  BackendOptions backend_options;
  backend_options.pool = &pool;
  ASSERT_OK(RegisterBuiltinBackends(backends, backend_options));
  SolveEngine engine(&BuiltinCompilers(), &backends, SolveLimits());
  v1::GenerateRequest request;
  request.set_family("patches");
  request.set_rows(6);
  request.set_count(8);
  request.set_seed(5);
  Interrupter interrupter;
  std::vector<v1::GeneratedPuzzle> made;
  ASSERT_OK(engine.Generate(request, interrupter, [&](v1::GeneratedPuzzle&& p) {
    made.push_back(std::move(p));
  }));
  ASSERT_EQ(made.size(), 8u);
  auto compiler = NewPatchesCompiler();
  for (const v1::GeneratedPuzzle& p : made) {
    SCOPED_TRACE(*formats::FormatPuzzleText("patches", p.puzzle()));
    for (v1::Reduction reduction : {v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
      const CompiledProblem problem = CompileOrDie(p.puzzle(), reduction);
      auto bits = compiler->Encode(p.puzzle(), problem, p.solution());
      ASSERT_OK(bits);
      EXPECT_TRUE(problem.variables.IsConsistent(*bits));
      EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
      EXPECT_LT(problem.model.num_variables(),
                problem.full_model.num_variables());
    }
  }
}

TEST(PatchesCompilerTest, InfeasiblePuzzlesAreRefusedNamingWhy) {
  auto compiler = NewPatchesCompiler();
  // No wide of 2 holding (1,1) leaves room for the tall of 2 in column 1.
  EXPECT_THAT(
      compiler->Compile(Parse("w2 . / t2 ."), {}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("infeasible")));
  // Only the clue's own cell lies in a candidate.
  EXPECT_THAT(compiler->Compile(Parse("a1 . . / . . ."), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("patches.clues: infeasible: no rectangle of "
                                 "any clue can cover cell (1,2)")));
  // Without the reduction, the model has no board of energy 0 (no error).
  v1::CompileOptions none;
  none.set_reduction(v1::REDUCTION_NONE);
  EXPECT_OK(compiler->Compile(Parse("a1 . . / . . ."), none));
}

TEST(PatchesCompilerTest, RejectsBadInputNamingTheField) {
  auto compiler = NewPatchesCompiler();
  const v1::PuzzleSpec good = Parse(kLevel);
  ASSERT_OK(compiler->Compile(good, {}));
  auto expect_error = [&](const v1::PuzzleSpec& spec,
                          const std::string& message) {
    EXPECT_THAT(
        compiler->Compile(spec, {}),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
    EXPECT_THAT(
        compiler->Validate(spec, Board(good, kTiling)),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
  };
  v1::PuzzleSpec spec = good;
  spec.mutable_patches()->set_rows(0);
  expect_error(spec, "patches.rows: must be 1..20, got 0");
  spec = good;
  spec.mutable_patches()->set_cols(21);
  expect_error(spec, "patches.cols: must be 1..20, got 21");
  spec = good;
  spec.mutable_patches()->clear_clues();
  expect_error(spec, "patches.clues: at least one clue");
  spec = good;
  spec.mutable_patches()->mutable_clues(2)->set_cell(16);
  expect_error(spec, "patches.clues[2].cell: 16 out of range 0..15");
  spec = good;
  spec.mutable_patches()->mutable_clues(2)->set_cell(7);
  expect_error(spec,
               "patches.clues[2].cell: cell 7 (2,4) already holds "
               "clue 2");
  spec = good;
  spec.mutable_patches()->mutable_clues(2)->set_area(17);
  expect_error(spec, "patches.clues[2].area: 17 is more than the 16 cells");
  spec = good;
  spec.mutable_patches()->mutable_clues(0)->set_area(6);
  expect_error(spec,
               "patches.clues[0].area: no square rectangle of 6 cells "
               "fits the 4x4 grid (a square needs a square area)");
  spec = good;
  spec.mutable_patches()->mutable_clues(4)->set_area(1);
  expect_error(spec, "patches.clues[4].area: no tall rectangle of 1 cells");
  spec = good;
  spec.mutable_patches()->mutable_clues(3)->set_area(5);
  expect_error(spec, "patches.clues[3].area: no wide rectangle of 5 cells");
  spec = good;
  spec.mutable_patches()->mutable_clues(1)->set_shape(v1::PATCH_SHAPE_ANY);
  spec.mutable_patches()->mutable_clues(1)->set_area(7);
  expect_error(spec, "patches.clues[1].area: no rectangle of 7 cells fits");
  spec = good;
  spec.mutable_patches()->mutable_clues(1)->set_shape(
      static_cast<v1::PatchShape>(9));
  expect_error(spec, "patches.clues[1].shape: unknown value 9");
  // Boards of the wrong shape or with values that name no clue.
  v1::PuzzleSolution short_board;
  short_board.add_cells(0);
  EXPECT_THAT(compiler->Validate(good, short_board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells: expected 16 values")));
  v1::PuzzleSolution bad_value = Board(good, kTiling);
  bad_value.set_cells(3, 5);
  EXPECT_THAT(compiler->Validate(good, bad_value),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[3]: value 5 out of range")));
  v1::PuzzleSolution rows_only;
  for (const char* row : {"aabb", "aabb", "ccce", "ddd?"})
    rows_only.add_rows(row);
  EXPECT_THAT(compiler->Validate(good, rows_only),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.rows[3][3]")));
}

TEST(PatchesCompilerTest, ValidatorNamesEachBrokenRule) {
  const v1::PuzzleSpec spec = Parse(kLevel);
  auto compiler = NewPatchesCompiler();
  auto rules = [&](const char* rows) {
    auto report = compiler->Validate(spec, Board(spec, rows));
    EXPECT_TRUE(report.ok()) << report.status();
    EXPECT_FALSE(report->valid());
    return RulesOf(*report);
  };
  EXPECT_THAT(rules("aabb/aabb/ccc./ddde"),
              ElementsAre("cell_uncovered@cell (3,4)", "shape@clue 5 at (4,4)",
                          "area@clue 5 at (4,4)"));
  EXPECT_THAT(rules("aabb/aa*b/ccce/ddde"),
              UnorderedElementsAre("cell_overlap@cell (2,3)",
                                   "not_rectangle@clue 2 at (2,4)",
                                   "area@clue 2 at (2,4)"));
  // Clue c's patch holds clue d, whose cell is then outside its own.
  EXPECT_THAT(
      rules("aabb/aabb/ccce/ccce"),
      UnorderedElementsAre("clue_count@clue 3 at (3,2)", "area@clue 3 at (3,2)",
                           "clue_count@clue 4 at (4,1)"));
  EXPECT_THAT(rules("aabb/aabb/ccce/dded"),
              UnorderedElementsAre("clue_count@clue 4 at (4,1)",
                                   "not_rectangle@clue 4 at (4,1)",
                                   "clue_count@clue 5 at (4,4)",
                                   "not_rectangle@clue 5 at (4,4)"));
  // The shape alone: a square where a tall patch is asked.
  const v1::PuzzleSpec tall = Parse("t . / . .");
  auto report = compiler->Validate(tall, Board(tall, "aa/aa"));
  ASSERT_OK(report);
  EXPECT_THAT(RulesOf(*report), ElementsAre("shape@clue 1 at (1,1)"));
}

TEST(PatchesRulesTest, CountsTilings) {
  auto encoder = BuiltinEncoders().ForSpec(Parse(kLevel));
  ASSERT_OK(encoder);
  auto count = [&](const v1::PuzzleSpec& spec, CountMethod method) {
    auto result = CountRuleSolutions(
        **encoder, spec,
        static_cast<int>(NewPatchesCompiler()->ModelVariables(spec)), 10,
        method, nullptr);
    EXPECT_TRUE(result.ok()) << result.status();
    EXPECT_TRUE(result->complete);
    return result->count;
  };
  for (CountMethod method : {CountMethod::kSat, CountMethod::kBdd}) {
    EXPECT_EQ(count(Parse(kLevel), method), 1u);
    // Two rows or two columns.
    EXPECT_EQ(count(Parse("a2 . / . a2"), method), 2u);
    // Clue a's patch takes whole rows or whole columns (see below).
    EXPECT_EQ(count(Parse("a . . / . . . / . . a"), method), 4u);
    // A square of 9 cannot leave room for the other clue.
    EXPECT_EQ(count(Parse("s9 . . / . . . / . . a"), method), 0u);
  }
}

TEST(PatchesRulesTest, SatBoardsAreValidTilings) {
  const v1::PuzzleSpec spec = Parse("a . . / . . . / . . a");
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  auto compiler = NewPatchesCompiler();
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  int boards = 0;
  auto solved = SolveRules(**encoder, spec, problem.full_model.num_variables(),
                           100, [&](std::vector<uint8_t> bits) {
                             ++boards;
                             EXPECT_EQ(problem.full_model.Energy(bits), 0.0);
                             auto report = compiler->Validate(
                                 spec, compiler->Decode(spec, problem, bits));
                             ASSERT_OK(report);
                             EXPECT_TRUE(report->valid());
                           });
  ASSERT_OK(solved);
  // Clue b's patch is the rest of the grid, a rectangle only when a's spans
  // whole rows or whole columns: 1x3, 2x3, 3x1 or 3x2.
  EXPECT_EQ(boards, 4);
}

// The QUBO's ground states are the rules' solutions: every assignment of the
// 18 candidates of a 3x3 level, enumerated.
TEST(PatchesRulesTest, GroundStatesAreTheRulesSolutions) {
  const v1::PuzzleSpec spec = Parse("a . . / . . . / . . a");
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  const int n = problem.full_model.num_variables();
  ASSERT_EQ(n, 18);
  std::set<std::vector<uint8_t>> ground, solutions;
  std::vector<uint8_t> bits(n);
  for (uint32_t state = 0; state < (1u << n); ++state) {
    for (int v = 0; v < n; ++v) bits[v] = (state >> v) & 1;
    const double energy = problem.full_model.Energy(bits);
    EXPECT_GE(energy, 0.0);
    if (energy == 0.0) ground.insert(bits);
  }
  ASSERT_OK(SolveRules(**encoder, spec, n, 100, [&](std::vector<uint8_t> s) {
    solutions.insert(std::move(s));
  }));
  EXPECT_EQ(ground.size(), 4u);
  EXPECT_EQ(ground, solutions);
}

TEST(PatchesGeneratorTest, LevelsAreUniqueAndDeterministic) {
  WorkerPool pool(1);
  BackendRegistry backends;
  BackendOptions backend_options;
  backend_options.pool = &pool;
  ASSERT_OK(RegisterBuiltinBackends(backends, backend_options));
  SolveEngine engine(&BuiltinCompilers(), &backends, SolveLimits());
  auto generate = [&](int side, uint64_t seed) {
    v1::GenerateRequest request;
    request.set_family("patches");
    request.set_rows(side);
    request.set_count(2);
    request.set_seed(seed);
    Interrupter interrupter;
    std::vector<v1::GeneratedPuzzle> made;
    EXPECT_OK(engine.Generate(
        request, interrupter,
        [&](v1::GeneratedPuzzle&& p) { made.push_back(std::move(p)); }));
    return made;
  };
  auto compiler = NewPatchesCompiler();
  for (int side = 6; side <= 8; ++side) {
    const std::vector<v1::GeneratedPuzzle> made = generate(side, 11);
    ASSERT_EQ(made.size(), 2u);
    for (const v1::GeneratedPuzzle& p : made) {
      SCOPED_TRACE(*formats::FormatPuzzleText("patches", p.puzzle()));
      EXPECT_EQ(p.puzzle().patches().rows(), static_cast<uint32_t>(side));
      EXPECT_EQ(p.puzzle().patches().cols(), static_cast<uint32_t>(side));
      EXPECT_EQ(p.puzzle_kind(), "patches");
      auto report = compiler->Validate(p.puzzle(), p.solution());
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid());
      // Most areas are shown.
      int areas = 0, shapes = 0;
      for (const v1::PatchClue& clue : p.puzzle().patches().clues()) {
        areas += clue.area() != 0;
        shapes += clue.shape() != v1::PATCH_SHAPE_ANY;
      }
      const int clues = p.puzzle().patches().clues_size();
      EXPECT_EQ(static_cast<int>(p.clues()), areas + shapes);
      EXPECT_EQ(static_cast<int>(p.clues_at_start()), 2 * clues);
      EXPECT_GT(2 * areas, clues);
      // Count, as the service runs it, proves the tiling is the only one.
      v1::CountRequest count;
      *count.mutable_puzzle() = p.puzzle();
      count.set_limit(2);
      Interrupter interrupter;
      auto counted = engine.Count(count, interrupter);
      ASSERT_OK(counted);
      EXPECT_EQ(counted->count(), 1u);
      EXPECT_TRUE(counted->complete());
      EXPECT_TRUE(counted->unique());
    }
    if (side != 6) continue;
    // Easy levels: unit propagation of the rules decides every cell.
    v1::GenerateRequest easy;
    easy.set_family("patches");
    easy.set_rows(side);
    easy.set_count(2);
    easy.set_seed(4);
    easy.set_difficulty(v1::DIFFICULTY_EASY);
    Interrupter easy_interrupter;
    int easy_made = 0;
    EXPECT_OK(
        engine.Generate(easy, easy_interrupter, [&](v1::GeneratedPuzzle&& p) {
          ++easy_made;
          EXPECT_EQ(p.propagation_decided(), 1.0);
        }));
    EXPECT_EQ(easy_made, 2);
    // The same seed gives the same levels.
    const std::vector<v1::GeneratedPuzzle> again = generate(side, 11);
    ASSERT_EQ(again.size(), 2u);
    EXPECT_EQ(again[1].puzzle().SerializeAsString(),
              made[1].puzzle().SerializeAsString());
  }
}

}  // namespace
}  // namespace qs
