// Size limits of SolveEngine (core/solve/solve_engine.h) on puzzle dimensions
// at the edges of their proto types. Regression tests of inputs found by
// tests/fuzz/solve_request_fuzzer (kept in tests/fuzz/regressions/): the model
// size of a huge Sudoku box or queens board overflowed int64_t (undefined
// behaviour) and could wrap to a size under the limit; now it saturates and
// the request gets RESOURCE_EXHAUSTED before anything is built. The tents,
// chess and takuzu boards multiply rows by cols the same way.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/instance_generators.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

constexpr uint32_t kMaxU32 = std::numeric_limits<uint32_t>::max();
constexpr int64_t kMaxI64 = std::numeric_limits<int64_t>::max();
const auto kOverLimit = ::testing::HasSubstr("over this server's limit");

class SolveEngineLimitsTest : public ::testing::Test {
 protected:
  SolveEngineLimitsTest() : pool_(1) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_TRUE(RegisterBuiltinBackends(samplers_, options).ok());
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &samplers_,
                                            SolveLimits());
  }

  absl::Status Check(const v1::PuzzleSpec& puzzle) const {
    v1::SolveRequest request;
    *request.mutable_puzzle() = puzzle;
    return engine_->CheckSolveRequest(request);
  }
  absl::Status Compile(const v1::PuzzleSpec& puzzle) const {
    v1::CompileRequest request;
    *request.mutable_puzzle() = puzzle;
    return engine_->Compile(request).status();
  }
  int64_t ModelVariables(const v1::PuzzleSpec& puzzle) const {
    auto compiler = BuiltinCompilers().ForSpec(puzzle);
    EXPECT_TRUE(compiler.ok());
    return compiler.ok() ? (*compiler)->ModelVariables(puzzle) : -1;
  }

  WorkerPool pool_;
  BackendRegistry samplers_;
  std::unique_ptr<SolveEngine> engine_;
};

TEST_F(SolveEngineLimitsTest, HugeSudokuBoxSaturatesAndIsRejected) {
  // box 1449: side^3 = 2099601^3 > INT64_MAX; box 2^32 - 1: box^2 alone is.
  for (const uint32_t box : {1449u, 65536u, kMaxU32}) {
    v1::PuzzleSpec puzzle;
    puzzle.mutable_sudoku()->set_box_size(box);
    EXPECT_EQ(ModelVariables(puzzle), kMaxI64) << "box " << box;
    EXPECT_THAT(
        Check(puzzle),
        testing::StatusIs(absl::StatusCode::kResourceExhausted, kOverLimit))
        << "box " << box;
    EXPECT_THAT(
        Compile(puzzle),
        testing::StatusIs(absl::StatusCode::kResourceExhausted, kOverLimit))
        << "box " << box;
  }
  // Below the overflow the count is exact: box 1448 has 2096704^3 variables.
  v1::PuzzleSpec puzzle;
  puzzle.mutable_sudoku()->set_box_size(1448);
  EXPECT_EQ(ModelVariables(puzzle), int64_t{2096704} * 2096704 * 2096704);
}

TEST_F(SolveEngineLimitsTest, HugeQueensBoardSaturatesAndIsRejected) {
  v1::PuzzleSpec puzzle;
  puzzle.mutable_queens()->set_rows(kMaxU32);
  puzzle.mutable_queens()->set_cols(kMaxU32);
  EXPECT_EQ(ModelVariables(puzzle), kMaxI64);
  EXPECT_THAT(
      Check(puzzle),
      testing::StatusIs(absl::StatusCode::kResourceExhausted, kOverLimit));
  puzzle.mutable_queens()->set_cols(0);  // square: rows x rows
  EXPECT_EQ(ModelVariables(puzzle), kMaxI64);
  EXPECT_THAT(
      Compile(puzzle),
      testing::StatusIs(absl::StatusCode::kResourceExhausted, kOverLimit));
}

