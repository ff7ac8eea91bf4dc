// Generated Zip levels (6x6 and 7x7, with and without walls) solved through
// the solve engine with the default backend, `auto`, as the server runs them:
// every answer must be a valid path; and the size limit of the position
// encoding. tests/tools/zip_solve_stats.cc measures
// the same on more levels and with the QUBO samplers alone.
#include <memory>
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/families/zip/zip.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

struct Engine {
  WorkerPool pool{2};
  BackendRegistry backends;
  std::unique_ptr<SolveEngine> engine;
  Engine() {
    BackendOptions options;
    options.pool = &pool;
    EXPECT_TRUE(RegisterBuiltinBackends(backends, options).ok());
    engine = std::make_unique<SolveEngine>(&BuiltinCompilers(), &backends,
                                           SolveLimits{});
  }
};

TEST(ZipSolveTest, AutoSolvesGeneratedLevels) {
  Engine e;
  for (int side : {6, 7}) {
    for (bool walls : {false, true}) {
      ZipGenerateOptions options;
      options.rows = options.cols = side;
      options.walls = walls;
      Interrupter generation;
      auto level = GenerateZip(options, 100 + side + walls, generation);
      ASSERT_TRUE(level.ok()) << level.status();
      v1::SolveRequest request;
      *request.mutable_puzzle() = level->puzzle;
      request.mutable_params()->set_seed(1);
      request.mutable_params()->set_time_limit_seconds(30);
      Interrupter interrupter;
      v1::SolveSummary summary;
      const absl::Status status =
          e.engine->Solve(request, interrupter, [&](v1::SolveResponse&& event) {
            if (event.has_summary()) summary = event.summary();
          });
      ASSERT_TRUE(status.ok()) << status;
      EXPECT_TRUE(summary.best_valid())
          << side << "x" << side << (walls ? " walls" : "");
      EXPECT_EQ(summary.best_energy(), 0.0);
    }
  }
}

TEST(ZipSolveTest, GenerateAndCountThroughTheEngine) {
  Engine e;
  v1::GenerateRequest request;
  request.set_family("zip");
  request.set_rows(6);
  request.set_count(2);
  request.set_seed(9);
  std::vector<v1::GeneratedPuzzle> made;
  Interrupter interrupter;
  const absl::Status status = e.engine->Generate(
      request, interrupter,
      [&](v1::GeneratedPuzzle&& puzzle) { made.push_back(puzzle); });
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_EQ(made.size(), 2u);
  for (const v1::GeneratedPuzzle& puzzle : made) {
    EXPECT_EQ(puzzle.puzzle_kind(), "zip");
    EXPECT_TRUE(puzzle.unique());
    EXPECT_EQ(puzzle.solution().cells_size(), 36);
    // Waypoints are added, not removed: the full solution's clues are its 36
    // cells, and the level keeps some of them ("20 of 36 clues", never "20 of
    // 7").
    EXPECT_EQ(puzzle.clues_at_start(), 36u);
    EXPECT_EQ(puzzle.clues(), puzzle.puzzle().zip().waypoints_size());
    EXPECT_LE(puzzle.clues(), puzzle.clues_at_start());
    v1::CountRequest count;
    *count.mutable_puzzle() = puzzle.puzzle();
    Interrupter counting;
    auto counted = e.engine->Count(count, counting);
    ASSERT_TRUE(counted.ok()) << counted.status();
    EXPECT_TRUE(counted->unique());
    EXPECT_EQ(counted->count(), 1u);
  }
}

TEST(ZipSolveTest, ModelsOverTheMemoryLimitAreRefusedBeforeTheyAreBuilt) {
  // 144 cells: 20,736 variables and at least 5.8 million couplers, over the
  // default 512 MiB per model; 256 cells are over the default couplers limit
  // too. Each refusal names every flag that must move for the grid to pass.
  Engine e;
  auto compile = [&](uint32_t rows, uint32_t cols) {
    v1::CompileRequest request;
    v1::ZipPuzzle& zip = *request.mutable_puzzle()->mutable_zip();
    zip.set_rows(rows);
    zip.set_cols(cols);
    zip.add_waypoints(0);
    zip.add_waypoints(1);
    return e.engine->Compile(request).status();
  };
  const absl::Status twelve = compile(12, 12);
  EXPECT_EQ(twelve.code(), absl::StatusCode::kResourceExhausted) << twelve;
  EXPECT_THAT(std::string(twelve.message()),
              HasSubstr("(qs_server --max_model_mb)"));
  EXPECT_THAT(std::string(twelve.message()), Not(HasSubstr("--max_couplers")));
  const absl::Status sixteen = compile(16, 16);
  EXPECT_EQ(sixteen.code(), absl::StatusCode::kResourceExhausted) << sixteen;
  EXPECT_THAT(std::string(sixteen.message()),
              AllOf(HasSubstr("(qs_server --max_couplers)"),
                    HasSubstr("(qs_server --max_model_mb)")));
  // Sides over 16 are the family's own bound, which no server limit moves:
  // INVALID_ARGUMENT naming the field at any size (a 40x40 grid's 2.56e6
  // variables were refused as over --max_variables, a 30x30 grid's sides),
  // and the message says the cells are bounded by the server's limits too.
  for (const uint32_t side : {17u, 30u, 40u, 1000u}) {
    const absl::Status status = compile(side, 4);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_THAT(std::string(status.message()),
                AllOf(HasSubstr("zip.rows: must be 2..16"),
                      HasSubstr("--max_model_mb")));
  }
  const absl::Status wide = compile(40, 40);
  EXPECT_EQ(wide.code(), absl::StatusCode::kInvalidArgument) << wide;
  // A side of 16 is within the family's bound.
  EXPECT_TRUE(compile(16, 4).ok());
}

}  // namespace
}  // namespace qs
