// The service end to end over loopback gRPC: Solve streams the NYT Sudoku
// ([Mücke 2024]) in order and decodes the known solution; Compile, Validate and
// ListBackends answer; health is SERVING, reflection lists the service;
// /metrics shows the requests; every bad input gets its status code; a deadline
// or a cancel stops the anneal; a time limit returns the reads it cut, counted
// in reads_cut_short; time-limited solves under load (auto's lns and cpu-sa)
// each return a cut no cold read reaches.
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/test_server.h"
#include "tests/testing/timing.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

class SolveServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = testing::TestServer::Start().release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static testing::TestServer* server_;
};

testing::TestServer* SolveServiceTest::server_ = nullptr;

v1::SolveRequest NytRequest() {
  v1::SolveRequest request;
  *request.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(3000);
  request.mutable_params()->set_num_sweeps(3000);
  request.mutable_params()->set_seed(2024);
  request.mutable_params()->set_stop_at_first_valid(true);
  request.mutable_params()->mutable_cpu_sa()->set_beta_hot(1.0);
  return request;
}

TEST_F(SolveServiceTest, SolvesTheNytPuzzleAndStreamsInOrder) {
  auto stub = server_->NewStub();
  v1::SolveRequest request = NytRequest();
  request.set_request_id("nyt-1");
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  ASSERT_GE(stream.events.size(), 3u);
  // Header first, summary last, samples and progress in between.
  ASSERT_TRUE(stream.events.front().has_header());
  const v1::SolveHeader& header = stream.events.front().header();
  EXPECT_EQ(header.request_id(), "nyt-1");
  EXPECT_EQ(header.stats().variables_total(), 729u);
  EXPECT_EQ(header.stats().variables(), 211u);
  EXPECT_EQ(header.stats().ground_energy(), -81);
  EXPECT_EQ(header.seed(), 2024u);
  const v1::SolveSummary* summary = stream.summary();
  ASSERT_NE(summary, nullptr);
  int samples = 0;
  for (size_t k = 1; k + 1 < stream.events.size(); ++k) {
    ASSERT_TRUE(stream.events[k].has_sample() ||
                stream.events[k].has_progress())
        << k;
    if (!stream.events[k].has_sample()) continue;
    ++samples;
    const v1::SampleEvent& sample = stream.events[k].sample();
    EXPECT_EQ(sample.num_variables(), 729u);
    EXPECT_EQ(sample.bits().size(), (729u + 7) / 8);
    EXPECT_EQ(sample.solution().rows_size(), 9);
    EXPECT_EQ(sample.valid(), sample.energy() == -81);
  }
  EXPECT_EQ(static_cast<uint32_t>(samples), summary->reads_done());
  EXPECT_EQ(summary->termination(), v1::TARGET_REACHED);
  EXPECT_TRUE(summary->best_valid());
  EXPECT_EQ(summary->best_energy(), -81);
  std::string grid;
  for (const std::string& row : summary->best_solution().rows()) grid += row;
  EXPECT_EQ(grid, testing::kNytSolution);
  EXPECT_GE(summary->num_valid(), 1u);
  EXPECT_EQ(summary->seed(), 2024u);
  EXPECT_GT(summary->spin_update_attempts(), 0u);
  EXPECT_GT(summary->timings().sample_seconds(), 0);
  EXPECT_EQ(summary->backend().name(), "cpu-sa");
}

TEST_F(SolveServiceTest, SameSeedSameStream) {
  auto stub = server_->NewStub();
  v1::SolveRequest request = NytRequest();
  request.mutable_params()->set_num_reads(8);
  request.mutable_params()->set_num_sweeps(100);
  request.mutable_params()->set_stop_at_first_valid(false);
  request.mutable_params()->set_aggregate(
      true);  // sorted output: independent of finishing order
  const testing::SolveStream a = testing::RunSolve(*stub, request);
  const testing::SolveStream b = testing::RunSolve(*stub, request);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  std::vector<std::string> bits_a, bits_b;
  for (const auto& e : a.events)
    if (e.has_sample()) bits_a.push_back(e.sample().bits());
  for (const auto& e : b.events)
    if (e.has_sample()) bits_b.push_back(e.sample().bits());
  EXPECT_FALSE(bits_a.empty());
  EXPECT_EQ(bits_a, bits_b);
}

