// The "dwave" backend against the SAPI emulator on a loopback port
// (docs/dwave-protocol.md §4): the happy path with its statistics, read
// splitting, the embedding cache, availability without or with a bad token
// (never echoed), every injected fault ending in success after a retry or in
// the documented status with exactly one accepted submission, and DELETE on
// cancellation or deadline.
#include "core/sample/dwave/dwave_sampler.h"

#include <cstdlib>
#include <fstream>
#include <functional>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

// The availability a background refresh finds (what ListBackends then shows).
absl::Status Probe(const Sampler& sampler) {
  Interrupter none;
  sampler.RefreshAvailability(none);
  return sampler.Available();
}

using ::qs::testing::IsOk;
using ::qs::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kToken[] = "DEV-0123456789abcdef";

class CollectingSink final : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    absl::MutexLock lock(&mu_);
    samples.push_back(std::move(sample));
  }
  absl::Mutex mu_;
  std::vector<Sample> samples;
};

// x0 + x1 + x2 = 1 as a QUBO with offset 1: valid states score 0.
Qubo OneHot3() {
  QuboBuilder b(3);
  for (int i = 0; i < 3; ++i) b.AddLinear(i, -1);
  b.AddQuadratic(0, 1, 2);
  b.AddQuadratic(0, 2, 2);
  b.AddQuadratic(1, 2, 2);
  b.AddOffset(1);
  return *std::move(b).Build();
}

class DwaveSamplerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("DWAVE_API_TOKEN");
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.queue_delay = absl::ZeroDuration();
    options.run_time = absl::ZeroDuration();
    emulator_ = std::make_unique<sapi_emulator::SapiEmulator>(options);
    ASSERT_OK(emulator_->Start());
  }

  DwaveOptions Options(const std::string& solver = "FAKE_k4") const {
    DwaveOptions o;
    o.endpoint = emulator_->endpoint();
    o.token = kToken;
    o.solver = solver;
    o.request_timeout = absl::Seconds(5);
    o.backoff_base = absl::Milliseconds(10);
    o.backoff_max = absl::Milliseconds(200);
    o.poll_timeout_seconds = 2;
    return o;
  }

  absl::StatusOr<SampleStats> Run(const Sampler& sampler, const Qubo& model,
                                  CollectingSink& sink, int reads = 50,
                                  const v1::SolveParams* wire = nullptr) {
    SampleParams params;
    params.num_reads = reads;
    params.seed = 7;
    params.wire = wire;
    Interrupter interrupter;
    return sampler.Sample(model, params, sink, interrupter);
  }

  int AcceptedSubmissions() const {
    int accepted = 0;
    for (const auto& e : emulator_->RequestLog()) {
      if (e.route == "submit" && e.method == "POST" && e.status == 200)
        ++accepted;
    }
    return accepted;
  }

  std::unique_ptr<sapi_emulator::SapiEmulator> emulator_;
};

TEST_F(DwaveSamplerTest, SolvesAOneHotOnTheWorkedExampleSolver) {
  auto sampler = NewDwaveSampler(Options());
  EXPECT_EQ(sampler->name(), "dwave");
  EXPECT_TRUE(sampler->capabilities().remote);
  ASSERT_OK(Probe(*sampler));
  CollectingSink sink;
  auto stats = Run(*sampler, OneHot3(), sink, 50);
  ASSERT_OK(stats);
  EXPECT_EQ(stats->stop_reason, StopReason::kNone);
  EXPECT_EQ(stats->reads_done, 50);
  uint64_t occurrences = 0;
  for (const Sample& s : sink.samples) {
    EXPECT_EQ(s.energy, 0.0);  // the emulator's exact path returns ground
                               // states; offset included
    EXPECT_EQ(s.bits[0] + s.bits[1] + s.bits[2], 1);
    occurrences += s.num_occurrences;
  }
  EXPECT_EQ(occurrences, 50u);
  ASSERT_TRUE(stats->info.has_dwave());
  const v1::DwaveInfo& info = stats->info.dwave();
  EXPECT_EQ(info.solver(), "FAKE_k4");
  EXPECT_EQ(info.graph_id(), "fake00k4aa");
  EXPECT_EQ(info.problem_ids_size(), 1);
  EXPECT_EQ(info.max_chain_length(), 1);
  EXPECT_EQ(info.physical_qubits(), 3u);
  EXPECT_GT(info.qpu_access_time_us(), 0);
  EXPECT_EQ(info.qpu_anneal_time_per_sample_us(), 20.0);
  EXPECT_EQ(info.mean_chain_break_fraction(), 0.0);
  EXPECT_GT(info.chain_strength(), 0);
  EXPECT_TRUE(info.auto_scale());
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), 1);
  EXPECT_EQ(emulator_->CountRequests("answer", "GET"), 1);
  for (const auto& e : emulator_->RequestLog()) {
    if (e.route == "poll") {
      EXPECT_THAT(e.query, HasSubstr("timeout=2"));
    }
    EXPECT_THAT(e.accept, HasSubstr("version=3.0.0"));
  }
}

