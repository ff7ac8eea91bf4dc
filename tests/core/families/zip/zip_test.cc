// Tests of the Zip family: the position-encoding QUBO ([Lucas 2014] §7.1)
// scores a valid path 0 and every broken rule higher, the reduction keeps the
// known path, the validator names each rule, the rules count paths (one for a
// generated level, two where two paths fit), the ground states of small reduced
// models are exactly the valid paths, and the drawing.
#include "core/families/zip/zip.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

v1::PuzzleSpec ZipSpec(int rows, int cols, std::vector<int> waypoints,
                       std::vector<std::pair<int, int>> walls = {}) {
  v1::PuzzleSpec spec;
  v1::ZipPuzzle& zip = *spec.mutable_zip();
  zip.set_rows(rows);
  zip.set_cols(cols);
  for (int w : waypoints) zip.add_waypoints(w);
  for (const auto& [a, b] : walls) {
    v1::ZipWall& wall = *zip.add_walls();
    wall.set_a(a);
    wall.set_b(b);
  }
  return spec;
}

v1::PuzzleSolution Steps(std::vector<int> steps) {
  v1::PuzzleSolution solution;
  for (int s : steps) solution.add_cells(s);
  return solution;
}

// 3x3, the path snaking along the rows:  1 2 3 / 6 5 4 / 7 8 9.
const std::vector<int> kSnake3 = {1, 2, 3, 6, 5, 4, 7, 8, 9};

// A 5x5 level with walls and its path (steps per cell): a spiral in from the
// top left corner, with a wall across the second row that the spiral goes
// round.
//    1  2  3  4  5
//   16 17 18 19  6
//   15 24 25 20  7
//   14 23 22 21  8
//   13 12 11 10  9
const std::vector<int> kSpiral5 = {1,  2,  3,  4,  5,  16, 17, 18, 19,
                                   6,  15, 24, 25, 20, 7,  14, 23, 22,
                                   21, 8,  13, 12, 11, 10, 9};
v1::PuzzleSpec Spiral5Spec() {
  // Waypoints on steps 1, 9, 17 and 25; walls under cells 6, 7 and 16, none
  // of which the path crosses.
  return ZipSpec(5, 5, {0, 24, 6, 12}, {{6, 11}, {7, 12}, {16, 21}});
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewZipCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

std::vector<uint8_t> EncodeOrDie(const v1::PuzzleSpec& spec,
                                 const CompiledProblem& problem,
                                 const v1::PuzzleSolution& board) {
  auto bits = NewZipCompiler()->Encode(spec, problem, board);
  EXPECT_TRUE(bits.ok()) << bits.status();
  return *std::move(bits);
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations()) rules.push_back(v.rule());
  return rules;
}

TEST(ZipCompilerTest, ModelHasPositionVariablesAndTheStages) {
  const v1::PuzzleSpec spec = Spiral5Spec();
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  EXPECT_EQ(problem.full_model.num_variables(), 25 * 25);
  EXPECT_EQ(problem.ground_energy, 0.0);
  ASSERT_EQ(problem.stages.size(), 5u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "endpoints");
  // Waypoint 1 on step 1 and waypoint 4 on step 25; the other steps of those
  // cells and the other cells of those steps (x(w_1, 25) and x(w_4, 1) are
  // both).
  EXPECT_EQ(problem.stages[1].fixed_one, 2);
  EXPECT_EQ(problem.stages[1].fixed_zero, 4 * 24 - 2);
  EXPECT_EQ(problem.stages[2].name, "parity");
  EXPECT_EQ(problem.stages[3].name, "distance");
  EXPECT_EQ(problem.stages[4].name, "forced");
  EXPECT_EQ(problem.stages[4].variables, problem.model.num_variables());
  for (size_t k = 1; k < problem.stages.size(); ++k)
    EXPECT_LE(problem.stages[k].variables, problem.stages[k - 1].variables);
  // Parity halves what the endpoints leave, roughly.
  EXPECT_LT(problem.stages[2].variables, problem.stages[1].variables * 6 / 10);
  EXPECT_LE(NewZipCompiler()->ModelCouplersAtLeast(spec),
            problem.full_model.num_couplers());
}