TEST_F(SolveServiceTest, CompileValidateAndListBackends) {
  auto stub = server_->NewStub();
  v1::CompileRequest compile;
  *compile.mutable_puzzle() =
      testing::SudokuSpecFromString(testing::kNytPuzzle);
  compile.mutable_options()->set_reduction(v1::REDUCTION_CLUES);
  compile.mutable_options()->set_return_qubo(true);
  v1::CompileResponse compiled;
  grpc::ClientContext c1;
  ASSERT_TRUE(stub->Compile(&c1, compile, &compiled).ok());
  EXPECT_EQ(compiled.stats().variables(), 513u);
  EXPECT_EQ(compiled.stats().offset(), -24);
  EXPECT_EQ(compiled.qubo().num_variables(), 513u);
  EXPECT_EQ(compiled.variable_map_size(), 513);
  EXPECT_EQ(compiled.labels_size(), 729);

  v1::ValidateRequest validate;
  *validate.mutable_puzzle() = compile.puzzle();
  for (const char* p = testing::kNytSolution; *p; ++p)
    validate.mutable_solution()->add_cells(*p - '0');
  v1::ValidateResponse report;
  grpc::ClientContext c2;
  ASSERT_TRUE(stub->Validate(&c2, validate, &report).ok());
  EXPECT_TRUE(report.report().valid());
  EXPECT_EQ(report.energy(), -81);
  validate.mutable_solution()->set_cells(0, 9);
  grpc::ClientContext c3;
  ASSERT_TRUE(stub->Validate(&c3, validate, &report).ok());
  EXPECT_FALSE(report.report().valid());
  EXPECT_GT(report.energy(), -81);

  v1::ListBackendsResponse backends;
  grpc::ClientContext c4;
  ASSERT_TRUE(
      stub->ListBackends(&c4, v1::ListBackendsRequest(), &backends).ok());
  std::vector<std::string> names;
  for (const auto& b : backends.backends()) names.push_back(b.name());
  EXPECT_THAT(names, ::testing::IsSupersetOf({"cpu-sa", "exact"}));
}

TEST_F(SolveServiceTest, HealthAndReflection) {
  auto channel = grpc::CreateChannel(server_->address(),
                                     grpc::InsecureChannelCredentials());
  auto health = grpc::health::v1::Health::NewStub(channel);
  for (const std::string service : {"", "qs.v1.Solver"}) {
    grpc::ClientContext context;
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(service);
    grpc::health::v1::HealthCheckResponse response;
    ASSERT_TRUE(health->Check(&context, request, &response).ok());
    EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING)
        << service;
  }
  auto reflection =
      grpc::reflection::v1alpha::ServerReflection::NewStub(channel);
  grpc::ClientContext context;
  auto stream = reflection->ServerReflectionInfo(&context);
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("");
  ASSERT_TRUE(stream->Write(request));
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  ASSERT_TRUE(stream->Read(&response));
  std::vector<std::string> services;
  for (const auto& s : response.list_services_response().service())
    services.push_back(s.name());
  EXPECT_THAT(services, ::testing::Contains("qs.v1.Solver"));
  EXPECT_TRUE(stream->Finish().ok());
}

struct BadInput {
  std::string name;
  std::function<void(v1::SolveRequest&)> mutate;
  grpc::StatusCode code;
  std::string message;
};

