// End to end at the core level: the SolveEngine compiles a puzzle, the "dwave"
// backend embeds it on the emulator's Pegasus P16 solver (seeded broken
// qubits), submits, polls and unembeds, and the engine decodes and validates
// the boards. Prints the embedding time, the longest chain and the chain-break
// fraction.
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

constexpr char kToken[] = "E2E-token";

class DwaveEndToEndTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.queue_delay = absl::Milliseconds(20);
    options.run_time = absl::Milliseconds(20);
    // A little readout noise, so that chains break and majority vote has work
    // to do.
    options.flip_probability = 0.0001;
    options.sweeps = 10000;
    emulator_ = new sapi_emulator::SapiEmulator(options);
    ASSERT_OK(emulator_->Start());
    pool_ = new WorkerPool(2);
    samplers_ = new BackendRegistry();
    BackendOptions backend;
    backend.pool = pool_;
    // The endpoint comes from the Metadata API of the emulator, as for a real
    // region.
    backend.dwave.emplace();
    backend.dwave->region = "eu-central-1";
    backend.dwave->metadata_endpoint = emulator_->metadata_endpoint();
    backend.dwave->token = kToken;
    backend.dwave->solver = "Advantage_emulator_P16";
    ASSERT_OK(RegisterBuiltinBackends(*samplers_, backend));
    engine_ = new SolveEngine(&BuiltinCompilers(), samplers_, SolveLimits{});
  }
  static void TearDownTestSuite() {
    delete engine_;
    delete samplers_;
    delete pool_;
    delete emulator_;
  }

  static v1::SolveSummary Solve(const v1::SolveRequest& request) {
    Interrupter interrupter;
    v1::SolveSummary summary;
    int valid_events = 0;
    const absl::Status status =
        engine_->Solve(request, interrupter, [&](v1::SolveResponse&& event) {
          if (event.has_summary()) summary = event.summary();
          if (event.has_sample() && event.sample().valid()) ++valid_events;
        });
    EXPECT_OK(status);
    EXPECT_EQ(valid_events > 0, summary.num_valid() > 0);
    EXPECT_EQ(summary.backend().name(), "dwave");
    return summary;
  }

  static void Report(const std::string& what, const v1::SolveSummary& summary) {
    const v1::DwaveInfo& d = summary.backend().dwave();
    std::printf(
        "%s on %s: embedding %.2f s%s, max chain %u, %u qubits, chain strength "
        "%.3f, chain-break fraction "
        "mean %.4f max %.4f, %u/%u valid reads, best energy %g, QPU access "
        "%.0f us\n",
        what.c_str(), d.solver().c_str(), d.embedding_seconds(),
        d.embedding_cached() ? " (cached)" : "", d.max_chain_length(),
        d.physical_qubits(), d.chain_strength(), d.mean_chain_break_fraction(),
        d.max_chain_break_fraction(), summary.num_valid(), summary.reads_done(),
        summary.best_energy(), d.qpu_access_time_us());
  }

  static sapi_emulator::SapiEmulator* emulator_;
  static WorkerPool* pool_;
  static BackendRegistry* samplers_;
  static SolveEngine* engine_;
};

sapi_emulator::SapiEmulator* DwaveEndToEndTest::emulator_ = nullptr;
WorkerPool* DwaveEndToEndTest::pool_ = nullptr;
BackendRegistry* DwaveEndToEndTest::samplers_ = nullptr;
SolveEngine* DwaveEndToEndTest::engine_ = nullptr;

TEST_F(DwaveEndToEndTest, ListsTheBackendAsAvailable) {
  const v1::ListBackendsResponse backends = engine_->ListBackends();
  bool found = false;
  for (const auto& b : backends.backends()) {
    if (b.name() != "dwave") continue;
    found = true;
    EXPECT_TRUE(b.available()) << b.status();
  }
  EXPECT_TRUE(found);
}

