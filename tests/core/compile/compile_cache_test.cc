// CompileCache (core/compile/compile_cache.h): hits give the very problem a
// first compile made, anything that changes the bytes of the spec or options
// misses, errors are not kept, least recently used entries leave first by
// count and by bytes, and a cache of zero entries compiles every time. Also
// the engine's Solve reporting a hit in its header with unchanged samples.
#include "core/compile/compile_cache.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

// A 4x4 Sudoku with `clues` givens of one fixed solution.
v1::PuzzleSpec Sudoku4(int clues) {
  static constexpr int kSolution[16] = {1, 2, 3, 4, 3, 4, 1, 2,
                                        2, 1, 4, 3, 4, 3, 2, 1};
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(2);
  for (int i = 0; i < 16; ++i)
    spec.mutable_sudoku()->add_cells(i < clues ? kSolution[i] : 0);
  return spec;
}

const PuzzleCompiler& SudokuCompiler() {
  return **BuiltinCompilers().ForSpec(Sudoku4(0));
}

TEST(CompileCacheTest, SecondCompileOfTheSamePuzzleIsAHitOnTheSameProblem) {
  CompileCache cache({});
  bool hit = true;
  auto first = cache.GetOrCompile(SudokuCompiler(), Sudoku4(6),
                                  v1::CompileOptions(), &hit);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_FALSE(hit);
  auto second = cache.GetOrCompile(SudokuCompiler(), Sudoku4(6),
                                   v1::CompileOptions(), &hit);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(hit);
  EXPECT_EQ(first->get(), second->get());
  const CompileCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.entries, 1);
  EXPECT_GE(stats.bytes, ProblemBytes(**first));
}

TEST(CompileCacheTest, OtherGivensOrOptionsMiss) {
  CompileCache cache({});
  bool hit = true;
  ASSERT_TRUE(cache
                  .GetOrCompile(SudokuCompiler(), Sudoku4(6),
                                v1::CompileOptions(), &hit)
                  .ok());
  ASSERT_TRUE(cache
                  .GetOrCompile(SudokuCompiler(), Sudoku4(7),
                                v1::CompileOptions(), &hit)
                  .ok());
  EXPECT_FALSE(hit);
  v1::CompileOptions none;
  none.set_reduction(v1::REDUCTION_NONE);
  auto full = cache.GetOrCompile(SudokuCompiler(), Sudoku4(6), none, &hit);
  ASSERT_TRUE(full.ok());
  EXPECT_FALSE(hit);
  // No reduction: all 64 variables stay; the default reduction removed some.
  EXPECT_EQ((*full)->model.num_variables(), 64);
  EXPECT_EQ(cache.stats().entries, 3);
}