TEST_F(SolveServiceTest, BadInputGetsTheRightStatus) {
  auto stub = server_->NewStub();
  const std::vector<BadInput> cases = {
      {"short grid",
       [](v1::SolveRequest& r) {
         r.mutable_puzzle()->mutable_sudoku()->mutable_cells()->RemoveLast();
       },
       grpc::StatusCode::INVALID_ARGUMENT, "sudoku.cells"},
      {"digit out of range",
       [](v1::SolveRequest& r) {
         r.mutable_puzzle()->mutable_sudoku()->set_cells(0, 12);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "sudoku.cells[0]"},
      {"contradictory clues",
       [](v1::SolveRequest& r) {
         r.mutable_puzzle()->mutable_sudoku()->set_cells(0, 2);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "contradictory clues"},
      {"lambda <= 2",
       [](v1::SolveRequest& r) {
         r.mutable_puzzle()->mutable_sudoku()->set_penalty(2);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "sudoku.penalty"},
      {"zero reads",
       [](v1::SolveRequest& r) { r.mutable_params()->set_num_reads(0); },
       grpc::StatusCode::INVALID_ARGUMENT, "params.num_reads"},
      {"too many reads",
       [](v1::SolveRequest& r) { r.mutable_params()->set_num_reads(1u << 30); },
       grpc::StatusCode::INVALID_ARGUMENT, "params.num_reads"},
      {"zero sweeps",
       [](v1::SolveRequest& r) { r.mutable_params()->set_num_sweeps(0); },
       grpc::StatusCode::INVALID_ARGUMENT, "params.num_sweeps"},
      {"unknown backend",
       [](v1::SolveRequest& r) {
         r.mutable_params()->set_backend("quantum-magic");
       },
       grpc::StatusCode::INVALID_ARGUMENT, "params.backend"},
      {"no puzzle", [](v1::SolveRequest& r) { r.clear_puzzle(); },
       grpc::StatusCode::INVALID_ARGUMENT, "puzzle: not set"},
      {"negative time limit",
       [](v1::SolveRequest& r) {
         r.mutable_params()->set_time_limit_seconds(-1);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "params.time_limit_seconds"},
      {"hot beta above cold",
       [](v1::SolveRequest& r) {
         r.mutable_params()->set_backend("cpu-sa");
         r.mutable_params()->mutable_cpu_sa()->set_beta_hot(5);
         r.mutable_params()->mutable_cpu_sa()->set_beta_cold(1);
       },
       grpc::StatusCode::INVALID_ARGUMENT, "params.cpu_sa"},
      {"bad initial state",
       [](v1::SolveRequest& r) { r.mutable_params()->add_initial_states("x"); },
       grpc::StatusCode::INVALID_ARGUMENT, "params.initial_states[0]"},
      {"exact backend on 211 variables",
       [](v1::SolveRequest& r) { r.mutable_params()->set_backend("exact"); },
       grpc::StatusCode::RESOURCE_EXHAUSTED, "at most 30"},
      {"25x25 grid over the attempt budget",
       [](v1::SolveRequest& r) {
         v1::SudokuPuzzle* s = r.mutable_puzzle()->mutable_sudoku();
         s->set_box_size(5);
         s->clear_cells();
         for (int k = 0; k < 625; ++k) s->add_cells(0);
         r.mutable_params()->set_num_reads(100000);
         r.mutable_params()->set_num_sweeps(10000000);
       },
       grpc::StatusCode::RESOURCE_EXHAUSTED, "spin-update attempts"},
  };
  for (const BadInput& c : cases) {
    v1::SolveRequest request = NytRequest();
    c.mutate(request);
    const testing::SolveStream stream = testing::RunSolve(*stub, request);
    EXPECT_EQ(stream.status.error_code(), c.code)
        << c.name << ": " << stream.status.error_message();
    EXPECT_THAT(stream.status.error_message(), HasSubstr(c.message)) << c.name;
  }
  // The server is still up and serving.
  const testing::SolveStream after = testing::RunSolve(*stub, NytRequest());
  EXPECT_TRUE(after.status.ok());
}

TEST_F(SolveServiceTest, DeadlineStopsTheAnneal) {
  auto stub = server_->NewStub();
  v1::SolveRequest request = NytRequest();
  request.mutable_params()->set_stop_at_first_valid(false);
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_num_sweeps(1000000);  // minutes of work
  const testing::SolveStream stream =
      testing::RunSolve(*stub, request, /*deadline_seconds=*/0.5);
  EXPECT_EQ(stream.status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  // The work stops with the call: a fresh solve is served right away by the
  // same two cores.
  v1::SolveRequest quick = NytRequest();
  quick.mutable_params()->set_num_reads(4);
  quick.mutable_params()->set_num_sweeps(10);
  quick.mutable_params()->set_stop_at_first_valid(false);
  const testing::SolveStream next = testing::RunSolve(*stub, quick, 20);
  EXPECT_TRUE(next.status.ok()) << next.status.error_message();
}

TEST_F(SolveServiceTest, TimeLimitEndsNormallyWithPartialResults) {
  auto stub = server_->NewStub();
  v1::SolveRequest request = NytRequest();
  request.mutable_params()->set_stop_at_first_valid(false);
  // 64 reads of 0.1-0.5 s each on 2 cores: the limit cuts the solve, whatever
  // the machine's load.
  request.mutable_params()->set_num_reads(64);
  request.mutable_params()->set_num_sweeps(200000);
  request.mutable_params()->set_time_limit_seconds(0.3);
  const testing::SolveStream stream = testing::RunSolve(*stub, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  ASSERT_NE(stream.summary(), nullptr);
  EXPECT_EQ(stream.summary()->termination(), v1::TIME_LIMIT);
  // The reads the limit cut return their states.
  EXPECT_GT(stream.summary()->reads_done(), 0u);
  EXPECT_LT(stream.summary()->sweeps_done(), 64u * 200000u);
}

// A 2D +-1 spin glass on a side x side torus as a Max-Cut graph: edge 2 k
// joins node k to its right-hand neighbour, edge 2 k + 1 to the one below.
v1::SolveRequest TorusMaxCutRequest(int side, uint64_t seed) {
  v1::SolveRequest request;
  v1::MaxCutPuzzle& graph = *request.mutable_puzzle()->mutable_maxcut();
  graph.set_num_nodes(side * side);
  uint64_t bits = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      for (const int j :
           {r * side + (c + 1) % side, ((r + 1) % side) * side + c}) {
        bits ^= bits << 13;
        bits ^= bits >> 7;
        bits ^= bits << 17;
        graph.add_u(r * side + c);
        graph.add_v(j);
        graph.add_w((bits & 1) ? 1 : -1);
      }
    }
  }
  return request;
}

// The weight of the edges `side` cuts.
double CutWeight(const v1::MaxCutPuzzle& graph,
                 const std::vector<uint8_t>& side) {
  double cut = 0;
  for (int e = 0; e < graph.u_size(); ++e)
    if (side[graph.u(e)] != side[graph.v(e)]) cut += graph.w(e);
  return cut;
}

// A bound on the best cut of a TorusMaxCutRequest graph: every positive edge
// cut and no negative one, less one edge per two frustrated plaquettes (a
// plaquette whose weights multiply to -1 keeps one of its edges on the wrong
// side, and an edge borders two plaquettes). The best cut of a +-1 torus lies
// near 0.94 of it.
double TorusCutBound(const v1::MaxCutPuzzle& graph, int side) {
  auto right = [&](int r, int c) {
    return graph.w(2 * (((r + side) % side) * side + (c + side) % side));
  };
  auto down = [&](int r, int c) {
    return graph.w(2 * (((r + side) % side) * side + (c + side) % side) + 1);
  };
  int positive = 0, frustrated = 0;
  for (const double w : graph.w()) positive += w > 0;
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      frustrated +=
          right(r, c) * down(r, c + 1) * right(r + 1, c) * down(r, c) < 0;
    }
  }
  return positive - (frustrated + 1) / 2;
}

// A cold read: a random partition, then one-node moves while one gains (the
// greedy descent a read that ran a single quench would reach).
std::vector<uint8_t> GreedyFromRandom(const v1::MaxCutPuzzle& graph,
                                      uint64_t seed, double* random_cut) {
  const int n = static_cast<int>(graph.num_nodes());
  std::vector<std::vector<std::pair<int, double>>> adjacent(n);
  for (int e = 0; e < graph.u_size(); ++e) {
    adjacent[graph.u(e)].push_back({graph.v(e), graph.w(e)});
    adjacent[graph.v(e)].push_back({graph.u(e), graph.w(e)});
  }
  std::vector<uint8_t> side(n);
  uint64_t bits = seed * 0x9E3779B97F4A7C15ull + 1;
  for (uint8_t& s : side) {
    bits ^= bits << 13;
    bits ^= bits >> 7;
    bits ^= bits << 17;
    s = bits >> 63;
  }
  *random_cut = CutWeight(graph, side);
  for (bool moved = true; moved;) {
    moved = false;
    for (int v = 0; v < n; ++v) {
      double gain = 0;  // of moving v: its uncut edges cut, its cut ones not
      for (const auto& [u, w] : adjacent[v])
        gain += side[u] == side[v] ? w : -w;
      if (gain > 0) {
        side[v] ^= 1;
        moved = true;
      }
    }
  }
  return side;
}

// Time-limited solves of a large model started together on the two cores:
// each gets its share of the pool in turn and returns a board, scored, with
// the compute it got (docs/budgets.md, "Anytime answers under load"). Half
// name no backend, which `auto` answers with lns on a lattice; half name
// cpu-sa. Each answer cuts more than 0.9 of the model's cut bound, a bar
// that a random partition and a greedy descent from one both miss by far;
// 0.85 in a sanitizer build, whose slower kernels under a second test's load
// left cpu-sa at 0.899 once (its time limit is scaled, its sweeps are not
// all).
TEST_F(SolveServiceTest, TimeLimitedSolvesUnderLoadEachReturnABoard) {
  constexpr int kSide = 64, kCalls = 6;
  const v1::SolveRequest model = TorusMaxCutRequest(kSide, 7);
  const v1::MaxCutPuzzle& graph = model.puzzle().maxcut();
  const double bar = 0.9 * TorusCutBound(graph, kSide);
  const double answer_bar =
      testing::TimeScale() > 1 ? 0.85 * TorusCutBound(graph, kSide) : bar;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    double random_cut = 0;
    const double greedy_cut =
        CutWeight(graph, GreedyFromRandom(graph, seed, &random_cut));
    EXPECT_LT(random_cut, 0.1 * bar) << "seed " << seed;
    EXPECT_LT(greedy_cut, 0.8 * bar) << "seed " << seed;
  }
  std::vector<testing::SolveStream> streams(kCalls);
  std::vector<std::thread> callers;
  for (int k = 0; k < kCalls; ++k) {
    callers.emplace_back([&, k] {
      auto stub = server_->NewStub();
      v1::SolveRequest request = model;
      request.mutable_params()->set_seed(k + 1);
      if (k % 2 == 1) request.mutable_params()->set_backend("cpu-sa");
      // 3 s in Release; a sanitizer build runs the kernels several times
      // slower.
      request.mutable_params()->set_time_limit_seconds(3 *
                                                       testing::TimeScale());
      streams[k] = testing::RunSolve(*stub, request);
    });
  }
  for (std::thread& t : callers) t.join();
  for (int k = 0; k < kCalls; ++k) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(streams[k].status.ok()) << streams[k].status.error_message();
    const v1::SolveSummary* summary = streams[k].summary();
    ASSERT_NE(summary, nullptr);
    if (k % 2 == 1) {
      EXPECT_EQ(summary->backend().name(), "cpu-sa");
    } else {
      EXPECT_EQ(summary->backend().name(), "auto");
      EXPECT_EQ(summary->solved_by(), "lns");
    }
    EXPECT_GT(summary->reads_done(), 0u);
    EXPECT_LE(summary->reads_cut_short(), summary->reads_done());
    ASSERT_TRUE(summary->has_objective());
    EXPECT_GT(summary->objective(), answer_bar);
    EXPECT_GT(summary->timings().annealer_cpu_seconds(), 0);
  }
}

