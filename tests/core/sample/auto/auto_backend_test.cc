// The "auto" backend through the solve engine: every way a race ends (a valid
// board, INFEASIBLE, the target energy, a proven optimum, agreeing rounds,
// the time limit, a cancel, a deadline), the exact-engine modes (EXACT_OFF
// never runs sat, EXACT_PROOF_ONLY never takes its board), solved_by and the
// raced backends' shares, its parameter checks and its metrics.
#include "core/sample/auto/auto_backend.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/backend/registry.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/sample/auto/auto_plan.h"
#include "core/sample/cpu_sa/bitslice_kernel.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/instance_generators.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// The hard NYT Sudoku of 2024-01-08.
constexpr char kNyt[] =
    ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8....."
    "9...4..65..";

// No digit fits the last cell of the first row (its row holds 1-8, its
// column the 9), and no two givens clash.
std::string Infeasible() {
  std::string cells = "12345678" + std::string(73, '.');
  cells[4 * 9 + 8] = '9';
  return cells;
}

class Engine {
 public:
  static Engine& Get() {
    static Engine* const engine = new Engine();
    return *engine;
  }
  const SolveEngine& engine() const { return *engine_; }
  const BackendRegistry& registry() const { return registry_; }

 private:
  Engine() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_TRUE(RegisterBuiltinBackends(registry_, options).ok());
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &registry_,
                                            SolveLimits());
  }
  WorkerPool pool_;
  BackendRegistry registry_;
  std::unique_ptr<SolveEngine> engine_;
};

struct SolveRun {
  absl::Status status;
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
  const v1::AutoInfo& info() const { return summary.backend().auto_(); }
  std::set<std::string> raced() const {
    std::set<std::string> names;
    for (const v1::RacedBackend& r : info().raced()) names.insert(r.name());
    return names;
  }
  const v1::RacedBackend* Raced(const std::string& name) const {
    for (const v1::RacedBackend& r : info().raced())
      if (r.name() == name) return &r;
    return nullptr;
  }
};

SolveRun Solve(const v1::SolveRequest& request, Interrupter& interrupter) {
  SolveRun run;
  run.status = Engine::Get().engine().Solve(
      request, interrupter, [&](v1::SolveResponse&& event) {
        if (event.has_sample()) run.samples.push_back(event.sample());
        if (event.has_summary()) run.summary = event.summary();
      });
  return run;
}

SolveRun Solve(const v1::SolveRequest& request) {
  Interrupter interrupter;
  return Solve(request, interrupter);
}

v1::SolveRequest Sudoku(const std::string& text,
                        v1::AutoExact exact = v1::EXACT_RACE,
                        uint64_t seed = 1) {
  v1::SolveRequest request;
  auto spec = formats::ParseSudokuText(text);
  EXPECT_TRUE(spec.ok()) << spec.status();
  *request.mutable_puzzle() = *spec;
  request.mutable_params()->set_seed(seed);
  if (exact != v1::EXACT_RACE)
    request.mutable_params()->mutable_auto_()->set_exact(exact);
  return request;
}

// A random QUBO over n variables with integer weights in [-4, 4], one pair in
// `one_in` coupled.
v1::SolveRequest RandomQubo(int n, uint64_t seed, int one_in = 4) {
  v1::SolveRequest request;
  v1::QuboModel& q = *request.mutable_puzzle()->mutable_qubo();
  q.set_num_variables(n);
  Xoshiro256 rng(seed);
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j) {
      if (i != j && rng.Next() % one_in != 0) continue;
      q.add_i(i);
      q.add_j(j);
      q.add_w(static_cast<double>(static_cast<int>(rng.Next() % 9) - 4));
    }
  }
  request.mutable_params()->set_seed(seed);
  return request;
}

TEST(AutoBackendTest, IsTheDefaultBackend) {
  EXPECT_EQ(kDefaultBackend, kAutoBackend);
  const SolveRun run = Solve(Sudoku(kNyt));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.backend().name(), "auto");
}