TEST_F(DwaveSamplerTest, ParametersPassThroughAndReadsSplitIntoJobsOfOnePost) {
  auto sampler = NewDwaveSampler(Options());
  v1::SolveParams wire;
  wire.mutable_dwave()->set_annealing_time_us(50);
  wire.mutable_dwave()->set_label("one-hot-demo");
  wire.mutable_dwave()->set_chain_strength(2.5);
  CollectingSink sink;
  auto stats = Run(*sampler, OneHot3(), sink, 25000, &wire);
  ASSERT_OK(stats);
  EXPECT_EQ(stats->reads_done, 25000);
  // The solver's run-duration limit (1 s, less 1 ms programming thermalization)
  // over 50 µs anneal plus a 100 µs readout allowance fits 6660 reads per
  // problem: four problems.
  EXPECT_EQ(stats->info.dwave().problem_ids_size(), 4);
  EXPECT_EQ(stats->info.dwave().annealing_time_us(), 50);
  EXPECT_EQ(stats->info.dwave().qpu_anneal_time_per_sample_us(), 50);
  EXPECT_EQ(stats->info.dwave().chain_strength(), 2.5);
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), 1);
  EXPECT_EQ(emulator_->CountRequests("answer", "GET"), 4);
}

TEST_F(DwaveSamplerTest, OutOfRangeParametersAreRefusedBeforeSubmitting) {
  auto sampler = NewDwaveSampler(Options());
  v1::SolveParams wire;
  wire.mutable_dwave()->set_annealing_time_us(5000);
  CollectingSink sink;
  EXPECT_THAT(Run(*sampler, OneHot3(), sink, 10, &wire),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.dwave.annealing_time_us")));
  wire.mutable_dwave()->clear_annealing_time_us();
  wire.mutable_dwave()->set_auto_scale(false);
  QuboBuilder big(2);
  big.AddLinear(0, -20);  // h = -10 + 5 is outside h_range [-4, 4]
  big.AddQuadratic(0, 1, 20);
  EXPECT_THAT(
      Run(*sampler, *std::move(big).Build(), sink, 10, &wire),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("auto_scale")));
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), 0);
}

TEST_F(DwaveSamplerTest, RepeatedShapesReuseTheCachedEmbedding) {
  auto sampler = NewDwaveSampler(Options("Chimera_emulator_C4"));
  QuboBuilder b(6);
  for (int i = 0; i < 6; ++i) {
    b.AddLinear(i, -1);
    for (int j = i + 1; j < 6; ++j) b.AddQuadratic(i, j, 2);
  }
  b.AddOffset(1);
  const Qubo model = *std::move(b).Build();
  CollectingSink first, second;
  auto a = Run(*sampler, model, first, 20);
  ASSERT_OK(a);
  EXPECT_FALSE(a->info.dwave().embedding_cached());
  EXPECT_GT(a->info.dwave().max_chain_length(),
            1);  // K6 needs chains on Chimera
  auto b2 = Run(*sampler, model, second, 20);
  ASSERT_OK(b2);
  EXPECT_TRUE(b2->info.dwave().embedding_cached());
  EXPECT_EQ(b2->info.dwave().physical_qubits(),
            a->info.dwave().physical_qubits());
  for (const Sample& s : second.samples)
    EXPECT_NEAR(s.energy, model.Energy(s.bits), 1e-12);
}

