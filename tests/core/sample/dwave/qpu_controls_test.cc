// The QPU controls of the "dwave" backend end to end against the SAPI emulator
// (docs/dwave-protocol.md §6): spin-reversal transforms submit gauged copies of
// one embedded problem and still solve 5-queens, a reverse anneal submits the
// board on its chains (3 elsewhere) and comes back from it, schedules are
// refused before any submission, the refinement loop, h-gain and flux biases
// pass through, and QPU access time is summed in the answer and the metric.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/dwave/dwave_sampler.h"
#include "core/sample/dwave/sapi_client.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;
using json = nlohmann::json;

constexpr char kToken[] = "QPU-controls-token";
constexpr char kSolver[] = "Advantage_emulator_P16";

struct SolveOutcome {
  absl::Status status;
  v1::SolveSummary summary;
  std::vector<v1::SampleEvent> samples;
};

class RecordingMetrics final : public MetricRecorder {
 public:
  void Record(absl::string_view name, const MetricLabels& labels,
              double value) override {
    for (const auto& [key, label] : labels) {
      if (key == "solver") values[std::string(name)][label] += value;
    }
  }
  std::map<std::string, std::map<std::string, double>> values;
};

class QpuControlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.queue_delay = absl::ZeroDuration();
    options.run_time = absl::ZeroDuration();
    options.sweeps = 2000;
    emulator_ = new sapi_emulator::SapiEmulator(options);
    ASSERT_OK(emulator_->Start());
    pool_ = new WorkerPool(2);
    backends_ = new BackendRegistry();
    BackendOptions backend;
    backend.pool = pool_;
    backend.dwave.emplace();
    backend.dwave->endpoint = emulator_->endpoint();
    backend.dwave->token = kToken;
    backend.dwave->solver = kSolver;
    backend.dwave->poll_timeout_seconds = 1;
    ASSERT_OK(RegisterBuiltinBackends(*backends_, backend));
    engine_ = new SolveEngine(&BuiltinCompilers(), backends_, SolveLimits{});
  }
  static void TearDownTestSuite() {
    delete engine_;
    delete backends_;
    delete pool_;
    delete emulator_;
  }
  void SetUp() override { first_ = emulator_->Submissions().size(); }

  // The problems this test submitted.
  std::vector<sapi_emulator::SubmittedProblem> Submitted() const {
    std::vector<sapi_emulator::SubmittedProblem> all = emulator_->Submissions();
    return {all.begin() + static_cast<long>(first_), all.end()};
  }

  static v1::SolveRequest FiveQueens(int reads, uint64_t seed) {
    v1::SolveRequest request;
    request.mutable_puzzle()->mutable_queens()->set_rows(5);
    request.mutable_params()->set_backend("dwave");
    request.mutable_params()->set_num_reads(reads);
    request.mutable_params()->set_seed(seed);
    request.mutable_params()->set_max_sample_events(0);
    request.mutable_params()->mutable_dwave();
    return request;
  }

  static SolveOutcome Solve(const v1::SolveRequest& request) {
    Interrupter interrupter;
    SolveOutcome out;
    out.status =
        engine_->Solve(request, interrupter, [&](v1::SolveResponse&& event) {
          if (event.has_summary()) out.summary = event.summary();
          if (event.has_sample()) out.samples.push_back(event.sample());
        });
    return out;
  }

  static sapi_emulator::SapiEmulator* emulator_;
  static WorkerPool* pool_;
  static BackendRegistry* backends_;
  static SolveEngine* engine_;
  size_t first_ = 0;
};

sapi_emulator::SapiEmulator* QpuControlsTest::emulator_ = nullptr;
WorkerPool* QpuControlsTest::pool_ = nullptr;
BackendRegistry* QpuControlsTest::backends_ = nullptr;
SolveEngine* QpuControlsTest::engine_ = nullptr;