TEST(ZipCompilerTest, KnownPathScoresTheGroundEnergyInEveryReduction) {
  const v1::PuzzleSpec spec = Spiral5Spec();
  ASSERT_TRUE(NewZipCompiler()->Validate(spec, Steps(kSpiral5))->valid());
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    const std::vector<uint8_t> bits =
        EncodeOrDie(spec, problem, Steps(kSpiral5));
    EXPECT_EQ(problem.full_model.Energy(bits), 0.0) << reduction;
    // The reductions keep the path: its bits agree with every clamped value,
    // and the reduced model scores it the same.
    EXPECT_TRUE(problem.variables.IsConsistent(bits)) << reduction;
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(bits)), 0.0);
    const v1::PuzzleSolution decoded =
        NewZipCompiler()->Decode(spec, problem, bits);
    EXPECT_THAT(
        std::vector<int>(decoded.cells().begin(), decoded.cells().end()),
        ::testing::ElementsAreArray(kSpiral5));
    EXPECT_EQ(decoded.rows(0), " 1  2  3  4  5");
  }
}

TEST(ZipCompilerTest, ReductionKeepsEveryPathOfAnOpenBoard) {
  // The snake and the column snake are the two paths from corner to corner of
  // the 3x3 grid; every reduction keeps both.
  const v1::PuzzleSpec spec = ZipSpec(3, 3, {0, 8});
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  for (const std::vector<int>& path :
       {kSnake3, std::vector<int>{1, 6, 7, 2, 5, 8, 3, 4, 9}}) {
    const std::vector<uint8_t> bits = EncodeOrDie(spec, problem, Steps(path));
    EXPECT_TRUE(problem.variables.IsConsistent(bits));
    EXPECT_EQ(problem.full_model.Energy(bits), 0.0);
  }
}

TEST(ZipCompilerTest, DistancePruningBoundsCellsByTheirDistanceToWaypoints) {
  // From corner (1,1) to corner (4,1) of a 4x4 grid.
  const v1::PuzzleSpec spec = ZipSpec(4, 4, {0, 12});
  auto board = CheckZipSpec(spec.zip());
  ASSERT_TRUE(board.ok());
  const auto domains = ZipStepDomains(*board, ZipPruning::kDistance);
  // Cell (2,2) is 2 moves from waypoint 1: step 3 at the earliest; 3 moves
  // from the end: step 13 at the latest; and of odd parity.
  const int cell = 1 * 4 + 1;
  std::vector<int> steps;
  for (int s = 1; s <= 16; ++s) {
    if (domains[cell][s - 1]) steps.push_back(s);
  }
  EXPECT_THAT(steps, ElementsAre(3, 5, 7, 9, 11, 13));
}

TEST(ZipCompilerTest, ForcedMovesSettleCornersAndDeadEnds) {
  // 2x3, from (1,1) to (2,1): the corners (1,3) and (2,3) have two neighbours
  // each, which forces the only path 1 2 3 / 6 5 4.
  auto board = CheckZipSpec(ZipSpec(2, 3, {0, 3}).zip());
  ASSERT_TRUE(board.ok());
  auto steps_of = [](const std::vector<std::vector<uint8_t>>& domains,
                     int cell) {
    std::vector<int> steps;
    for (size_t s = 1; s <= domains[cell].size(); ++s) {
      if (domains[cell][s - 1]) steps.push_back(static_cast<int>(s));
    }
    return steps;
  };
  const auto distance = ZipStepDomains(*board, ZipPruning::kDistance);
  EXPECT_THAT(steps_of(distance, 1), ElementsAre(2, 4));
  const auto forced = ZipStepDomains(*board, ZipPruning::kForced);
  const std::vector<int> path = {1, 2, 3, 6, 5, 4};
  for (int cell = 0; cell < 6; ++cell)
    EXPECT_THAT(steps_of(forced, cell), ElementsAre(path[cell])) << cell;
  // The compiler clamps them all: nothing is left to sample.
  const CompiledProblem problem =
      CompileOrDie(ZipSpec(2, 3, {0, 3}), v1::REDUCTION_FULL);
  EXPECT_EQ(problem.model.num_variables(), 0);
  int fixed_one = 0;
  for (const ReductionStage& stage : problem.stages)
    fixed_one += stage.fixed_one;
  EXPECT_EQ(fixed_one, 6);
}