// rows x cols of two uint32 fields: (2^32 - 1)^2 > INT64_MAX.
TEST_F(SolveEngineLimitsTest, HugeRectangularBoardsSaturateAndAreRejected) {
  std::vector<v1::PuzzleSpec> puzzles(3);
  puzzles[0].mutable_tents()->set_rows(kMaxU32);
  puzzles[0].mutable_tents()->set_cols(kMaxU32);
  puzzles[1].mutable_chess()->set_rows(kMaxU32);
  puzzles[1].mutable_chess()->set_cols(kMaxU32);
  puzzles[2].mutable_takuzu()->set_rows(kMaxU32);
  puzzles[2].mutable_takuzu()->set_cols(kMaxU32);
  for (const v1::PuzzleSpec& puzzle : puzzles) {
    EXPECT_EQ(ModelVariables(puzzle), kMaxI64) << puzzle.ShortDebugString();
    EXPECT_THAT(
        Check(puzzle),
        testing::StatusIs(absl::StatusCode::kResourceExhausted, kOverLimit))
        << puzzle.ShortDebugString();
    EXPECT_THAT(
        Compile(puzzle),
        testing::StatusIs(absl::StatusCode::kResourceExhausted, kOverLimit))
        << puzzle.ShortDebugString();
  }
  // Square boards (cols 0) saturate too.
  v1::PuzzleSpec tents;
  tents.mutable_tents()->set_rows(kMaxU32);
  EXPECT_EQ(ModelVariables(tents), kMaxI64);
  v1::PuzzleSpec chess;
  chess.mutable_chess()->set_rows(kMaxU32);
  EXPECT_EQ(ModelVariables(chess), kMaxI64);
}

}  // namespace
// The attempts budget weighs pt's replicas and sqa's Trotter slices: 8-queens
// (64 variables) with 10 reads of 100 sweeps is 64,000 attempts for cpu-sa,
// four times that with four replicas or slices, eight with eight.
TEST_F(SolveEngineLimitsTest, AttemptsCountReplicasAndSlices) {
  SolveLimits limits;
  limits.max_attempts = 300000;
  const SolveEngine engine(&BuiltinCompilers(), &samplers_, limits);
  auto solve = [&](const std::string& backend, int per_variable) {
    v1::SolveRequest request;
    request.mutable_puzzle()->mutable_queens()->set_rows(8);
    v1::SolveParams& p = *request.mutable_params();
    p.set_backend(backend);
    p.set_num_reads(10);
    p.set_num_sweeps(100);
    p.set_seed(1);
    if (backend == "pt") p.mutable_pt()->set_replicas(per_variable);
    if (backend == "sqa") p.mutable_sqa()->set_trotter_slices(per_variable);
    Interrupter interrupter;
    return engine.Solve(request, interrupter, [](v1::SolveResponse&&) {});
  };
  EXPECT_OK(solve("cpu-sa", 1));
  for (const std::string backend : {"pt", "sqa"}) {
    EXPECT_OK(solve(backend, 4)) << backend;
    EXPECT_THAT(solve(backend, 8),
                testing::StatusIs(
                    absl::StatusCode::kResourceExhausted,
                    ::testing::AllOf(
                        kOverLimit, ::testing::HasSubstr("replicas or slices"),
                        ::testing::HasSubstr("512000"),
                        ::testing::HasSubstr("(qs_server --max_attempts)"))))
        << backend;
  }
}

// The memory a model takes to build is estimated from its size before it is
// built: a 200-row Queens board (8e6 couplers; 0.95 GB to build) is over the
// default 512 MiB, a 100-row one is not.
TEST_F(SolveEngineLimitsTest, ModelMemoryIsEstimatedBeforeItIsBuilt) {
  v1::PuzzleSpec large;
  large.mutable_queens()->set_rows(200);
  for (const absl::Status& status : {Check(large), Compile(large)}) {
    EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
    EXPECT_THAT(std::string(status.message()),
                ::testing::HasSubstr("(qs_server --max_model_mb)"));
    EXPECT_THAT(std::string(status.message()),
                ::testing::StartsWith("puzzle: "));
  }
  v1::PuzzleSpec medium;
  medium.mutable_queens()->set_rows(100);
  const absl::Status status = Check(medium);
  EXPECT_NE(status.code(), absl::StatusCode::kResourceExhausted) << status;
}

// Sparse Ising models of 10^6 spins are within the default limits: the 2D +-J
// lattice of 1000 x 1000 spins (2e6 couplers) passes the checks, a graph of
// more than max_variables nodes does not.
TEST_F(SolveEngineLimitsTest, MillionSpinLatticeIsWithinTheDefaultLimits) {
  EXPECT_OK(Check(formats::RandomToroidalGraph(1000, 1000, true, 1)));
  v1::PuzzleSpec larger;
  larger.mutable_maxcut()->set_num_nodes(
      static_cast<uint32_t>(SolveLimits().max_variables + 1));
  EXPECT_THAT(Check(larger),
              testing::StatusIs(
                  absl::StatusCode::kResourceExhausted,
                  ::testing::AllOf(
                      ::testing::HasSubstr("variables, over"),
                      ::testing::HasSubstr("(qs_server --max_variables)"))));
}