TEST_F(DwaveSamplerTest,
       AProblemThatCannotBeEmbeddedFailsWithFailedPrecondition) {
  auto sampler = NewDwaveSampler(Options("Chimera_emulator_C4"));
  QuboBuilder b(40);  // K40: more than the 128-qubit Chimera C(4,4,4) can hold
  for (int i = 0; i < 40; ++i) {
    for (int j = i + 1; j < 40; ++j) b.AddQuadratic(i, j, 1);
  }
  CollectingSink sink;
  EXPECT_THAT(
      Run(*sampler, *std::move(b).Build(), sink),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("cannot be embedded on solver Chimera_emulator_C4")));
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), 0);
  // The backend stays usable.
  EXPECT_OK(Run(*sampler, OneHot3(), sink, 5).status());
}

TEST_F(DwaveSamplerTest, AvailabilityWithoutTokenNamesTheSetting) {
  DwaveOptions options = Options();
  options.token.clear();
  auto sampler = NewDwaveSampler(options);
  EXPECT_THAT(Probe(*sampler), StatusIs(absl::StatusCode::kFailedPrecondition,
                                        HasSubstr("DWAVE_API_TOKEN")));
  CollectingSink sink;
  EXPECT_THAT(
      Run(*sampler, OneHot3(), sink),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("token")));
  EXPECT_TRUE(emulator_->RequestLog().empty());
}

TEST_F(DwaveSamplerTest, TokenComesFromTheEnvironmentOrAFile) {
  DwaveOptions options;
  EXPECT_THAT(
      ResolveDwaveToken(options),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("token")));
  const std::string path = ::testing::TempDir() + "/dwave_token";
  std::ofstream(path) << "  FILE-TOKEN-42 \n";
  options.token_file = path;
  EXPECT_EQ(*ResolveDwaveToken(options), "FILE-TOKEN-42");
  setenv("DWAVE_API_TOKEN", "ENV-TOKEN-7", 1);
  EXPECT_EQ(*ResolveDwaveToken(options), "ENV-TOKEN-7");
  unsetenv("DWAVE_API_TOKEN");
  options.token_file = path + ".missing";
  auto missing = ResolveDwaveToken(options);
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kFailedPrecondition,
                                HasSubstr(".missing")));
}

TEST_F(DwaveSamplerTest, ARejectedTokenIsReportedWithoutEchoingIt) {
  DwaveOptions options = Options();
  options.token = "WRONG-SECRET-999";
  auto sampler = NewDwaveSampler(options);
  const absl::Status available = Probe(*sampler);
  EXPECT_THAT(available, StatusIs(absl::StatusCode::kFailedPrecondition,
                                  HasSubstr("rejected")));
  EXPECT_THAT(std::string(available.message()),
              Not(HasSubstr("WRONG-SECRET-999")));
  CollectingSink sink;
  auto stats = Run(*sampler, OneHot3(), sink);
  EXPECT_THAT(stats, StatusIs(absl::StatusCode::kUnauthenticated,
                              Not(HasSubstr("WRONG-SECRET-999"))));
}

TEST_F(DwaveSamplerTest, AnOfflineSolverIsUnavailable) {
  ASSERT_OK(emulator_->SetSolverStatus("FAKE_k4", "OFFLINE"));
  auto sampler = NewDwaveSampler(Options());
  EXPECT_THAT(Probe(*sampler),
              StatusIs(absl::StatusCode::kUnavailable, HasSubstr("OFFLINE")));
}

TEST_F(DwaveSamplerTest, SelectsTheLeastLoadedOnlineSolverOfATopology) {
  DwaveOptions options = Options("");
  options.topology = "chimera";
  auto sampler = NewDwaveSampler(options);
  CollectingSink sink;
  auto stats = Run(*sampler, OneHot3(), sink, 5);
  ASSERT_OK(stats);
  EXPECT_EQ(stats->info.dwave().solver(), "Chimera_emulator_C4");
  options.topology = "";
  auto any = NewDwaveSampler(options);
  stats = Run(*any, OneHot3(), sink, 5);
  ASSERT_OK(stats);
  EXPECT_EQ(stats->info.dwave().solver(),
            "FAKE_k4");  // avg_load 0; the hybrid listing is skipped
}

// --- Faults: success after retry, or the documented status, with one accepted
// submission per job. ---

