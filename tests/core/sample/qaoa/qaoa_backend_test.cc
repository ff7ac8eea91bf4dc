// The "qaoa" backend through the solve engine and directly: given angles run
// without optimisation and report the simulator's <C>; optimised angles lower
// <C> below the linear ramp's and find small ground states; seeds; memory
// limits refused with RESOURCE_EXHAUSTED naming them; a cancel stops the
// optimiser at the next layer; Hubo problems and the XY mixer.
#include "core/sample/qaoa/qaoa_backend.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/backend/param_schema.h"
#include "core/backend/registry.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/qaoa/angles.h"
#include "core/qaoa/statevector.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "core/solve/wire.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/testing/source_files.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

// 2^16 amplitudes: at most 16 qubits.
constexpr int64_t kMemory = kQaoaBytesPerAmplitude << 16;

class QaoaBackendTest : public ::testing::Test {
 protected:
  QaoaBackendTest() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    options.qaoa_max_memory_bytes = kMemory;
    EXPECT_OK(RegisterBuiltinBackends(backends_, options));
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &backends_,
                                            SolveLimits());
  }

  struct Run {
    absl::Status status;
    std::vector<v1::SampleEvent> samples;
    v1::SolveSummary summary;
  };
  Run Solve(const v1::SolveRequest& request) {
    Run run;
    Interrupter interrupter;
    run.status =
        engine_->Solve(request, interrupter, [&](v1::SolveResponse&& event) {
          if (event.has_sample()) run.samples.push_back(event.sample());
          if (event.has_summary()) run.summary = event.summary();
        });
    return run;
  }
  const Backend& backend() const { return **backends_.Get("qaoa", "backend"); }

  WorkerPool pool_;
  BackendRegistry backends_;
  std::unique_ptr<SolveEngine> engine_;
};

v1::SolveRequest QuboRequest(int n, uint64_t seed) {
  v1::SolveRequest request;
  v1::QuboModel& q = *request.mutable_puzzle()->mutable_qubo();
  q.set_num_variables(n);
  q.set_offset(2.5);
  Xoshiro256 rng(seed);
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j) {
      if (i != j && rng.NextBelow(3) != 0) continue;
      q.add_i(i);
      q.add_j(j);
      q.add_w(static_cast<double>(static_cast<int>(rng.NextBelow(9)) - 4));
    }
  }
  request.mutable_params()->set_backend("qaoa");
  request.mutable_params()->set_num_reads(200);
  request.mutable_params()->set_seed(5);
  return request;
}

CompiledProblem CompileQubo(const v1::SolveRequest& request) {
  v1::CompileOptions none;
  auto problem = (*BuiltinCompilers().ForSpec(request.puzzle()))
                     ->Compile(request.puzzle(), none);
  EXPECT_OK(problem.status());
  return *std::move(problem);
}

TEST_F(QaoaBackendTest, GivenAnglesRunWithoutOptimisation) {
  v1::SolveRequest request = QuboRequest(8, 1);
  v1::QaoaParams& q = *request.mutable_params()->mutable_qaoa();
  for (double g : {0.1, 0.2}) q.add_gammas(g);
  for (double b : {0.5, 0.3}) q.add_betas(b);
  const Run run = Solve(request);
  ASSERT_OK(run.status);
  const v1::QaoaInfo& info = run.summary.backend().qaoa();
  EXPECT_EQ(info.layers(), 2u);
  EXPECT_EQ(info.trace_size(), 0);
  EXPECT_EQ(info.iterations(), 0u);
  EXPECT_EQ(info.qubits(), 8u);
  EXPECT_EQ(info.mixer(), v1::QAOA_MIXER_X);
  // The simulator at the same angles, offset included.
  const CompiledProblem problem = CompileQubo(request);
  auto cost = PhasePolynomialFromQubo(problem.model);
  ASSERT_OK(cost.status());
  auto sim = QaoaStatevector::Create(*cost, {}, nullptr);
  ASSERT_OK(sim.status());
  ASSERT_TRUE((*sim)->Run(std::vector<double>{0.1, 0.2},
                          std::vector<double>{0.5, 0.3}, nullptr));
  EXPECT_NEAR(info.expectation(), (*sim)->Expectation(), 1e-9);
  uint64_t reads = 0;
  for (const v1::SampleEvent& s : run.samples) reads += s.num_occurrences();
  EXPECT_EQ(reads, 200u);
  EXPECT_EQ(run.summary.reads_done(), 200u);
}