// The signs r with h_k = r h_0 and J_k = r r J_0, found along the couplers
// (each connected part anchored on a field); nullopt when there are none.
std::optional<std::map<int, int>> RelativeGauge(
    const dwave::PhysicalProblem& base, const dwave::PhysicalProblem& other) {
  if (base.linear.size() != other.linear.size() ||
      base.quadratic.size() != other.quadratic.size())
    return std::nullopt;
  std::map<std::pair<int, int>, double> j0, j1;
  std::map<int, std::vector<int>> adjacent;
  for (const auto& [e, j] : base.quadratic) {
    j0[std::minmax(e.first, e.second)] += j;
    if (j == 0) continue;  // an active coupler the problem does not use
    adjacent[e.first].push_back(e.second);
    adjacent[e.second].push_back(e.first);
  }
  for (const auto& [e, j] : other.quadratic)
    j1[std::minmax(e.first, e.second)] += j;
  // Roots with a field first: they fix their part's orientation.
  std::vector<int> roots;
  for (const auto& [q, h] : base.linear) {
    if (h != 0) roots.push_back(q);
  }
  for (const auto& [q, h] : base.linear) {
    if (h == 0) roots.push_back(q);
  }
  std::map<int, int> r;
  for (int root : roots) {
    const double h = base.linear.at(root);
    if (r.contains(root)) continue;
    r[root] = h != 0 && other.linear.at(root) == -h ? -1 : 1;
    std::vector<int> stack = {root};
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      for (int b : adjacent[a]) {
        if (r.contains(b)) continue;
        const auto key = std::minmax(a, b);
        r[b] = r[a] * (j1[key] == j0[key] ? 1 : -1);
        stack.push_back(b);
      }
    }
  }
  for (const auto& [q, h] : base.linear) {
    auto it = other.linear.find(q);
    if (it == other.linear.end() || it->second != r[q] * h) return std::nullopt;
  }
  for (const auto& [key, j] : j0) {
    if (!j1.contains(key) || j1[key] != r[key.first] * r[key.second] * j)
      return std::nullopt;
  }
  return r;
}