TEST(AutoBackendTest, APuzzleEndsAtTheFirstValidBoard) {
  const SolveRun run = Solve(Sudoku(kNyt));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.termination(), v1::TARGET_REACHED);
  EXPECT_TRUE(run.summary.best_valid());
  EXPECT_EQ(run.info().rule(), "puzzle/sat-first");
  EXPECT_EQ(run.info().stop_rule(), "valid board");
  EXPECT_EQ(run.raced(), (std::set<std::string>{"sat", "pt"}));
  EXPECT_THAT((std::set<std::string>{"sat", "pt"}),
              Contains(run.summary.solved_by()));
  EXPECT_TRUE(run.info().has_first_valid_seconds());
  EXPECT_EQ(run.info().time_limit_seconds(), 10);
  double share = 0;
  for (const v1::RacedBackend& r : run.info().raced()) share += r.time_share();
  EXPECT_NEAR(share, 1, 1e-9);
  // Reads from both racers are numbered apart.
  std::set<uint32_t> indices;
  for (const v1::SampleEvent& s : run.samples)
    EXPECT_TRUE(indices.insert(s.read_index()).second);
}

TEST(AutoBackendTest, AnInfeasibleSudokuEndsInfeasible) {
  for (v1::AutoExact exact : {v1::EXACT_RACE, v1::EXACT_PROOF_ONLY}) {
    const SolveRun run = Solve(Sudoku(Infeasible(), exact));
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_EQ(run.summary.termination(), v1::INFEASIBLE);
    EXPECT_EQ(run.summary.exact().status(), v1::UNSATISFIABLE);
    EXPECT_EQ(run.info().stop_rule(), "infeasible");
    EXPECT_FALSE(run.summary.best_valid());
  }
}

TEST(AutoBackendTest, ExactOffNeverRunsSat) {
  const SolveRun run = Solve(Sudoku(kNyt, v1::EXACT_OFF));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_THAT(run.raced(), Not(Contains("sat")));
  EXPECT_TRUE(run.summary.best_valid());
  EXPECT_EQ(run.summary.solved_by(), "pt");
  EXPECT_FALSE(run.summary.has_exact());
}

TEST(AutoBackendTest, GroupMovesRunWhereGroupsExistUnlessTurnedOff) {
  const SolveRun on = Solve(Sudoku(kNyt, v1::EXACT_OFF));
  ASSERT_TRUE(on.status.ok()) << on.status;
  EXPECT_EQ(on.summary.backend().moves(), "pt: single-flip+one-hot-swap");

  v1::SolveRequest request = Sudoku(kNyt, v1::EXACT_OFF);
  request.mutable_params()->mutable_auto_()->set_group_moves(
      v1::GROUP_MOVES_OFF);
  request.mutable_params()->set_time_limit_seconds(2);
  const SolveRun off = Solve(request);
  ASSERT_TRUE(off.status.ok()) << off.status;
  EXPECT_EQ(off.summary.backend().moves(), "pt: single-flip");
  EXPECT_EQ(off.info().rule(), on.info().rule());
}

TEST(AutoBackendTest, ProofOnlyNeverTakesTheBoardFromSat) {
  // Sat answers first on this grid; the board must still come from pt.
  const SolveRun run = Solve(Sudoku(kNyt, v1::EXACT_PROOF_ONLY));
  ASSERT_TRUE(run.status.ok()) << run.status;
  ASSERT_NE(run.Raced("sat"), nullptr);
  EXPECT_FALSE(run.Raced("sat")->supplies_board());
  EXPECT_EQ(run.Raced("sat")->reads(), 0u);
  EXPECT_TRUE(run.summary.best_valid());
  EXPECT_EQ(run.summary.solved_by(), "pt");
}

TEST(AutoBackendTest, TheTimeLimitEndsAPuzzleWithNoBoard) {
  // Without sat nothing can prove the grid infeasible: the samplers restart
  // until the limit.
  v1::SolveRequest request = Sudoku(Infeasible(), v1::EXACT_OFF);
  request.mutable_params()->set_time_limit_seconds(0.3);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.termination(), v1::TIME_LIMIT);
  EXPECT_EQ(run.info().stop_rule(), "time limit");
  EXPECT_EQ(run.info().time_limit_seconds(), 0.3);
  EXPECT_FALSE(run.summary.best_valid());
  EXPECT_GT(run.summary.reads_done(), 0u);
}