// reads_cut_short counts the reads a time limit cut and the solve returned:
// with a budget of hours no read can end on its own, so every read that came
// back was cut; a solve that runs to its end cuts none. For cpu-sa and lns,
// over the wire.
TEST_F(SolveServiceTest, ReadsCutShortCountsTheReadsATimeLimitCut) {
  auto stub = server_->NewStub();
  for (const char* backend : {"cpu-sa", "lns"}) {
    SCOPED_TRACE(backend);
    v1::SolveRequest request = TorusMaxCutRequest(32, 3);
    request.mutable_params()->set_backend(backend);
    request.mutable_params()->set_seed(5);
    request.mutable_params()->set_num_reads(2);
    request.mutable_params()->set_num_sweeps(10000000);
    // Time for a loaded machine to start both reads.
    request.mutable_params()->set_time_limit_seconds(0.5 *
                                                     testing::TimeScale());
    auto returned = [](const testing::SolveStream& stream) {
      uint64_t reads = 0;
      for (const v1::SolveResponse& e : stream.events)
        if (e.has_sample()) reads += e.sample().num_occurrences();
      return reads;
    };
    const testing::SolveStream cut = testing::RunSolve(*stub, request);
    ASSERT_TRUE(cut.status.ok()) << cut.status.error_message();
    ASSERT_NE(cut.summary(), nullptr);
    EXPECT_EQ(cut.summary()->termination(), v1::TIME_LIMIT);
    EXPECT_GT(returned(cut), 0u);
    EXPECT_EQ(cut.summary()->reads_done(), returned(cut));
    EXPECT_EQ(cut.summary()->reads_cut_short(), returned(cut));

    // A short budget and no time limit (a sanitizer's slower reads would
    // meet it): every read ends on its own.
    request.mutable_params()->set_num_sweeps(20);
    request.mutable_params()->set_time_limit_seconds(0);
    const testing::SolveStream whole = testing::RunSolve(*stub, request);
    ASSERT_TRUE(whole.status.ok()) << whole.status.error_message();
    ASSERT_NE(whole.summary(), nullptr);
    EXPECT_EQ(whole.summary()->termination(), v1::COMPLETED);
    EXPECT_EQ(whole.summary()->reads_done(), 2u);
    EXPECT_EQ(returned(whole), 2u);
    EXPECT_EQ(whole.summary()->reads_cut_short(), 0u);
  }
}