TEST_F(QpuControlsTest, FourTransformsSubmitFourGaugesOfOneProblem) {
  v1::SolveRequest request = FiveQueens(400, 3);
  request.mutable_params()->mutable_dwave()->set_num_spin_reversal_transforms(
      4);
  const SolveOutcome out = Solve(request);
  ASSERT_OK(out.status);
  EXPECT_EQ(out.summary.reads_done(), 400u);
  EXPECT_TRUE(out.summary.best_valid());
  EXPECT_GT(out.summary.num_valid(), 0u);

  const std::vector<sapi_emulator::SubmittedProblem> problems = Submitted();
  ASSERT_EQ(problems.size(), 4u);
  std::set<std::vector<std::pair<int, int>>> gauges;
  for (const auto& p : problems) {
    EXPECT_EQ(json::parse(p.params_json)["num_reads"], 100);
    auto r = RelativeGauge(problems[0].problem, p.problem);
    ASSERT_TRUE(r.has_value())
        << "problem " << p.id << " is not a gauge of the first one";
    gauges.insert({r->begin(), r->end()});
  }
  EXPECT_EQ(gauges.size(), 4u);  // four different flip vectors

  const v1::DwaveInfo& d = out.summary.backend().dwave();
  EXPECT_EQ(d.num_spin_reversal_transforms(), 4u);
  EXPECT_EQ(d.num_problems(), 4u);
  ASSERT_EQ(d.problems_size(), 4);
  EXPECT_EQ(d.chain_break_fraction_per_transform_size(), 4);
  double access = 0;
  std::set<uint32_t> transforms;
  for (const v1::DwaveProblemInfo& p : d.problems()) {
    EXPECT_EQ(p.num_reads(), 100u);
    EXPECT_GT(p.qpu_access_time_us(), 0);
    EXPECT_GT(p.qpu_programming_time_us(), 0);
    EXPECT_GT(p.qpu_sampling_time_us(), 0);
    access += p.qpu_access_time_us();
    transforms.insert(p.transform());
  }
  EXPECT_EQ(transforms, (std::set<uint32_t>{0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(d.qpu_access_time_us(), access);

  // The metric counts the same microseconds for the solver.
  const Backend* backend = backends_->Find("dwave");
  ASSERT_NE(backend, nullptr);
  RecordingMetrics metrics;
  backend->RecordMetrics(out.summary, "queens", metrics);
  EXPECT_DOUBLE_EQ(
      metrics.values["qs_dwave_qpu_access_microseconds_total"][kSolver],
      access);
  EXPECT_EQ(metrics.values["qs_dwave_problems_total"][kSolver], 4);
}

TEST_F(QpuControlsTest, ReverseAnnealStartsFromTheBoardOnItsChains) {
  // A valid board from a forward anneal.
  const SolveOutcome forward = Solve(FiveQueens(50, 5));
  ASSERT_OK(forward.status);
  std::string board;
  for (const v1::SampleEvent& s : forward.samples) {
    if (s.valid()) board = s.bits();
  }
  ASSERT_FALSE(board.empty());

  // Reverse from it with two gauges along a schedule that stays at s = 1: the
  // emulator keeps a local minimum, so every read is that board.
  v1::SolveRequest request = FiveQueens(40, 6);
  request.mutable_params()->add_initial_states(board);
  v1::DwaveParams* d = request.mutable_params()->mutable_dwave();
  d->set_reverse_anneal(true);
  d->set_reinitialize_state(true);
  d->set_num_spin_reversal_transforms(2);
  for (auto [t, s] : {std::pair{0.0, 1.0}, {10.0, 1.0}}) {
    v1::AnnealPoint* p = d->add_anneal_schedule();
    p->set_time_us(t);
    p->set_s(s);
  }
  const SolveOutcome out = Solve(request);
  ASSERT_OK(out.status);
  ASSERT_FALSE(out.samples.empty());
  for (const v1::SampleEvent& s : out.samples) {
    EXPECT_EQ(s.bits(), board);
    EXPECT_TRUE(s.valid());
  }
  EXPECT_TRUE(out.summary.backend().dwave().reverse_anneal());

  const auto problems = Submitted();
  ASSERT_EQ(problems.size(), 3u);  // the forward anneal, then two gauges
  for (size_t k = 1; k < problems.size(); ++k) {
    const json params = json::parse(problems[k].params_json);
    ASSERT_TRUE(params.contains("initial_state"));
    EXPECT_EQ(params["reinitialize_state"], true);
    EXPECT_EQ(params["anneal_schedule"], json::parse("[[0.0,1.0],[10.0,1.0]]"));
    EXPECT_FALSE(params.contains("annealing_time"));
    const json& state = params["initial_state"];
    EXPECT_EQ(state.size(), 5760u);  // num_qubits of P16
    const dwave::PhysicalProblem& p = problems[k].problem;
    for (size_t q = 0; q < state.size(); ++q) {
      if (p.linear.contains(static_cast<int>(q))) {
        EXPECT_TRUE(state[q] == 1 || state[q] == -1) << "qubit " << q;
      } else {
        EXPECT_EQ(state[q], 3) << "unused qubit " << q;
      }
    }
    // A chain's qubits agree once the gauge is undone: the chain couplers
    // (the strongest) see s_p s_q = -sign(J_pq).
    double strongest = 0;
    for (const auto& [e, j] : p.quadratic)
      strongest = std::max(strongest, std::abs(j));
    for (const auto& [e, j] : p.quadratic) {
      if (std::abs(j) < strongest * (1 - 1e-9)) continue;
      const int product =
          state[e.first].get<int>() * state[e.second].get<int>();
      EXPECT_EQ(product, j < 0 ? 1 : -1)
          << "chain coupler " << e.first << "-" << e.second;
    }
  }
}

TEST_F(QpuControlsTest, BadSchedulesAreRefusedBeforeAnySubmission) {
  const int posts = emulator_->CountRequests("submit", "POST");
  auto with_schedule = [](std::vector<std::pair<double, double>> points) {
    v1::SolveRequest request = FiveQueens(10, 1);
    for (auto [t, s] : points) {
      v1::AnnealPoint* p =
          request.mutable_params()->mutable_dwave()->add_anneal_schedule();
      p->set_time_us(t);
      p->set_s(s);
    }
    return request;
  };
  // 13 points: over the emulated solver's max_anneal_schedule_points of 12.
  std::vector<std::pair<double, double>> many;
  for (int k = 0; k < 12; ++k) many.push_back({k * 10.0, k * 0.05});
  many.push_back({130, 1});
  EXPECT_THAT(Solve(with_schedule(many)).status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.dwave.anneal_schedule[12]: the "
                                 "schedule has 13 points")));
  // A quench steeper than 1 / 0.5 µs.
  EXPECT_THAT(Solve(with_schedule({{0, 0}, {20, 0.4}, {20.1, 1}})).status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.dwave.anneal_schedule[2]: slope")));
  // Exclusive with annealing_time_us, refused by the parameter check.
  v1::SolveRequest both = with_schedule({{0, 0}, {20, 1}});
  both.mutable_params()->mutable_dwave()->set_annealing_time_us(20);
  EXPECT_THAT(Solve(both).status, StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("mutually exclusive")));
  // A reverse anneal without a start.
  v1::SolveRequest reverse = with_schedule({{0, 1}, {5, 0.5}, {10, 1}});
  reverse.mutable_params()->mutable_dwave()->set_reverse_anneal(true);
  EXPECT_THAT(Solve(reverse).status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.initial_states")));
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), posts);
}

TEST_F(QpuControlsTest, RefinementReverseAnnealsFromTheBestSample) {
  v1::SolveRequest request = FiveQueens(30, 9);
  request.mutable_params()->mutable_dwave()->set_refine_rounds(2);
  const SolveOutcome out = Solve(request);
  ASSERT_OK(out.status);
  EXPECT_EQ(out.summary.reads_done(), 90u);
  EXPECT_TRUE(out.summary.best_valid());
  const v1::DwaveInfo& d = out.summary.backend().dwave();
  EXPECT_EQ(d.rounds(), 3u);
  EXPECT_EQ(d.num_problems(), 3u);
  const auto problems = Submitted();
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_FALSE(json::parse(problems[0].params_json).contains("initial_state"));
  for (size_t k = 1; k < 3; ++k) {
    const json params = json::parse(problems[k].params_json);
    EXPECT_TRUE(params.contains("initial_state"));
    EXPECT_EQ(params["anneal_schedule"][0][1], 1.0);
    EXPECT_EQ(d.problems(static_cast<int>(k)).round(), k);
  }
}