TEST(AutoBackendTest, ACancelStopsTheRace) {
  Interrupter interrupter;
  std::thread stopper([&] {
    absl::SleepFor(absl::Milliseconds(50));
    interrupter.Interrupt(StopReason::kCancelled);
  });
  const SolveRun run = Solve(Sudoku(Infeasible(), v1::EXACT_OFF), interrupter);
  stopper.join();
  EXPECT_THAT(run.status, StatusIs(absl::StatusCode::kCancelled, ::testing::_));
  EXPECT_EQ(run.summary.termination(), v1::CANCELLED);
  EXPECT_EQ(run.info().stop_rule(), "stopped");
}

TEST(AutoBackendTest, ADeadlineStopsTheRace) {
  Interrupter interrupter;
  interrupter.SetDeadline(absl::Now() + absl::Milliseconds(50),
                          StopReason::kDeadline);
  const SolveRun run = Solve(Sudoku(Infeasible(), v1::EXACT_OFF), interrupter);
  EXPECT_THAT(run.status,
              StatusIs(absl::StatusCode::kDeadlineExceeded, ::testing::_));
  EXPECT_EQ(run.summary.termination(), v1::DEADLINE);
}

TEST(AutoBackendTest, ARawModelStopsAtItsTargetEnergy) {
  v1::SolveRequest request = RandomQubo(80, 3, /*one_in=*/40);
  // The energy one plain round of tabu reaches, above the optimum or at it.
  v1::SolveRequest tabu = request;
  tabu.mutable_params()->set_backend("tabu");
  tabu.mutable_params()->set_num_reads(5);
  const SolveRun reference = Solve(tabu);
  ASSERT_TRUE(reference.status.ok()) << reference.status;
  request.mutable_params()->set_target_energy(reference.summary.best_energy() +
                                              2);
  request.mutable_params()->mutable_auto_()->set_exact(v1::EXACT_OFF);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.termination(), v1::TARGET_REACHED);
  EXPECT_EQ(run.info().stop_rule(), "target energy");
  EXPECT_LE(run.summary.best_energy(), reference.summary.best_energy() + 2);
  EXPECT_EQ(run.info().rule(), "raw/sparse");
  EXPECT_FALSE(run.summary.solved_by().empty());
}

TEST(AutoBackendTest, ASmallRawModelStopsAtItsProvenOptimum) {
  for (v1::AutoExact exact : {v1::EXACT_RACE, v1::EXACT_PROOF_ONLY}) {
    v1::SolveRequest request = RandomQubo(16, 5);
    request.mutable_params()->mutable_auto_()->set_exact(exact);
    const SolveRun run = Solve(request);
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_EQ(run.summary.termination(), v1::TARGET_REACHED);
    EXPECT_EQ(run.info().stop_rule(), "proven optimum");
    ASSERT_TRUE(run.info().has_proven_optimum());
    EXPECT_EQ(run.summary.best_energy(), run.info().proven_optimum());
    EXPECT_EQ(run.info().rule(), "raw/small");
    if (exact == v1::EXACT_PROOF_ONLY) {
      EXPECT_EQ(run.summary.solved_by(), "tabu");
    }
  }
}

TEST(AutoBackendTest, ARawModelEndsAfterAgreeingRounds) {
  v1::SolveRequest request = RandomQubo(60, 7);
  v1::AutoParams& a = *request.mutable_params()->mutable_auto_();
  a.set_exact(v1::EXACT_OFF);
  a.set_agreeing_rounds(2);
  request.mutable_params()->set_num_reads(10);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.termination(), v1::COMPLETED);
  EXPECT_EQ(run.info().stop_rule(), "agreeing rounds");
  int rounds = 0;
  for (const v1::RacedBackend& r : run.info().raced()) rounds += r.rounds();
  EXPECT_GE(rounds, 2);
}