struct FaultCase {
  std::string name;
  sapi_emulator::Fault fault;
  absl::StatusCode code;  // kOk: the solve succeeds
  std::string message;    // expected in the status message
  int posts;              // POST problems/ requests the emulator sees
  int accepted = 1;  // of which the emulator queued (0 when the fault refused
                     // the only one)
};

class DwaveFaultTest : public DwaveSamplerTest,
                       public ::testing::WithParamInterface<FaultCase> {};

TEST_P(DwaveFaultTest, EndsInSuccessOrTheDocumentedStatus) {
  const FaultCase& c = GetParam();
  DwaveOptions options = Options();
  options.request_timeout = absl::Seconds(1);
  auto sampler = NewDwaveSampler(options);
  ASSERT_OK(
      Probe(*sampler));  // solver definition cached before the fault is armed
  emulator_->ClearLog();
  emulator_->AddFault(c.fault);
  CollectingSink sink;
  auto stats = Run(*sampler, OneHot3(), sink, 20);
  if (c.code == absl::StatusCode::kOk) {
    ASSERT_OK(stats);
    EXPECT_EQ(stats->reads_done, 20);
  } else {
    EXPECT_THAT(stats, StatusIs(c.code, HasSubstr(c.message)));
  }
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), c.posts);
  EXPECT_EQ(AcceptedSubmissions(), c.accepted)
      << "a submission that may have been queued is never resent";
}

sapi_emulator::Fault MakeFault(std::string route, std::string kind,
                               int http = 503, std::string retry_after = "",
                               int count = 1, int delay_ms = 0,
                               std::string message = "", bool plain = false) {
  sapi_emulator::Fault f;
  f.route = std::move(route);
  f.kind = std::move(kind);
  f.http_status = http;
  f.retry_after = std::move(retry_after);
  f.count = count;
  f.delay = absl::Milliseconds(delay_ms);
  f.message = std::move(message);
  f.plain_text = plain;
  return f;
}

std::string HttpDateSoon() {
  return absl::FormatTime("%a, %d %b %Y %H:%M:%S GMT",
                          absl::Now() + absl::Seconds(1), absl::UTCTimeZone());
}

INSTANTIATE_TEST_SUITE_P(
    Faults, DwaveFaultTest,
    ::testing::Values(
        FaultCase{"RateLimitedWithRetryAfterSeconds",
                  MakeFault("submit", "status", 429, "1"),
                  absl::StatusCode::kOk, "", 2},
        FaultCase{"RateLimitedWithRetryAfterDate",
                  MakeFault("submit", "status", 429, HttpDateSoon()),
                  absl::StatusCode::kOk, "", 2},
        FaultCase{"UnavailableWithoutRetryAfter",
                  MakeFault("submit", "status", 503, "", 2),
                  absl::StatusCode::kOk, "", 3},
        FaultCase{
            "ServerErrorsOnPolls",
            MakeFault("poll", "status", 500, "", 2, 0, "poller hiccup", true),
            absl::StatusCode::kOk, "", 1},
        FaultCase{"TruncatedPoll", MakeFault("poll", "truncated"),
                  absl::StatusCode::kOk, "", 1},
        FaultCase{"SlowAnswerBeyondTheReadTimeout",
                  MakeFault("answer", "slow", 0, "", 1, 2500),
                  absl::StatusCode::kOk, "", 1},
        FaultCase{"ServerErrorOnSubmitIsNotResent",
                  MakeFault("submit", "status", 500),
                  absl::StatusCode::kUnavailable, "HTTP 500", 1, 0},
        FaultCase{"TruncatedSubmitIsNotResent",
                  MakeFault("submit", "truncated"),
                  absl::StatusCode::kUnavailable, "not resent", 1},
        FaultCase{"SlowSubmitBeyondTheReadTimeoutIsNotResent",
                  MakeFault("submit", "slow", 0, "", 1, 2500),
                  absl::StatusCode::kUnavailable, "not resent", 1},
        FaultCase{"FailedProblem",
                  MakeFault("any", "fail_problem", 0, "", 1, 0,
                            "Problem failed: flux calibration"),
                  absl::StatusCode::kAborted, "flux calibration", 1},
        FaultCase{"FailedBecauseOffline",
                  MakeFault("any", "fail_problem", 0, "", 1, 0,
                            "Problem failed: solver is offline"),
                  absl::StatusCode::kUnavailable, "solver is offline", 1},
        FaultCase{"CancelledBySapi", MakeFault("any", "cancel_problem"),
                  absl::StatusCode::kAborted, "cancelled by SAPI", 1},
        FaultCase{"WrongRepresentationVersion",
                  MakeFault("answer", "wrong_version"),
                  absl::StatusCode::kUnimplemented, "version=4.0.0", 1}),
    [](const ::testing::TestParamInfo<FaultCase>& info) {
      return info.param.name;
    });