TEST_F(QaoaBackendTest, OptimisedAnglesImproveOnTheLinearRamp) {
  v1::SolveRequest request = QuboRequest(8, 2);
  request.mutable_params()->mutable_qaoa()->set_layers(2);
  for (v1::QaoaOptimizer optimizer : {v1::NELDER_MEAD, v1::BOBYQA}) {
    request.mutable_params()->mutable_qaoa()->set_optimizer(optimizer);
    const Run run = Solve(request);
    ASSERT_OK(run.status);
    const v1::QaoaInfo& info = run.summary.backend().qaoa();
    ASSERT_GT(info.trace_size(), 1) << optimizer;
    EXPECT_EQ(info.optimizer(), optimizer);
    EXPECT_EQ(info.iterations(), static_cast<uint32_t>(info.trace_size()));
    // The first evaluation is the linear ramp; the result is the trace's best.
    EXPECT_LT(info.expectation(), info.trace(0) - 1e-6) << optimizer;
    EXPECT_NEAR(info.expectation(),
                *std::min_element(info.trace().begin(), info.trace().end()),
                1e-9);
  }
}

TEST_F(QaoaBackendTest, TheSameSeedGivesTheSameSamples) {
  v1::SolveRequest request = QuboRequest(10, 3);
  auto by_read = [](const Run& run) {
    std::map<uint32_t, std::string> m;
    for (const auto& s : run.samples)
      m[s.read_index()] = absl::StrCat(s.bits(), "/", s.num_occurrences());
    return m;
  };
  const auto first = by_read(Solve(request));
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(by_read(Solve(request)), first);
  request.mutable_params()->set_seed(6);
  EXPECT_NE(by_read(Solve(request)), first);
}

TEST_F(QaoaBackendTest, ModelsOverTheMemoryLimitAreRefused) {
  EXPECT_EQ(backend().capabilities().max_variables, 16);
  const Run run = Solve(QuboRequest(17, 1));
  EXPECT_THAT(run.status,
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("16")));
  // A Hubo problem (whose QUBO is empty) is checked by the backend itself.
  CompiledProblem problem;
  Hubo h;
  h.num_variables = 20;
  h.terms.push_back({{0, 1, 19}, 1.0});
  problem.higher_order = h;
  v1::SolveParams params;
  BackendJob job;
  job.problem = &problem;
  job.params = &params;
  testing::CollectingSink sink;
  Interrupter interrupter;
  EXPECT_THAT(backend().Solve(job, sink, interrupter).status(),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       ::testing::AllOf(HasSubstr("20 qubits"),
                                        HasSubstr("limit of 1 MiB"))));
}

TEST_F(QaoaBackendTest, ACancelStopsTheOptimiserAtTheNextLayer) {
  const v1::SolveRequest request = QuboRequest(12, 4);
  const CompiledProblem problem = CompileQubo(request);
  v1::SolveParams params;
  params.mutable_qaoa()->set_layers(4);
  params.mutable_qaoa()->set_max_iterations(10000);
  BackendJob job;
  job.problem = &problem;
  job.params = &params;
  job.num_reads = 10;
  // The cancel arrives at the 37th poll, in the middle of an evaluation.
  std::atomic<int> polls{0};
  Interrupter interrupter;
  interrupter.SetCancelCheck([&] { return ++polls >= 37; });
  testing::CollectingSink sink;
  auto result = backend().Solve(job, sink, interrupter);
  ASSERT_OK(result.status());
  EXPECT_EQ(result->stop_reason, StopReason::kCancelled);
  // Stopped at the poll that saw it: no layer ran after the cancel.
  EXPECT_EQ(polls.load(), 37);
  EXPECT_TRUE(sink.SortedByRead().empty());
}