TEST(ZipCompilerTest, ParityIsNotAppliedWhereNoPathFits) {
  // Corner to opposite corner of a 4x4 grid: both ends on one colour, 16
  // cells, so no path; the parity stage would empty the end's cell and is
  // left out rather than clamping contradictory values.
  auto board = CheckZipSpec(ZipSpec(4, 4, {0, 15}).zip());
  ASSERT_TRUE(board.ok());
  EXPECT_EQ(ZipStepDomains(*board, ZipPruning::kParity),
            ZipStepDomains(*board, ZipPruning::kEndpoints));
}

TEST(ZipCompilerTest, EveryBrokenRuleScoresHigher) {
  const v1::PuzzleSpec spec = ZipSpec(3, 3, {0, 4, 8});
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto energy = [&](const std::vector<int>& steps) {
    return problem.full_model.Energy(EncodeOrDie(spec, problem, Steps(steps)));
  };
  EXPECT_EQ(energy(kSnake3), 0.0);
  // A cell left out (and step 5 unused).
  EXPECT_GE(energy({1, 2, 3, 6, 0, 4, 7, 8, 9}), 1.0);
  // Two cells on one step.
  EXPECT_GE(energy({1, 2, 3, 6, 6, 4, 7, 8, 9}), 1.0);
  // A jump between cells that are not neighbours (steps 2 -> 3).
  EXPECT_GE(energy({1, 2, 6, 3, 5, 4, 7, 8, 9}), 1.0);
  // The path reversed: starts on the last waypoint and ends on the first.
  EXPECT_GE(energy({9, 8, 7, 4, 5, 6, 3, 2, 1}), 1.0);
  // Waypoints out of order: waypoint 3 (step 5) before waypoint 2 (step 6).
  const v1::PuzzleSpec unordered = ZipSpec(3, 3, {0, 3, 4, 8});
  const CompiledProblem u = CompileOrDie(unordered, v1::REDUCTION_NONE);
  EXPECT_EQ(u.full_model.Energy(EncodeOrDie(unordered, u, Steps(kSnake3))),
            1.0);
  // A wall on the path: the move across it costs its weight, 2.
  const v1::PuzzleSpec walled = ZipSpec(3, 3, {0, 8}, {{1, 2}});
  const CompiledProblem w = CompileOrDie(walled, v1::REDUCTION_NONE);
  EXPECT_EQ(w.full_model.Energy(EncodeOrDie(walled, w, Steps(kSnake3))), 2.0);
}

