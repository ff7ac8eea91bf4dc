// Live smoke test against the real SAPI (docs/dwave-protocol.md §4.2). Runs
// only when DWAVE_API_TOKEN is set (never in CI, which has no token): the
// documented two-qubit problem on two coupled working qubits of the
// least-loaded online QPU, 10 reads, then a three-variable one-hot through the
// "dwave" backend. Optional: DWAVE_API_ENDPOINT, DWAVE_API_REGION,
// DWAVE_API_SOLVER.
#include <cstdlib>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/sample/dwave/dwave_sampler.h"
#include "core/sample/dwave/sapi_client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

// The availability a background refresh finds (what ListBackends then shows).
absl::Status Probe(const Sampler& sampler) {
  Interrupter none;
  sampler.RefreshAvailability(none);
  return sampler.Available();
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

class DwaveLiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Env("DWAVE_API_TOKEN").empty())
      GTEST_SKIP() << "DWAVE_API_TOKEN is not set: live SAPI test skipped";
  }
};

TEST_F(DwaveLiveTest, TwoQubitProblemOnTheRealService) {
  dwave::SapiClientOptions http;
  http.token = Env("DWAVE_API_TOKEN");
  const dwave::CallContext ctx{absl::Now() + absl::Minutes(5), nullptr};
  auto resolved = dwave::ResolveEndpoint(
      Env("DWAVE_API_ENDPOINT"), Env("DWAVE_API_REGION"), "", http, ctx);
  ASSERT_OK(resolved);
  http.endpoint = resolved->endpoint;
  auto client = dwave::NewCurlSapiClient(http);
  std::string name = Env("DWAVE_API_SOLVER");
  if (name.empty()) {
    auto listing = client->ListSolvers(
        "none,+identity,+status,+avg_load,+properties.category", ctx);
    ASSERT_OK(listing);
    double load = 2;
    for (const auto& s : *listing) {
      if (s.category == "qpu" && s.online() && s.avg_load < load) {
        load = s.avg_load;
        name = s.name;
      }
    }
  }
  ASSERT_FALSE(name.empty()) << "no online QPU solver";
  auto solver = client->GetSolver(name, ctx);
  ASSERT_OK(solver);
  ASSERT_FALSE(solver->couplers.empty());
  const auto [a, b] = solver->couplers.front();
  dwave::PhysicalProblem problem;
  problem.linear = {{a, -0.5}, {b, 0.5}};
  problem.quadratic = {{{a, b}, -1.0}};
  auto data = dwave::EncodeQp(problem, solver->qubits, solver->couplers);
  ASSERT_OK(data);
  dwave::ProblemJob job;
  job.solver_identity_json = solver->identity_json;
  job.data = *data;
  job.params_json = R"({"num_reads": 10})";
  job.label = "qs live smoke";
  auto submitted = client->Submit({job}, ctx);
  ASSERT_OK(submitted);
  ASSERT_OK((*submitted)[0]);
  const std::string id = (*submitted)[0]->id;
  for (int i = 0; i < 20; ++i) {
    auto polled = client->Poll({id}, 30, ctx);
    ASSERT_OK(polled);
    if ((*polled)[0].terminal()) {
      ASSERT_EQ((*polled)[0].status, "COMPLETED") << (*polled)[0].error_message;
      break;
    }
  }
  auto answer = client->GetAnswer(id, ctx);
  ASSERT_OK(answer);
  auto decoded =
      dwave::DecodeQpAnswer(answer->fields, dwave::QpProblemType::kIsing);
  ASSERT_OK(decoded);
  EXPECT_EQ(decoded->num_variables, solver->num_qubits);
  int64_t reads = 0;
  for (int64_t n : decoded->num_occurrences) reads += n;
  EXPECT_EQ(reads, 10);
  EXPECT_EQ(decoded->energies.front(), -1.0);  // both ground states score -1
  EXPECT_GT(answer->timing.at("qpu_access_time"), 0);
}

class Sink final : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    absl::MutexLock lock(&mu);
    samples.push_back(std::move(sample));
  }
  absl::Mutex mu;
  std::vector<Sample> samples;
};

TEST_F(DwaveLiveTest, OneHotThroughTheBackend) {
  DwaveOptions options;
  options.endpoint = Env("DWAVE_API_ENDPOINT");
  options.region = Env("DWAVE_API_REGION");
  options.solver = Env("DWAVE_API_SOLVER");
  auto sampler = NewDwaveSampler(options);
  ASSERT_OK(Probe(*sampler));
  QuboBuilder builder(3);
  for (int i = 0; i < 3; ++i) builder.AddLinear(i, -1);
  builder.AddQuadratic(0, 1, 2);
  builder.AddQuadratic(0, 2, 2);
  builder.AddQuadratic(1, 2, 2);
  builder.AddOffset(1);
  const Qubo model = *std::move(builder).Build();
  v1::SolveParams wire;
  wire.mutable_dwave()->set_label("qs live one-hot");
  SampleParams params;
  params.num_reads = 10;
  params.wire = &wire;
  Interrupter interrupter;
  Sink sink;
  auto stats = sampler->Sample(model, params, sink, interrupter);
  ASSERT_OK(stats);
  EXPECT_EQ(stats->reads_done, 10);
  double best = 1e9;
  for (const Sample& s : sink.samples) best = std::min(best, s.energy);
  EXPECT_EQ(best, 0.0);
  std::printf("live: %s, QPU access %.0f us\n",
              stats->info.dwave().solver().c_str(),
              stats->info.dwave().qpu_access_time_us());
}

}  // namespace
}  // namespace qs