TEST_F(QaoaBackendTest, SolvesAHuboAndScoresItsEnergies) {
  CompiledProblem problem;
  Hubo h;
  h.num_variables = 5;
  h.offset = 1;
  // Ground state x = 11100: -3 from the triple, +0 elsewhere.
  h.terms.push_back({{0, 1, 2}, -3});
  h.terms.push_back({{3}, 1});
  h.terms.push_back({{4}, 1});
  h.terms.push_back({{0, 3, 4}, 2});
  problem.higher_order = h;
  problem.ground_energy = -2;
  v1::SolveParams params;
  params.mutable_qaoa()->set_layers(3);
  BackendJob job;
  job.problem = &problem;
  job.params = &params;
  job.num_reads = 300;
  job.seed = 1;
  testing::CollectingSink sink;
  Interrupter interrupter;
  auto result = backend().Solve(job, sink, interrupter);
  ASSERT_OK(result.status());
  for (const Sample& s : sink.SortedByRead())
    EXPECT_DOUBLE_EQ(s.energy, h.Energy(s.bits));
  EXPECT_DOUBLE_EQ(sink.BestEnergy(), -2);
  EXPECT_GT(result->info.qaoa().ground_probability(), 0.1);
}

TEST_F(QaoaBackendTest, XyMixerKeepsTheGroupsOneHot) {
  CompiledProblem problem = CompileQubo(QuboRequest(9, 7));
  v1::SolveParams params;
  params.mutable_qaoa()->set_mixer(v1::QAOA_MIXER_XY);
  BackendJob job;
  job.problem = &problem;
  job.params = &params;
  job.num_reads = 100;
  testing::CollectingSink sink;
  Interrupter interrupter;
  EXPECT_THAT(backend().Solve(job, sink, interrupter).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.qaoa.mixer")));
  problem.one_hot_groups = {{0, 1, 2}, {3, 4, 5}, {6, 7}};
  auto result = backend().Solve(job, sink, interrupter);
  ASSERT_OK(result.status());
  EXPECT_EQ(result->info.qaoa().mixer(), v1::QAOA_MIXER_XY);
  for (const Sample& s : sink.SortedByRead()) {
    EXPECT_EQ(s.bits[0] + s.bits[1] + s.bits[2], 1);
    EXPECT_EQ(s.bits[3] + s.bits[4] + s.bits[5], 1);
    EXPECT_EQ(s.bits[6] + s.bits[7], 1);
  }
}

// Queens rows and columns overlap: the ring mixers take the rows (the first
// disjoint groups), so every sample keeps one queen per row, and the mixer
// raises the share of valid 4-queens boards over the X mixer's.
TEST_F(QaoaBackendTest, XyMixerTakesDisjointGroupsOfOverlappingOnes) {
  auto valid_share = [&](v1::QaoaMixer mixer) {
    v1::SolveRequest request;
    request.mutable_puzzle()->mutable_queens()->set_rows(4);
    request.mutable_params()->set_backend("qaoa");
    request.mutable_params()->set_seed(1);
    request.mutable_params()->set_num_reads(1000);
    request.mutable_params()->mutable_qaoa()->set_layers(3);
    request.mutable_params()->mutable_qaoa()->set_mixer(mixer);
    const Run run = Solve(request);
    EXPECT_OK(run.status);
    for (const v1::SampleEvent& sample : run.samples) {
      if (mixer != v1::QAOA_MIXER_XY) break;
      auto bits = UnpackBits(sample.bits(), sample.num_variables());
      EXPECT_OK(bits.status());
      if (!bits.ok()) break;
      for (int row = 0; row < 4; ++row) {
        EXPECT_EQ((*bits)[4 * row] + (*bits)[4 * row + 1] +
                      (*bits)[4 * row + 2] + (*bits)[4 * row + 3],
                  1);
      }
    }
    return run.summary.success_fraction();
  };
  const double x = valid_share(v1::QAOA_MIXER_X);
  const double xy = valid_share(v1::QAOA_MIXER_XY);
  EXPECT_GT(xy, 2 * x) << "x " << x << " xy " << xy;
}

// The summary weighs the valid boards of the final state: on 4-queens they
// are exactly the ground states; an empty 4x4 Takuzu with unique lines has
// ground states that repeat a row or a column, which are not valid boards.
TEST_F(QaoaBackendTest, ReportsTheProbabilityOfTheValidBoards) {
  auto summary_of = [&](v1::PuzzleSpec puzzle) {
    v1::SolveRequest request;
    *request.mutable_puzzle() = std::move(puzzle);
    request.mutable_params()->set_backend("qaoa");
    request.mutable_params()->set_seed(3);
    request.mutable_params()->set_num_reads(100);
    for (double g : {0.2, 0.4})
      request.mutable_params()->mutable_qaoa()->add_gammas(g);
    for (double b : {0.5, 0.3})
      request.mutable_params()->mutable_qaoa()->add_betas(b);
    const Run run = Solve(request);
    EXPECT_OK(run.status);
    return run.summary.backend().qaoa();
  };
  v1::PuzzleSpec queens;
  queens.mutable_queens()->set_rows(4);
  const v1::QaoaInfo q = summary_of(queens);
  ASSERT_TRUE(q.has_ground_probability());
  ASSERT_TRUE(q.has_valid_probability());
  EXPECT_GT(q.valid_probability(), 0);
  EXPECT_NEAR(q.valid_probability(), q.ground_probability(), 1e-12);

  v1::PuzzleSpec takuzu;
  takuzu.mutable_takuzu()->set_rows(4);
  takuzu.mutable_takuzu()->set_cols(4);
  takuzu.mutable_takuzu()->set_unique_lines(true);
  const v1::QaoaInfo t = summary_of(takuzu);
  ASSERT_TRUE(t.has_ground_probability());
  ASSERT_TRUE(t.has_valid_probability());
  EXPECT_GT(t.valid_probability(), 0);
  EXPECT_LT(t.valid_probability(), t.ground_probability() - 1e-6);
}

TEST_F(QaoaBackendTest, BadParametersNameTheField) {
  v1::SolveRequest request = QuboRequest(4, 1);
  v1::QaoaParams& q = *request.mutable_params()->mutable_qaoa();
  q.add_gammas(0.1);
  EXPECT_THAT(engine_->CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.qaoa.betas")));
  q.add_betas(0.1);
  q.set_layers(2);
  EXPECT_THAT(engine_->CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.qaoa.gammas")));
  q.set_layers(1);
  q.set_optimizer(v1::COBYLA);
  EXPECT_THAT(engine_->CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.qaoa.optimizer")));
  q.set_optimizer(v1::BOBYQA);
  q.set_max_iterations(1u << 30);
  EXPECT_THAT(engine_->CheckSolveRequest(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.qaoa.max_iterations")));
}

// The default depth is the literal QaoaParams.layers' option states (the
// code reads it there, angles.cc): a request without layers or angles runs
// that many, and the circuit export's comment points to it.
TEST_F(QaoaBackendTest, DefaultLayersAreTheOnesTheOptionStates) {
  const std::optional<double> stated =
      LiteralDefault(*v1::QaoaParams::descriptor()->FindFieldByName("layers"));
  ASSERT_TRUE(stated.has_value());
  const int layers = static_cast<int>(*stated);
  const std::string proto = testing::ReadSourceFile("proto/qs/v1/solve.proto");
  EXPECT_NE(proto.find("Layers p; 0 means QaoaParams.layers' default"),
            std::string::npos)
      << "QaoaCircuitOptions.layers' comment states its own default";

  // And a request without layers or angles runs that many.
  v1::SolveRequest request = QuboRequest(6, 3);
  request.mutable_params()->mutable_qaoa()->set_max_iterations(1);
  const Run run = Solve(request);
  ASSERT_OK(run.status);
  EXPECT_EQ(run.summary.backend().qaoa().layers(),
            static_cast<uint32_t>(layers));
}

}  // namespace
}  // namespace qs