TEST(ZipValidatorTest, NamesEachBrokenRule) {
  auto zip = NewZipCompiler();
  const v1::PuzzleSpec spec = ZipSpec(3, 3, {0, 4, 8});
  auto rules = [&](const v1::PuzzleSpec& s, const std::vector<int>& steps) {
    auto report = zip->Validate(s, Steps(steps));
    EXPECT_TRUE(report.ok()) << report.status();
    EXPECT_EQ(report->valid(), report->violations_size() == 0);
    return RulesOf(*report);
  };
  EXPECT_THAT(rules(spec, kSnake3), ::testing::IsEmpty());
  EXPECT_THAT(rules(spec, {1, 2, 3, 6, 0, 4, 7, 8, 9}),
              ElementsAre("cell_unvisited"));
  EXPECT_THAT(rules(spec, {1, 2, 3, 6, -1, 4, 7, 8, 9}),
              ElementsAre("cell_revisited"));
  EXPECT_THAT(rules(spec, {1, 2, 3, 6, 6, 4, 7, 8, 9}),
              ElementsAre("step_repeated"));
  EXPECT_THAT(
      rules(spec, {1, 2, 6, 3, 5, 4, 7, 8, 9}),
      ElementsAre("path_break", "path_break", "path_break", "path_break"));
  EXPECT_THAT(rules(ZipSpec(3, 3, {0, 8}, {{2, 1}}), kSnake3),
              ElementsAre("wall_crossed"));
  EXPECT_THAT(rules(spec, {9, 8, 7, 4, 5, 6, 3, 2, 1}),
              ElementsAre("start", "end", "waypoint_order", "waypoint_order"));
  EXPECT_THAT(rules(ZipSpec(3, 3, {0, 3, 4, 8}), kSnake3),
              ElementsAre("waypoint_order"));
  auto report = zip->Validate(ZipSpec(3, 3, {0, 3, 4, 8}), Steps(kSnake3));
  EXPECT_EQ(report->violations(0).location(), "waypoints 2 and 3");
}