// An assignment model in LP form: 4 facilities on 4 locations at the costs
// below, each facility's row and each location's column exactly one (the
// optimum, 5: facility 0 on 1, 1 on 0... found by enumeration).
v1::SolveRequest Assignment() {
  constexpr int kCost[4][4] = {
      {4, 1, 3, 2}, {2, 0, 5, 3}, {3, 2, 2, 4}, {1, 3, 4, 2}};
  std::string objective, rows, binaries;
  for (int i = 0; i < 4; ++i) {
    std::string row, col;
    for (int k = 0; k < 4; ++k) {
      absl::StrAppend(&objective, " + ", kCost[i][k], " x", i, k);
      absl::StrAppend(&row, k > 0 ? " + " : "", "x", i, k);
      absl::StrAppend(&col, k > 0 ? " + " : "", "x", k, i);
      absl::StrAppend(&binaries, " x", i, k);
    }
    absl::StrAppend(&rows, " f", i, ": ", row, " = 1\n l", i, ": ", col,
                    " = 1\n");
  }
  v1::SolveRequest request;
  v1::ConstrainedModel& model = *request.mutable_puzzle()->mutable_model();
  model.set_text(absl::StrCat("Minimize\n obj:", objective, "\nSubject To\n",
                              rows, "Binaries\n", binaries, "\nEnd\n"));
  model.set_format(v1::MODEL_FORMAT_LP);
  request.mutable_params()->set_seed(5);
  request.mutable_params()->set_time_limit_seconds(2);
  request.mutable_params()->mutable_auto_()->set_exact(v1::EXACT_OFF);
  return request;
}

// Every variable of an assignment model lies in its permutation block: pt
// and cpu-sa race, both with the moves that keep the rows and columns;
// without group moves the plan is the one of a model without groups.
TEST(AutoBackendTest, AnAssignmentModelRacesTheSamplersThatKeepItsBlocks) {
  const SolveRun on = Solve(Assignment());
  ASSERT_TRUE(on.status.ok()) << on.status;
  EXPECT_EQ(on.info().rule(), "model/blocks");
  EXPECT_EQ(on.raced(), (std::set<std::string>{"pt", "cpu-sa"}));
  EXPECT_EQ(on.summary.backend().moves(),
            "pt: two-way-exchange; cpu-sa: two-way-exchange");
  EXPECT_TRUE(on.summary.best_valid());
  EXPECT_EQ(on.summary.best_energy(), 5);

  v1::SolveRequest request = Assignment();
  request.mutable_params()->mutable_auto_()->set_group_moves(
      v1::GROUP_MOVES_OFF);
  const SolveRun off = Solve(request);
  ASSERT_TRUE(off.status.ok()) << off.status;
  EXPECT_EQ(off.info().rule(), "model/tabu-first");
  EXPECT_TRUE(off.summary.best_valid());
}

// A Max-Cut graph of `n` nodes (n even) in n / 2 disjoint unit edges: every
// read of every round cuts them all (energy -n / 2), and it qualifies for
// cpu-sa's bit-sliced kernel.
v1::SolveRequest PerfectMatching(int n) {
  v1::SolveRequest request;
  v1::MaxCutPuzzle& graph = *request.mutable_puzzle()->mutable_maxcut();
  graph.set_num_nodes(n);
  for (int k = 0; k < n; k += 2) {
    graph.add_u(k);
    graph.add_v(k + 1);
    graph.add_w(1);
  }
  request.mutable_params()->set_seed(3);
  request.mutable_params()->mutable_auto_()->set_exact(v1::EXACT_OFF);
  return request;
}

TEST(AutoBackendTest, SmallIntegerModelsRunGrowingBitSlicedRounds) {
  v1::SolveRequest request = PerfectMatching(kBitSliceMinVariables);
  request.mutable_params()->mutable_auto_()->set_agreeing_rounds(2);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.info().rule(), "raw/multispin");
  EXPECT_EQ(run.raced(), std::set<std::string>{"cpu-sa"});
  EXPECT_EQ(run.info().stop_rule(), "agreeing rounds");
  EXPECT_EQ(run.summary.best_energy(), -kBitSliceMinVariables / 2);
  // Two rounds of a word per worker thread (2 here): the first's sweeps,
  // then twice as many.
  ASSERT_EQ(run.Raced("cpu-sa")->rounds(), 2u);
  EXPECT_EQ(AutoMultispinReads(2), 2u * kBitSliceLanes);
  EXPECT_EQ(run.summary.sweeps_done(), int64_t{AutoMultispinReads(2)} *
                                           kAutoMultispinFirstSweeps *
                                           (1 + kAutoMultispinSweepsGrowth));
}