TEST_F(SolveServiceTest, ClientCancelStopsTheAnneal) {
  auto stub = server_->NewStub();
  v1::SolveRequest request = NytRequest();
  request.mutable_params()->set_stop_at_first_valid(false);
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_num_sweeps(1000000);
  grpc::ClientContext context;
  auto reader = stub->Solve(&context, request);
  v1::SolveResponse header;
  ASSERT_TRUE(reader->Read(&header));
  EXPECT_TRUE(header.has_header());
  context.TryCancel();
  v1::SolveResponse event;
  while (reader->Read(&event)) {
  }
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  // The server records the cancelled call once the anneal has stopped.
  bool recorded = false;
  for (int attempt = 0; attempt < 100 && !recorded; ++attempt) {
    auto metrics = server_->ScrapeMetrics();
    ASSERT_TRUE(metrics.ok());
    recorded = absl::StrContains(*metrics, "code=\"CANCELLED\"");
    if (!recorded) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(recorded);
}

TEST_F(SolveServiceTest, MetricsShowTheRequests) {
  auto stub = server_->NewStub();
  const testing::SolveStream stream = testing::RunSolve(*stub, NytRequest());
  ASSERT_TRUE(stream.status.ok());
  v1::SolveRequest bad = NytRequest();
  bad.mutable_params()->set_num_reads(0);
  ASSERT_EQ(testing::RunSolve(*stub, bad).status.error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A call is recorded when the server has finished it, which may be just after
  // the client sees its status.
  absl::StatusOr<std::string> metrics;
  for (int attempt = 0; attempt < 100; ++attempt) {
    metrics = server_->ScrapeMetrics();
    ASSERT_TRUE(metrics.ok()) << metrics.status();
    if (absl::StrContains(*metrics, "code=\"INVALID_ARGUMENT\"") &&
        absl::StrContains(*metrics, "code=\"OK\",method=\"Solve\"")) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  EXPECT_THAT(*metrics,
              HasSubstr("qs_requests_total{backend=\"cpu-sa\",code=\"OK\","
                        "method=\"Solve\",protocol=\"grpc\",puzzle="
                        "\"sudoku\"}"));
  EXPECT_THAT(*metrics, HasSubstr("qs_request_duration_seconds_bucket{backend="
                                  "\"cpu-sa\",method=\"Solve\""));
  EXPECT_THAT(
      *metrics,
      HasSubstr(
          "qs_samples_streamed_total{backend=\"cpu-sa\",puzzle=\"sudoku\"}"));
  EXPECT_THAT(*metrics,
              HasSubstr("qs_spin_update_attempts_total{backend=\"cpu-sa\"}"));
  EXPECT_THAT(*metrics,
              HasSubstr("qs_solve_phase_seconds_bucket{phase=\"compile\""));
  EXPECT_THAT(*metrics, HasSubstr("qs_active_requests"));
  EXPECT_THAT(*metrics, HasSubstr("qs_pool_queued_tasks"));
  EXPECT_THAT(*metrics, HasSubstr("qs_pool_active_groups"));
  EXPECT_THAT(*metrics, HasSubstr("qs_pool_occupancy"));
  EXPECT_THAT(*metrics, HasSubstr("code=\"INVALID_ARGUMENT\""));
}

// The value of the first sample line of `name` (labels included in `name`
// when given), or -1.
double MetricValue(const std::string& page, const std::string& name) {
  for (absl::string_view line : absl::StrSplit(page, '\n')) {
    if (!absl::StartsWith(line, name)) continue;
    const absl::string_view rest = line.substr(name.size());
    if (rest.empty() || (rest[0] != ' ' && rest[0] != '{')) continue;
    double value = -1;
    if (absl::SimpleAtod(line.substr(line.rfind(' ') + 1), &value))
      return value;
  }
  return -1;
}

// A puzzle solved again skips compiling (the header says so, the cache's
// counters show it), and /metrics carries the CPU split: the process's CPU
// time and the part the annealer used.
TEST_F(SolveServiceTest, RepeatedPuzzleComesFromTheCompileCache) {
  auto stub = server_->NewStub();
  v1::SolveRequest request;
  // A 4x4 Sudoku with a givens pattern no other test uses.
  v1::SudokuPuzzle* sudoku = request.mutable_puzzle()->mutable_sudoku();
  sudoku->set_box_size(2);
  for (int cell = 0; cell < 16; ++cell)
    sudoku->add_cells(cell == 0 || cell == 6 || cell == 9 || cell == 15 ? 1
                                                                        : 0);
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(16);
  request.mutable_params()->set_num_sweeps(100);
  const auto before = server_->ScrapeMetrics();
  ASSERT_TRUE(before.ok());
  std::vector<bool> from_cache;
  for (int round = 0; round < 2; ++round) {
    const testing::SolveStream stream = testing::RunSolve(*stub, request);
    ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
    ASSERT_TRUE(stream.events.front().has_header());
    from_cache.push_back(stream.events.front().header().stats().from_cache());
  }
  EXPECT_EQ(from_cache, (std::vector<bool>{false, true}));
  const auto after = server_->ScrapeMetrics();
  ASSERT_TRUE(after.ok());
  EXPECT_GE(MetricValue(*after, "qs_compile_cache_hits_total") -
                MetricValue(*before, "qs_compile_cache_hits_total"),
            1);
  EXPECT_GE(MetricValue(*after, "qs_compile_cache_entries"), 1);
  EXPECT_GT(MetricValue(*after, "qs_compile_cache_bytes"), 0);
  const double process_cpu = MetricValue(*after, "process_cpu_seconds_total");
  const double annealer_cpu =
      MetricValue(*after, "qs_annealer_cpu_seconds_total{backend=\"cpu-sa\"}");
  EXPECT_GT(annealer_cpu, 0);
  EXPECT_GT(process_cpu, annealer_cpu);
}

}  // namespace
}  // namespace qs