TEST(CompileCacheTest, ErrorsAreReturnedAndNotKept) {
  CompileCache cache({});
  v1::PuzzleSpec bad = Sudoku4(0);
  bad.mutable_sudoku()->set_cells(0, 9);  // digit over 4
  for (int round = 0; round < 2; ++round) {
    bool hit = true;
    auto problem =
        cache.GetOrCompile(SudokuCompiler(), bad, v1::CompileOptions(), &hit);
    EXPECT_EQ(problem.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_FALSE(hit);
  }
  EXPECT_EQ(cache.stats().entries, 0);
  EXPECT_EQ(cache.stats().misses, 2u);
}

TEST(CompileCacheTest, LeastRecentlyUsedLeavesFirst) {
  CompileCache cache({.max_entries = 2});
  bool hit = false;
  const v1::CompileOptions options;
  ASSERT_TRUE(cache.GetOrCompile(SudokuCompiler(), Sudoku4(1), options).ok());
  ASSERT_TRUE(cache.GetOrCompile(SudokuCompiler(), Sudoku4(2), options).ok());
  // Using 1 makes 2 the oldest; adding 3 pushes 2 out.
  ASSERT_TRUE(
      cache.GetOrCompile(SudokuCompiler(), Sudoku4(1), options, &hit).ok());
  EXPECT_TRUE(hit);
  ASSERT_TRUE(cache.GetOrCompile(SudokuCompiler(), Sudoku4(3), options).ok());
  EXPECT_EQ(cache.stats().entries, 2);
  ASSERT_TRUE(
      cache.GetOrCompile(SudokuCompiler(), Sudoku4(1), options, &hit).ok());
  EXPECT_TRUE(hit);
  ASSERT_TRUE(
      cache.GetOrCompile(SudokuCompiler(), Sudoku4(2), options, &hit).ok());
  EXPECT_FALSE(hit);
}

TEST(CompileCacheTest, ByteBudgetBoundsTheCache) {
  const v1::CompileOptions options;
  auto one = SudokuCompiler().Compile(Sudoku4(0), options);
  ASSERT_TRUE(one.ok());
  const int64_t bytes = ProblemBytes(*one);
  // Room for two problems of this size (keys are small), not three.
  CompileCache cache({.max_entries = 100, .max_bytes = 2 * bytes + 2000});
  for (int clues = 0; clues < 3; ++clues) {
    // No clue is the largest model; the budget is counted on each.
    ASSERT_TRUE(
        cache.GetOrCompile(SudokuCompiler(), Sudoku4(clues), options).ok());
  }
  EXPECT_LE(cache.stats().bytes, 2 * bytes + 2000);
  EXPECT_LT(cache.stats().entries, 3);
  // A problem bigger than the whole budget is compiled and not kept.
  CompileCache tiny({.max_entries = 100, .max_bytes = 10});
  bool hit = true;
  auto problem = tiny.GetOrCompile(SudokuCompiler(), Sudoku4(0), options, &hit);
  ASSERT_TRUE(problem.ok());
  EXPECT_FALSE(hit);
  EXPECT_EQ(tiny.stats().entries, 0);
}

TEST(CompileCacheTest, ZeroEntriesCompilesEveryTime) {
  CompileCache cache({.max_entries = 0});
  bool hit = true;
  auto a = cache.GetOrCompile(SudokuCompiler(), Sudoku4(6),
                              v1::CompileOptions(), &hit);
  auto b = cache.GetOrCompile(SudokuCompiler(), Sudoku4(6),
                              v1::CompileOptions(), &hit);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(hit);
  EXPECT_NE(a->get(), b->get());
  EXPECT_EQ(cache.stats().entries, 0);
}

// The engine with a cache: the second Solve of a puzzle says so in its header
// and, with the same seed, streams the same samples as the first.
TEST(CompileCacheTest, SolveReportsTheHitAndKeepsItsSamples) {
  WorkerPool pool(2);
  BackendRegistry samplers;
  BackendOptions backend_options;
  backend_options.pool = &pool;
  ASSERT_TRUE(RegisterBuiltinBackends(samplers, backend_options).ok());
  CompileCache cache({});
  SolveEngine engine(&BuiltinCompilers(), &samplers, SolveLimits(), &cache);
  v1::SolveRequest request;
  *request.mutable_puzzle() = Sudoku4(4);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(20);
  request.mutable_params()->set_num_sweeps(200);
  request.mutable_params()->set_seed(7);
  std::vector<v1::CompileStats> headers;
  std::vector<std::vector<std::string>> samples(2);
  for (int round = 0; round < 2; ++round) {
    Interrupter interrupter;
    absl::Status status =
        engine.Solve(request, interrupter, [&](v1::SolveResponse&& event) {
          if (event.has_header()) headers.push_back(event.header().stats());
          if (event.has_sample())
            samples[round].push_back(event.sample().bits());
        });
    ASSERT_TRUE(status.ok()) << status;
  }
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_FALSE(headers[0].from_cache());
  EXPECT_TRUE(headers[1].from_cache());
  EXPECT_EQ(headers[0].variables(), headers[1].variables());
  EXPECT_EQ(headers[0].couplers(), headers[1].couplers());
  // Reads finish in any order; as sets they agree.
  std::sort(samples[0].begin(), samples[0].end());
  std::sort(samples[1].begin(), samples[1].end());
  EXPECT_EQ(samples[0], samples[1]);
  EXPECT_EQ(samples[0].size(), 20u);
  // Compile goes through the same cache.
  v1::CompileRequest compile;
  *compile.mutable_puzzle() = Sudoku4(4);
  auto compiled = engine.Compile(compile);
  ASSERT_TRUE(compiled.ok());
  EXPECT_TRUE(compiled->stats().from_cache());
}

}  // namespace
}  // namespace qs