TEST_F(DwaveEndToEndTest, NytSudokuSolvesWithAValidBoard) {
  v1::SolveRequest request;
  request.set_request_id("nyt-dwave");
  request.mutable_puzzle()->mutable_sudoku()->set_box_size(3);
  for (char ch : std::string(qs::testing::kNytPuzzle)) {
    request.mutable_puzzle()->mutable_sudoku()->add_cells(ch == '.' ? 0
                                                                    : ch - '0');
  }
  request.mutable_compile()->set_reduction(v1::REDUCTION_FULL);
  request.mutable_params()->set_backend("dwave");
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_seed(1);
  request.mutable_params()->mutable_dwave()->set_label("nyt-sudoku");
  const v1::SolveSummary summary = Solve(request);
  Report("NYT Sudoku (211 variables)", summary);
  EXPECT_EQ(summary.reads_done(), 1000u);
  ASSERT_TRUE(summary.best_valid());
  EXPECT_EQ(summary.best_energy(), -81);
  std::string board;
  for (int v : summary.best_solution().cells())
    board += static_cast<char>('0' + v);
  EXPECT_EQ(board, qs::testing::kNytSolution);
  const v1::DwaveInfo& d = summary.backend().dwave();
  EXPECT_EQ(d.solver(), "Advantage_emulator_P16");
  EXPECT_EQ(d.problem_ids_size(), 1);
  EXPECT_GT(d.max_chain_length(), 1u);
  EXPECT_GE(d.physical_qubits(), 211u);
  EXPECT_GT(d.qpu_access_time_us(), 0);
  EXPECT_GE(d.mean_chain_break_fraction(), 0);
  EXPECT_LE(d.mean_chain_break_fraction(), d.max_chain_break_fraction());
  EXPECT_FALSE(d.embedding_cached());

  // Same shape again: the embedding comes from the cache.
  request.mutable_params()->set_seed(2);
  request.mutable_params()->set_num_reads(10);
  const v1::SolveSummary again = Solve(request);
  EXPECT_TRUE(again.backend().dwave().embedding_cached());
  EXPECT_EQ(again.backend().dwave().physical_qubits(), d.physical_qubits());
}

// lq8-1 of tests/data/queens/linkedin_queens.txt: one queen per row, column and
// colour region, no two on diagonally adjacent cells.
TEST_F(DwaveEndToEndTest, LinkedInQueens8x8SolvesWithAValidBoard) {
  const std::string regions =
      "ACCCDDDDAACCDDDHAACCCGDDAFFFFGGDGFFFGGDDGGFFGGBBEGGFGBBBGGGGGBBB";
  const std::string solution =
      "..Q............Q.Q.........Q..........Q.....Q...Q............Q..";
  v1::SolveRequest request;
  request.set_request_id("queens-dwave");
  v1::QueensPuzzle* queens = request.mutable_puzzle()->mutable_queens();
  queens->set_rows(8);
  queens->set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  for (char ch : regions) queens->add_regions(ch - 'A');
  request.mutable_params()->set_backend("dwave");
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_seed(1);
  const v1::SolveSummary summary = Solve(request);
  Report("LinkedIn Queens 8x8", summary);
  ASSERT_TRUE(summary.best_valid());
  ASSERT_TRUE(summary.has_ground_energy());
  EXPECT_EQ(summary.best_energy(), summary.ground_energy());
  std::string board;
  for (int v : summary.best_solution().cells()) board += v != 0 ? 'Q' : '.';
  EXPECT_EQ(board, solution);
  EXPECT_GT(summary.backend().dwave().max_chain_length(), 1u);
}

// tango-6x6-1 of tests/data/takuzu/puzzles.txt (LinkedIn Tango: suns and moons,
// '=' and 'x' signs).
TEST_F(DwaveEndToEndTest, Tango6x6SolvesWithAValidBoard) {
  auto spec =
      formats::ParsePuzzleText("tango",
                               "..01../=...../.....1/....=./.0x..x../.=..../"
                               "...x.../....x./....../....../......");
  ASSERT_OK(spec);
  v1::SolveRequest request;
  request.set_request_id("tango-dwave");
  *request.mutable_puzzle() = *spec;
  request.mutable_params()->set_backend("dwave");
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_seed(1);
  const v1::SolveSummary summary = Solve(request);
  Report("Tango 6x6", summary);
  ASSERT_TRUE(summary.best_valid());
  if (summary.has_ground_energy()) {
    EXPECT_EQ(summary.best_energy(), summary.ground_energy());
  }
  std::string board;
  for (int v : summary.best_solution().cells())
    board += static_cast<char>('0' + v);
  // The puzzle's unique solution (tests/data/takuzu/puzzles.txt).
  EXPECT_EQ(board, "010101010011101010100101011010101100");
}

}  // namespace
}  // namespace qs