TEST_F(QpuControlsTest, GainScheduleAndFluxBiasesPassThrough) {
  // Its reduced model has as many variables as the header reports.
  v1::SolveRequest request = FiveQueens(20, 4);
  v1::SolveHeader header;
  Interrupter interrupter;
  ASSERT_OK(engine_->Solve(request, interrupter, [&](v1::SolveResponse&& e) {
    if (e.has_header()) header = e.header();
  }));
  const int n = static_cast<int>(header.stats().variables());
  ASSERT_GT(n, 0);
  first_ = emulator_->Submissions().size();
  v1::DwaveParams* d = request.mutable_params()->mutable_dwave();
  for (int v = 0; v < n; ++v) d->add_flux_biases(v == 0 ? 0.001 : 0.0);
  for (auto [t, g] : {std::pair{0.0, 1.0}, {10.0, 0.5}, {20.0, 1.0}}) {
    v1::GainPoint* p = d->add_h_gain_schedule();
    p->set_time_us(t);
    p->set_g(g);
  }
  ASSERT_OK(Solve(request).status);
  const auto problems = Submitted();
  ASSERT_EQ(problems.size(), 1u);
  const json params = json::parse(problems[0].params_json);
  EXPECT_EQ(params["h_gain_schedule"],
            json::parse("[[0.0,1.0],[10.0,0.5],[20.0,1.0]]"));
  ASSERT_EQ(params["flux_biases"].size(), 5760u);
  int biased = 0;
  for (const json& b : params["flux_biases"]) biased += b != 0.0;
  EXPECT_GE(biased, 1);  // the first variable's chain

  d->clear_flux_biases();
  d->add_flux_biases(0.1);
  EXPECT_THAT(Solve(request).status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.dwave.flux_biases: has 1 values")));
  d->clear_flux_biases();
  d->mutable_h_gain_schedule(1)->set_g(9);
  EXPECT_THAT(Solve(request).status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.dwave.h_gain_schedule[1]: g = 9")));
}

// The emulator refuses what SAPI refuses, with SAPI's texts, when a client
// sends it anyway.
TEST_F(QpuControlsTest, EmulatorChecksSchedulesWithSapiTexts) {
  dwave::SapiClientOptions http;
  http.endpoint = emulator_->endpoint();
  http.token = kToken;
  auto client = dwave::NewCurlSapiClient(http);
  dwave::CallContext ctx{absl::Now() + absl::Seconds(10), nullptr};
  auto solver = client->GetSolver("FAKE_k4", ctx);
  ASSERT_OK(solver);
  EXPECT_EQ(solver->max_anneal_schedule_points, 12);
  dwave::PhysicalProblem problem;
  problem.linear = {{0, 1.0}, {1, -1.0}};
  problem.quadratic = {{{0, 1}, 0.5}};
  auto data = dwave::EncodeQp(problem, solver->qubits, solver->couplers);
  ASSERT_OK(data);
  auto submit = [&](const std::string& params) -> std::string {
    dwave::ProblemJob job;
    job.solver_identity_json = solver->identity_json;
    job.data = *data;
    job.params_json = params;
    auto items = client->Submit({job}, ctx);
    if (!items.ok()) return std::string(items.status().message());
    if ((*items)[0].ok()) return "accepted";
    return std::string((*items)[0].status().message());
  };
  EXPECT_THAT(submit(R"({"anneal_schedule": [[0,0],[0.1,1]]})"),
              HasSubstr("the maximum slope cannot exceed 2"));
  EXPECT_THAT(submit(R"({"anneal_schedule": [[0,0.5],[10,1]]})"),
              HasSubstr("In the first point, anneal fraction s must equal 0"));
  EXPECT_THAT(
      submit(R"({"anneal_schedule": [[0,1],[5,0.5],[10,1]]})"),
      HasSubstr("reverse annealing requested (anneal_schedule starts with "
                "s==1) but initial_state not provided"));
  EXPECT_THAT(
      submit(
          R"({"anneal_schedule": [[0,1],[5,0.5],[10,1]], "initial_state": [1,3,3,3,3,3]})"),
      HasSubstr("initial_state of active qubit 1 must be -1 or 1"));
  EXPECT_EQ(
      submit(
          R"({"anneal_schedule": [[0,1],[5,0.5],[10,1]], "initial_state": [1,-1,3,3,3,3]})"),
      "accepted");
  EXPECT_THAT(
      submit(R"({"annealing_time": 20, "anneal_schedule": [[0,0],[20,1]]})"),
      HasSubstr("mutually exclusive"));
}

}  // namespace
}  // namespace qs
