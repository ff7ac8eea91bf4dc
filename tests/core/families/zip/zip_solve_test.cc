// Generated Zip levels (6x6 and 7x7, with and without walls) solved through
// the solve engine with the default backend, `auto`, as the server runs them:
// every answer must be a valid path; and the size limit of the position
// encoding. tests/tools/zip_solve_stats.cc measures
// the same on more levels and with the QUBO samplers alone.
#include <memory>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/families/zip/zip.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

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
  // default 512 MiB per model.
  Engine e;
  v1::CompileRequest request;
  v1::ZipPuzzle& zip = *request.mutable_puzzle()->mutable_zip();
  zip.set_rows(12);
  zip.set_cols(12);
  zip.add_waypoints(0);
  zip.add_waypoints(1);
  EXPECT_EQ(e.engine->Compile(request).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace qs