TEST(ZipValidatorTest, ReadsStepsFromRowsAndRefusesBadBoards) {
  auto zip = NewZipCompiler();
  const v1::PuzzleSpec spec = ZipSpec(3, 3, {0, 4, 8});
  v1::PuzzleSolution rows;
  rows.add_rows("1 2 3");
  rows.add_rows("6 5 4");
  rows.add_rows("7 8 9");
  EXPECT_TRUE(zip->Validate(spec, rows)->valid());
  EXPECT_THAT(zip->Validate(spec, Steps({1, 2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
  EXPECT_THAT(zip->Validate(spec, Steps({1, 2, 3, 6, 5, 4, 7, 8, 10})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[8]")));
  rows.set_rows(1, "6 5");
  EXPECT_THAT(zip->Validate(spec, rows),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.rows[1]")));
}

TEST(ZipCompilerTest, RejectsBadInputNamingTheField) {
  auto zip = NewZipCompiler();
  auto compile = [&](const v1::PuzzleSpec& spec) {
    return zip->Compile(spec, v1::CompileOptions()).status();
  };
  EXPECT_THAT(
      compile(ZipSpec(1, 4, {0, 3})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("zip.rows")));
  EXPECT_THAT(
      compile(ZipSpec(4, 17, {0, 3})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("zip.cols")));
  EXPECT_THAT(compile(ZipSpec(3, 3, {0})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("zip.waypoints: at least two")));
  EXPECT_THAT(compile(ZipSpec(3, 3, {0, 9})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("zip.waypoints[1]")));
  EXPECT_THAT(compile(ZipSpec(3, 3, {0, 4, 0})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("zip.waypoints[2]")));
  EXPECT_THAT(
      compile(ZipSpec(3, 3, {0, 8}, {{0, 4}})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("zip.walls[0]")));
  // Cells 2 and 3 are consecutive indices but on different rows.
  EXPECT_THAT(
      compile(ZipSpec(3, 3, {0, 8}, {{1, 2}, {2, 3}})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("zip.walls[1]")));
  EXPECT_THAT(
      compile(ZipSpec(3, 3, {0, 8}, {{0, 9}})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("zip.walls[0]")));
}

const RulesEncoder& ZipRules() {
  v1::PuzzleSpec spec;
  spec.mutable_zip();
  return **BuiltinEncoders().ForSpec(spec);
}

// The paths of a level by depth-first search over the grid: an oracle
// independent of the rules.
uint64_t CountByDfs(const v1::PuzzleSpec& spec) {
  const int rows = static_cast<int>(spec.zip().rows());
  const int cols = static_cast<int>(spec.zip().cols());
  const int n = rows * cols;
  std::set<std::pair<int, int>> walls;
  for (const v1::ZipWall& w : spec.zip().walls()) {
    walls.insert({static_cast<int>(w.a()), static_cast<int>(w.b())});
    walls.insert({static_cast<int>(w.b()), static_cast<int>(w.a())});
  }
  std::vector<int> order(n, -1);
  for (int k = 0; k < spec.zip().waypoints_size(); ++k)
    order[spec.zip().waypoints(k)] = k;
  const int k_last = spec.zip().waypoints_size() - 1;
  std::vector<uint8_t> visited(n, 0);
  uint64_t count = 0;
  std::function<void(int, int, int)> walk = [&](int cell, int step, int next) {
    if (order[cell] >= 0) {
      if (order[cell] != next) return;
      ++next;
    }
    // The path ends on the last waypoint, after every other cell.
    if (step == n || order[cell] == k_last) {
      if (step == n && order[cell] == k_last) ++count;
      return;
    }
    visited[cell] = 1;
    const int r = cell / cols, c = cell % cols;
    const int moves[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (const auto& m : moves) {
      const int rr = r + m[0], cc = c + m[1];
      if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
      const int to = rr * cols + cc;
      if (!visited[to] && !walls.count({cell, to})) walk(to, step + 1, next);
    }
    visited[cell] = 0;
  };
  walk(spec.zip().waypoints(0), 1, 0);
  return count;
}

uint64_t CountPaths(const v1::PuzzleSpec& spec) {
  const int n = static_cast<int>(spec.zip().rows() * spec.zip().cols());
  auto count = CountRuleSolutions(ZipRules(), spec, n * n, 1000,
                                  CountMethod::kAuto, nullptr);
  EXPECT_TRUE(count.ok()) << count.status();
  EXPECT_TRUE(count->complete);
  return count->count;
}

TEST(ZipRulesTest, CountsThePathsOfALevel) {
  // Corner to corner of a 3x3 grid: the row snake and the column snake.
  EXPECT_EQ(CountPaths(ZipSpec(3, 3, {0, 8})), 2u);
  // The other two corners as waypoints, in the row snake's order.
  EXPECT_EQ(CountPaths(ZipSpec(3, 3, {0, 2, 6, 8})), 1u);
  // A wall across the row snake leaves the column snake.
  EXPECT_EQ(CountPaths(ZipSpec(3, 3, {0, 8}, {{3, 4}})), 1u);
  // Waypoint 1 on a cell of the wrong colour for the end: no path.
  EXPECT_EQ(CountPaths(ZipSpec(3, 3, {1, 8})), 0u);
}

TEST(ZipRulesTest, CountsAsManyPathsAsADepthFirstSearch) {
  for (const v1::PuzzleSpec& spec :
       {Spiral5Spec(), ZipSpec(4, 4, {0, 5, 12}), ZipSpec(4, 5, {0, 7, 19}),
        ZipSpec(5, 5, {0, 12, 24}, {{1, 6}, {7, 8}, {17, 22}}),
        ZipSpec(4, 4, {5, 10, 3}, {{1, 2}, {13, 14}})}) {
    const uint64_t expected = CountByDfs(spec);
    EXPECT_EQ(CountPaths(spec), expected) << spec.ShortDebugString();
    EXPECT_GT(expected, 0u);
  }
}

TEST(ZipRulesTest, SolutionsAreTheQubosGroundStates) {
  const v1::PuzzleSpec spec = ZipSpec(3, 3, {0, 8});
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto zip = NewZipCompiler();
  int found = 0;
  auto result =
      SolveRules(ZipRules(), spec, 81, 10, [&](std::vector<uint8_t> bits) {
        ++found;
        EXPECT_EQ(problem.full_model.Energy(bits), 0.0);
        EXPECT_TRUE(
            zip->Validate(spec, zip->Decode(spec, problem, bits))->valid());
      });
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(found, 2);
}

// Every ground state of a reduced model is a valid path and every valid path
// is a ground state: all assignments of the reduced model are enumerated, each
// ground state is decoded and validated, and the boards are compared with the
// paths the rules find (and counted against the depth-first search). Corner to
// corner of a 3x3 grid has two paths, the row snake and the column snake; with
// waypoints (2,1) and (2,3) between the corners the row snake, which the
// reduction keeps, enters them in the wrong order, so only the order term
// rules it out; the 4x3 level's waypoints (1,1), (1,3), (4,1) and (4,3) keep
// three of the four paths from corner to corner.
TEST(ZipRulesTest, ReducedGroundStatesAreExactlyThePaths) {
  auto zip = NewZipCompiler();
  WorkerPool pool(2);
  for (const v1::PuzzleSpec& spec :
       {ZipSpec(3, 3, {0, 8}), ZipSpec(3, 3, {0, 3, 5, 8}),
        ZipSpec(4, 3, {0, 2, 9, 11})}) {
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
    // The reduction leaves variables to choose from, within the enumerator's
    // reach.
    ASSERT_GE(problem.model.num_variables(), 20) << spec.ShortDebugString();
    ASSERT_LE(problem.model.num_variables(), kMaxExactVariables);
    auto ground = FindGroundStates(problem.model, 100, &pool);
    ASSERT_OK(ground);
    EXPECT_EQ(ground->energy, problem.ground_energy);
    ASSERT_EQ(ground->count, static_cast<int64_t>(ground->states.size()));
    auto cells = [](const v1::PuzzleSolution& board) {
      return std::vector<int>(board.cells().begin(), board.cells().end());
    };
    std::set<std::vector<int>> ground_boards, paths;
    for (const std::vector<uint8_t>& state : ground->states) {
      const std::vector<uint8_t> bits = problem.variables.Expand(state);
      EXPECT_EQ(problem.full_model.Energy(bits), 0.0);
      const v1::PuzzleSolution board = zip->Decode(spec, problem, bits);
      auto report = zip->Validate(spec, board);
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid()) << ::testing::PrintToString(cells(board));
      ground_boards.insert(cells(board));
    }
    const int n = static_cast<int>(problem.full_model.num_variables());
    ASSERT_OK(
        SolveRules(ZipRules(), spec, n, 100, [&](std::vector<uint8_t> bits) {
          paths.insert(cells(zip->Decode(spec, problem, bits)));
        }));
    EXPECT_EQ(paths.size(), CountByDfs(spec));
    EXPECT_FALSE(paths.empty());
    EXPECT_EQ(ground_boards, paths) << spec.ShortDebugString();
  }
  // The row snake of the second level: kept by the reduction, broken only in
  // its waypoints' order.
  const v1::PuzzleSpec ordered = ZipSpec(3, 3, {0, 3, 5, 8});
  const CompiledProblem problem = CompileOrDie(ordered, v1::REDUCTION_FULL);
  EXPECT_TRUE(problem.variables.IsConsistent(
      EncodeOrDie(ordered, problem, Steps(kSnake3))));
  auto report = zip->Validate(ordered, Steps(kSnake3));
  ASSERT_OK(report);
  EXPECT_THAT(RulesOf(*report), ElementsAre("waypoint_order"));
}

TEST(ZipGeneratorTest, GeneratesUniqueLevelsWithAndWithoutWalls) {
  for (bool walls : {false, true}) {
    ZipGenerateOptions options;
    options.rows = 6;
    options.cols = 6;
    options.walls = walls;
    Interrupter interrupter;
    auto level = GenerateZip(options, walls ? 7 : 3, interrupter);
    ASSERT_TRUE(level.ok()) << level.status();
    const v1::ZipPuzzle& zip = level->puzzle.zip();
    EXPECT_EQ(zip.rows(), 6u);
    EXPECT_EQ(zip.walls_size() > 0, walls);
    EXPECT_GE(zip.waypoints_size(), 2);
    EXPECT_EQ(level->clues, zip.waypoints_size());
    EXPECT_EQ(CountPaths(level->puzzle), 1u);
    // Its own path is the answer.
    const CompiledProblem problem =
        CompileOrDie(level->puzzle, v1::REDUCTION_FULL);
    EXPECT_EQ(problem.full_model.Energy(level->solution), 0.0);
    EXPECT_TRUE(problem.variables.IsConsistent(level->solution));
    auto zipc = NewZipCompiler();
    EXPECT_TRUE(
        zipc->Validate(level->puzzle,
                       zipc->Decode(level->puzzle, problem, level->solution))
            ->valid());
    // Deterministic for a seed.
    auto again = GenerateZip(options, walls ? 7 : 3, interrupter);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->puzzle.SerializeAsString(),
              level->puzzle.SerializeAsString());
  }
}

TEST(ZipGeneratorTest, EasyLevelsArePropagatedEntirely) {
  ZipGenerateOptions options;
  options.rows = options.cols = 6;
  options.difficulty = v1::DIFFICULTY_EASY;
  Interrupter interrupter;
  auto level = GenerateZip(options, 11, interrupter);
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->propagation_decided, 1.0);
  EXPECT_EQ(CountPaths(level->puzzle), 1u);
}

TEST(ZipGeneratorTest, RegisteredAndRefusesBadSizes) {
  auto generator = BuiltinGenerators().Get("zip");
  ASSERT_TRUE(generator.ok());
  GenerateOptions options;
  options.rows = 2;
  options.cols = 6;
  EXPECT_THAT((*generator)->Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  options.rows = 6;
  EXPECT_TRUE((*generator)->Check(options).ok());
  options.target_clues = 37;
  EXPECT_THAT(
      (*generator)->Check(options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target_clues")));
}

TEST(ZipDrawingTest, DrawsWaypointsWallsAndThePath) {
  const FamilyInfo* family = BuiltinFamilies().Find("zip");
  ASSERT_NE(family, nullptr);
  ASSERT_NE(family->draw, nullptr);
  const v1::PuzzleSpec spec = ZipSpec(3, 3, {0, 5, 8}, {{4, 1}});
  auto picture = family->draw(spec, nullptr);
  ASSERT_TRUE(picture.ok()) << picture.status();
  EXPECT_EQ(picture->rows(), 3u);
  ASSERT_EQ(picture->cells_size(), 9);
  EXPECT_EQ(picture->cells(0).text(), "1");
  EXPECT_EQ(picture->cells(5).text(), "2");
  EXPECT_EQ(picture->cells(8).text(), "3");
  EXPECT_TRUE(picture->cells(8).given());
  EXPECT_EQ(picture->cells(4).text(), "");
  ASSERT_EQ(picture->walls_size(), 1);
  EXPECT_EQ(picture->walls(0).a(), 1u);
  EXPECT_EQ(picture->walls(0).b(), 4u);
  EXPECT_EQ(picture->paths_size(), 0);

  const v1::PuzzleSolution snake = Steps(kSnake3);
  picture = family->draw(spec, &snake);
  ASSERT_TRUE(picture.ok());
  ASSERT_EQ(picture->paths_size(), 1);
  EXPECT_THAT(std::vector<uint32_t>(picture->paths(0).cells().begin(),
                                    picture->paths(0).cells().end()),
              ElementsAre(0, 1, 2, 5, 4, 3, 6, 7, 8));
  // Not a permutation of the steps: the puzzle alone.
  const v1::PuzzleSolution broken = Steps({1, 2, 3, 6, 6, 4, 7, 8, 9});
  picture = family->draw(spec, &broken);
  ASSERT_TRUE(picture.ok());
  EXPECT_EQ(picture->paths_size(), 0);
  EXPECT_EQ(picture->cells(0).text(), "1");
}

TEST(ZipFamilyTest, RegisteredAsBuiltin) {
  v1::PuzzleSpec spec;
  spec.mutable_zip();
  auto compiler = BuiltinCompilers().ForSpec(spec);
  ASSERT_TRUE(compiler.ok());
  EXPECT_EQ((*compiler)->kind(), "zip");
  const FamilyInfo* family = BuiltinFamilies().Find("zip");
  ASSERT_NE(family, nullptr);
  EXPECT_THAT(family->text_kinds, ElementsAre("zip"));
  EXPECT_NE(family->rules, nullptr);
}

}  // namespace
}  // namespace qs