// Dense graphs (the G1-G10 shape) start with a shorter first round. Here 8
// disjoint complete bipartite graphs K(32, 32): mean degree 32, every read
// cuts them all (each is a bipartite antiferromagnet, with no frustration).
TEST(AutoBackendTest, DenseGraphsStartWithAShorterRound) {
  constexpr int kSide = 32, kParts = 8;
  static_assert(2 * kSide * kParts >= kBitSliceMinVariables);
  static_assert(kSide >= kAutoMultispinShortStartDegree);
  v1::SolveRequest request;
  v1::MaxCutPuzzle& graph = *request.mutable_puzzle()->mutable_maxcut();
  graph.set_num_nodes(2 * kSide * kParts);
  for (int part = 0; part < kParts; ++part) {
    const int base = 2 * kSide * part;
    for (int a = 0; a < kSide; ++a) {
      for (int b = 0; b < kSide; ++b) {
        graph.add_u(base + a);
        graph.add_v(base + kSide + b);
        graph.add_w(1);
      }
    }
  }
  request.mutable_params()->set_seed(5);
  request.mutable_params()->mutable_auto_()->set_exact(v1::EXACT_OFF);
  request.mutable_params()->mutable_auto_()->set_agreeing_rounds(2);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.info().rule(), "raw/multispin");
  EXPECT_EQ(run.summary.best_energy(), -kParts * kSide * kSide);
  ASSERT_EQ(run.Raced("cpu-sa")->rounds(), 2u);
  EXPECT_EQ(run.summary.sweeps_done(), int64_t{AutoMultispinReads(2)} *
                                           kAutoMultispinShortFirstSweeps *
                                           (1 + kAutoMultispinSweepsGrowth));
}

TEST(AutoBackendTest, FirstRoundGrowsWithTheGraphAndShrinksWhenDense) {
  auto first_sweeps = [](int nodes, int64_t edges) {
    ModelFeatures f;
    f.variables = nodes;
    f.couplers = edges;
    return AutoMultispinFirstSweeps(f);
  };
  EXPECT_EQ(first_sweeps(800, 19176), kAutoMultispinShortFirstSweeps);  // G1
  EXPECT_EQ(first_sweeps(800, 4694), kAutoMultispinFirstSweeps);        // G14
  EXPECT_EQ(first_sweeps(1000, 9990), kAutoMultispinFirstSweeps);       // G43
  EXPECT_EQ(first_sweeps(2000, 19990), 1000u);                          // G22
  EXPECT_EQ(first_sweeps(7000, 17148), 3500u);                          // G60
}

TEST(AutoBackendTest, AgreeingRoundsDoNotEndARaceWithATarget) {
  v1::SolveRequest request = PerfectMatching(kBitSliceMinVariables);
  request.mutable_params()->mutable_auto_()->set_agreeing_rounds(1);
  // Below the optimum: only the time limit ends the race.
  request.mutable_params()->set_target_energy(-kBitSliceMinVariables);
  request.mutable_params()->set_time_limit_seconds(0.2);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.summary.termination(), v1::TIME_LIMIT);
  EXPECT_EQ(run.info().stop_rule(), "time limit");
  EXPECT_EQ(run.summary.best_energy(), -kBitSliceMinVariables / 2);
}