TEST_F(DwaveSamplerTest, PlainTextErrorsAreReported) {
  auto sampler = NewDwaveSampler(Options());
  ASSERT_OK(Probe(*sampler));
  emulator_->AddFault(MakeFault(
      "submit", "status", 400, "", 1, 0,
      "Problem does not exist or apitoken does not have access", true));
  CollectingSink sink;
  EXPECT_THAT(Run(*sampler, OneHot3(), sink),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("apitoken does not have access")));
  EXPECT_EQ(AcceptedSubmissions(), 0);
}

TEST_F(DwaveSamplerTest, UnreachableSapiIsUnavailable) {
  DwaveOptions options = Options();
  options.endpoint = "http://127.0.0.1:1/sapi/v2/";
  options.max_attempts = 2;
  auto sampler = NewDwaveSampler(options);
  EXPECT_THAT(Probe(*sampler), StatusIs(absl::StatusCode::kUnavailable,
                                        HasSubstr("cannot connect")));
}

// --- Cancellation: the call's cancel or deadline sends DELETE for the queued
// problem. ---

class DwaveCancelTest : public DwaveSamplerTest {
 protected:
  void SetUp() override {
    unsetenv("DWAVE_API_TOKEN");
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.queue_delay = absl::Seconds(30);  // stays PENDING
    emulator_ = std::make_unique<sapi_emulator::SapiEmulator>(options);
    ASSERT_OK(emulator_->Start());
  }

  // Samples 10 reads of OneHot3 on a thread of its own and runs `stop` once
  // the problem is queued, so that a loaded machine slow to submit cannot
  // stop the call before the submission.
  absl::StatusOr<SampleStats> SampleThenStop(
      Interrupter& interrupter, CollectingSink& sink,
      const std::function<void()>& stop) {
    auto sampler = NewDwaveSampler(Options());
    absl::StatusOr<SampleStats> stats;
    std::thread solve([&] {
      SampleParams params;
      params.num_reads = 10;
      stats = sampler->Sample(OneHot3(), params, sink, interrupter);
    });
    while (AcceptedSubmissions() == 0) absl::SleepFor(absl::Milliseconds(5));
    stop();
    solve.join();
    return stats;
  }
};

TEST_F(DwaveCancelTest, CancellingTheCallSendsDelete) {
  Interrupter interrupter;
  CollectingSink sink;
  const absl::StatusOr<SampleStats> stats =
      SampleThenStop(interrupter, sink,
                     [&] { interrupter.Interrupt(StopReason::kCancelled); });
  ASSERT_OK(stats);
  EXPECT_EQ(stats->stop_reason, StopReason::kCancelled);
  EXPECT_EQ(stats->reads_done, 0);
  EXPECT_TRUE(sink.samples.empty());
  EXPECT_EQ(emulator_->CountRequests("cancel", "DELETE"), 1);
  ASSERT_EQ(stats->info.dwave().problem_ids_size(), 1);
  EXPECT_EQ(*emulator_->ProblemStatusOf(stats->info.dwave().problem_ids(0)),
            "CANCELLED");
}

TEST_F(DwaveCancelTest, TheDeadlineSendsDelete) {
  Interrupter interrupter;
  CollectingSink sink;
  const absl::StatusOr<SampleStats> stats =
      SampleThenStop(interrupter, sink, [&] {
        interrupter.SetDeadline(absl::Now() + absl::Milliseconds(200),
                                StopReason::kDeadline);
      });
  ASSERT_OK(stats);
  EXPECT_EQ(stats->stop_reason, StopReason::kDeadline);
  EXPECT_EQ(emulator_->CountRequests("cancel", "DELETE"), 1);
  EXPECT_EQ(*emulator_->ProblemStatusOf(stats->info.dwave().problem_ids(0)),
            "CANCELLED");
}

}  // namespace
}  // namespace qs