// Every size refusal names the qs_server flag that moves it, and a model over
// several limits names each of them: raising only the one named first would
// meet the next refusal. The reduced model's couplers, counted after
// compiling, name theirs too.
TEST_F(SolveEngineLimitsTest, SizeRefusalsNameTheFlagsThatMoveThem) {
  SolveLimits limits;
  limits.max_variables = 100;
  limits.max_couplers = 1000;
  limits.max_model_bytes = int64_t{1} << 20;
  const SolveEngine engine(&BuiltinCompilers(), &samplers_, limits);
  v1::CompileRequest compile;
  compile.mutable_puzzle()->mutable_queens()->set_rows(40);
  EXPECT_THAT(engine.Compile(compile).status(),
              testing::StatusIs(
                  absl::StatusCode::kResourceExhausted,
                  ::testing::AllOf(
                      ::testing::StartsWith("puzzle: the queens model has "),
                      ::testing::HasSubstr("(qs_server --max_variables)"),
                      ::testing::HasSubstr("(qs_server --max_couplers)"),
                      ::testing::HasSubstr("(qs_server --max_model_mb)"))));
  // A raw model declares no couplers before it is built: 8 nodes, every pair
  // joined, over a limit of 10 couplers once compiled.
  SolveLimits few;
  few.max_couplers = 10;
  const SolveEngine reduced(&BuiltinCompilers(), &samplers_, few);
  v1::SolveRequest request;
  v1::MaxCutPuzzle& graph = *request.mutable_puzzle()->mutable_maxcut();
  graph.set_num_nodes(8);
  for (uint32_t u = 0; u < 8; ++u) {
    for (uint32_t v = u + 1; v < 8; ++v) {
      graph.add_u(u);
      graph.add_v(v);
      graph.add_w(1);
    }
  }
  Interrupter interrupter;
  EXPECT_THAT(
      reduced.Solve(request, interrupter, [](v1::SolveResponse&&) {}),
      testing::StatusIs(
          absl::StatusCode::kResourceExhausted,
          ::testing::AllOf(
              kOverLimit, ::testing::HasSubstr("(qs_server --max_couplers)"))));
}

// A lattice of 300,000 spins (over the former limit of 200,000 variables)
// runs end to end on the bit-sliced kernel: every read scored with its true
// cut, and with max_sample_events 1 the one event streamed is the best read.
TEST_F(SolveEngineLimitsTest, LatticeOverTheFormerVariableLimitSolves) {
  v1::SolveRequest request;
  *request.mutable_puzzle() = formats::RandomToroidalGraph(548, 548, true, 3);
  v1::SolveParams& p = *request.mutable_params();
  p.set_backend("cpu-sa");
  p.set_num_reads(256);
  p.set_num_sweeps(4);
  p.set_seed(5);
  p.set_max_sample_events(1);
  Interrupter interrupter;
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
  ASSERT_OK(engine_->Solve(request, interrupter, [&](v1::SolveResponse&& e) {
    if (e.has_sample()) samples.push_back(e.sample());
    if (e.has_summary()) summary = e.summary();
  }));
  EXPECT_EQ(summary.reads_done(), 256u);
  EXPECT_EQ(summary.backend().kernel().rfind("bitsliced", 0), 0u)
      << summary.backend().kernel();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].energy(), summary.best_energy());
  EXPECT_EQ(samples[0].num_variables(), 548u * 548u);
  // The energy is minus the cut of the board the summary reports.
  const v1::MaxCutPuzzle& graph = request.puzzle().maxcut();
  const std::string& side = summary.best_solution().rows(0);
  ASSERT_EQ(side.size(), graph.num_nodes());
  double cut = 0;
  for (int k = 0; k < graph.u_size(); ++k)
    if (side[graph.u(k)] != side[graph.v(k)]) cut += graph.w(k);
  EXPECT_EQ(summary.best_energy(), -cut);
  EXPECT_GT(cut, 0);  // four sweeps already cut more weight than they leave
}

// A request id holds at most 128 printable ASCII characters; the log shows
// any id escaped.
TEST_F(SolveEngineLimitsTest, RequestIdsAreBoundedPrintableAscii) {
  v1::SolveRequest request;
  request.mutable_puzzle()->mutable_queens()->set_rows(6);
  request.set_request_id(std::string(128, 'a'));
  EXPECT_TRUE(engine_->CheckSolveRequest(request).ok());
  for (const std::string& bad : {std::string(129, 'a'), std::string("a\nb"),
                                 std::string("caf\xc3\xa9")}) {
    request.set_request_id(bad);
    const absl::Status status = engine_->CheckSolveRequest(request);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(std::string(status.message()),
                ::testing::StartsWith("request_id: "));
  }
  EXPECT_EQ(RequestIdForLog("a\nb\"c\\"), "a\\x0ab\\x22c\\x5c");
  EXPECT_EQ(RequestIdForLog(std::string(200, 'z')),
            std::string(128, 'z') + "...");
}

}  // namespace qs