TEST(AutoBackendTest, BadParametersNameTheField) {
  v1::SolveRequest request = Sudoku(kNyt);
  request.mutable_params()->mutable_auto_()->set_agreeing_rounds(5000);
  EXPECT_THAT(Engine::Get().engine().CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.auto.agreeing_rounds")));
  // Another backend's message sent to auto by name is refused.
  request = Sudoku(kNyt);
  request.mutable_params()->set_backend("auto");
  request.mutable_params()->mutable_pt()->set_replicas(8);
  EXPECT_THAT(Engine::Get().engine().CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pt: parameters of another backend")));
  // Without a backend named, that message names its backend (pt's checks).
  request.mutable_params()->clear_backend();
  request.mutable_params()->mutable_pt()->set_replicas(100000);
  EXPECT_THAT(Engine::Get().engine().CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pt.replicas")));
}

class Recorder final : public MetricRecorder {
 public:
  void Record(absl::string_view name, const MetricLabels& labels,
              double value) override {
    std::string key(name);
    for (const auto& [k, v] : labels) key += "," + k + "=" + v;
    values[key] += value;
  }
  std::map<std::string, double> values;
};

TEST(AutoBackendTest, RecordsRacedBackendsWinnersAndTimeToValid) {
  const SolveRun run = Solve(Sudoku(kNyt));
  ASSERT_TRUE(run.status.ok()) << run.status;
  const Backend& backend = **Engine::Get().registry().Get("auto", "backend");
  Recorder recorder;
  backend.RecordMetrics(run.summary, "sudoku", recorder);
  // Raced: the backends that ran a round (pt waits out sat's head start).
  for (const v1::RacedBackend& r : run.info().raced()) {
    EXPECT_EQ(recorder.values["qs_auto_raced_total,backend=" + r.name() +
                              ",puzzle=sudoku"],
              r.rounds() > 0 ? 1 : 0)
        << r.name();
  }
  EXPECT_EQ(recorder.values["qs_auto_raced_total,backend=sat,puzzle=sudoku"],
            1);
  EXPECT_EQ(recorder.values["qs_auto_wins_total,backend=" +
                            run.summary.solved_by() + ",puzzle=sudoku"],
            1);
  EXPECT_EQ(recorder.values.count("qs_auto_first_valid_seconds,puzzle=sudoku"),
            1u);
  std::set<std::string> declared;
  for (const MetricSpec& spec : backend.Metrics()) declared.insert(spec.name);
  EXPECT_EQ(declared,
            (std::set<std::string>{"qs_auto_raced_total", "qs_auto_wins_total",
                                   "qs_auto_first_valid_seconds"}));
}

// A torus is a lattice: lns alone. With an odd number of rows every column
// is an odd ring that keeps one bond uncut, and rows of even length cut all
// theirs: the best cut of the 21 x 40 antiferromagnet is 2 n - 40.
TEST(AutoBackendTest, LatticesGoToLns) {
  v1::SolveRequest request;
  *request.mutable_puzzle() = formats::RandomToroidalGraph(21, 40, false, 1);
  request.mutable_params()->set_seed(3);
  request.mutable_params()->set_target_energy(-(2 * 21 * 40 - 40));
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.info().rule(), "raw/lattice");
  EXPECT_EQ(run.raced(), std::set<std::string>{"lns"});
  EXPECT_EQ(run.summary.termination(), v1::TARGET_REACHED);
  EXPECT_EQ(run.summary.best_energy(), -(2 * 21 * 40 - 40));

  // Without a target: rounds that go on from the best state, until two end
  // at it.
  request.mutable_params()->clear_target_energy();
  request.mutable_params()->mutable_auto_()->set_agreeing_rounds(2);
  const SolveRun rounds = Solve(request);
  ASSERT_TRUE(rounds.status.ok()) << rounds.status;
  EXPECT_EQ(rounds.info().stop_rule(), "agreeing rounds");
  EXPECT_GE(rounds.Raced("lns")->rounds(), 2u);
  EXPECT_EQ(rounds.summary.best_energy(), -(2 * 21 * 40 - 40));
}

// Rounds after the first go on from the race's best state
// (RacerPlan::resumes_from_best): lns keeps its start when it finds nothing
// better, so no read of a later round ends above the best of the first.
// Rounds from fresh random states would: one pass from a random state of a
// 48 x 48 spin glass ends far above where the rounds before got.
TEST(AutoBackendTest, LatticeRoundsGoOnFromTheBestState) {
  v1::SolveRequest request;
  *request.mutable_puzzle() = formats::RandomToroidalGraph(48, 48, true, 7);
  request.mutable_params()->set_seed(5);
  request.mutable_params()->set_num_sweeps(1);
  request.mutable_params()->set_time_limit_seconds(2);
  request.mutable_params()->mutable_auto_()->set_agreeing_rounds(4);
  const SolveRun run = Solve(request);
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.info().rule(), "raw/lattice");
  ASSERT_GE(run.Raced("lns")->rounds(), 4u);
  // The first round: one read per pool thread (the test engine's 2).
  ASSERT_GT(run.samples.size(), 2u);
  const double first =
      std::min(run.samples[0].energy(), run.samples[1].energy());
  for (size_t k = 2; k < run.samples.size(); ++k)
    EXPECT_LE(run.samples[k].energy(), first) << "read " << k;
}

}  // namespace
}  // namespace qs
