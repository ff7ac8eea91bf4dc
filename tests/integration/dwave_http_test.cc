// The D-Wave QPU controls over the HTTP/JSON front (JSON names from the proto),
// against the SAPI emulator: four spin-reversal transforms submit four gauged
// problems and still solve 5-queens, QPU access time is summed in the answer
// and counted in /metrics, and a schedule the solver cannot run is a 400
// before anything is submitted; qsolve's --dwave_* flags reach the QPU.
#include <httplib.h>

#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

constexpr char kToken[] = "HTTP-dwave-token";
constexpr char kSolver[] = "Advantage_emulator_P16";

class DwaveHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.queue_delay = absl::ZeroDuration();
    options.run_time = absl::ZeroDuration();
    options.sweeps = 2000;
    emulator_ = new sapi_emulator::SapiEmulator(options);
    ASSERT_OK(emulator_->Start());
    server::ServerOptions server_options;
    server_options.http.address = "127.0.0.1:0";
    server_options.backends.dwave.emplace();
    server_options.backends.dwave->endpoint = emulator_->endpoint();
    server_options.backends.dwave->token = kToken;
    server_options.backends.dwave->solver = kSolver;
    server_ = testing::TestServer::Start(server_options).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    delete emulator_;
  }

  static httplib::Result Solve(const std::string& dwave_params) {
    httplib::Client client("127.0.0.1", server_->server().http_port());
    client.set_read_timeout(120);
    return client.Post(
        "/v1/solve?stream=false",
        absl::StrCat(R"({"puzzle":{"queens":{"rows":5}},"params":{)",
                     R"("backend":"dwave","numReads":400,"seed":"3",)",
                     R"("dwave":)", dwave_params, "}}"),
        "application/json");
  }

  static sapi_emulator::SapiEmulator* emulator_;
  static testing::TestServer* server_;
};

sapi_emulator::SapiEmulator* DwaveHttpTest::emulator_ = nullptr;
testing::TestServer* DwaveHttpTest::server_ = nullptr;

TEST_F(DwaveHttpTest, FourTransformsOverJsonWithQpuTimeInAnswerAndMetrics) {
  const size_t before = emulator_->Submissions().size();
  auto response = Solve(R"({"numSpinReversalTransforms":4})");
  ASSERT_TRUE(response);
  ASSERT_EQ(response->status, 200) << response->body;
  const Json summary = Json::parse(response->body)["summary"];
  EXPECT_TRUE(summary["bestValid"].get<bool>());
  const Json& d = summary["backend"]["dwave"];
  EXPECT_EQ(d["numSpinReversalTransforms"], 4);
  EXPECT_EQ(d["numProblems"], 4);
  ASSERT_EQ(d["problems"].size(), 4u);
  double access = 0;
  for (const Json& p : d["problems"])
    access += p["qpuAccessTimeUs"].get<double>();
  EXPECT_GT(access, 0);
  EXPECT_NEAR(d["qpuAccessTimeUs"].get<double>(), access, 1e-6 * access);

  // Four problems: the same magnitudes, four different sign patterns.
  const auto all = emulator_->Submissions();
  ASSERT_EQ(all.size() - before, 4u);
  std::set<std::vector<int>> signs;
  for (size_t k = before; k < all.size(); ++k) {
    const auto& problem = all[k].problem;
    std::vector<int> pattern;
    for (const auto& [q, h] : all[before].problem.linear) {
      ASSERT_TRUE(problem.linear.contains(q));
      EXPECT_EQ(std::abs(problem.linear.at(q)), std::abs(h));
      pattern.push_back(problem.linear.at(q) == h ? 1 : -1);
    }
    signs.insert(pattern);
  }
  EXPECT_EQ(signs.size(), 4u);

  const std::string metric = absl::StrCat(
      "qs_dwave_qpu_access_microseconds_total{solver=\"", kSolver, "\"}");
  bool shown = false;
  for (int i = 0; i < 200 && !shown; ++i) {
    auto metrics = server_->ScrapeMetrics();
    shown = metrics.ok() && absl::StrContains(*metrics, metric);
    if (!shown) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(shown) << metric;
}

TEST_F(DwaveHttpTest, BadSchedulesAre400BeforeAnySubmission) {
  const int posts = emulator_->CountRequests("submit", "POST");
  // A 1 µs jump from s = 0.4 to 1: steeper than 1 / 0.5 µs.
  auto steep =
      Solve(R"({"annealSchedule":[{"timeUs":0,"s":0},{"timeUs":20,"s":0.4},)"
            R"({"timeUs":20.1,"s":1}]})");
  ASSERT_TRUE(steep);
  EXPECT_EQ(steep->status, 400) << steep->body;
  EXPECT_THAT(steep->body, HasSubstr("params.dwave.anneal_schedule[2]"));
  std::string many = R"({"annealSchedule":[)";
  for (int k = 0; k < 13; ++k) {
    absl::StrAppend(&many, k > 0 ? "," : "", R"({"timeUs":)", k * 10,
                    R"(,"s":)", k == 12 ? 1.0 : k * 0.05, "}");
  }
  many += "]}";
  auto too_many = Solve(many);
  ASSERT_TRUE(too_many);
  EXPECT_EQ(too_many->status, 400) << too_many->body;
  EXPECT_THAT(too_many->body, HasSubstr("params.dwave.anneal_schedule[12]"));
  EXPECT_EQ(emulator_->CountRequests("submit", "POST"), posts);
}

TEST_F(DwaveHttpTest, QsolveFlagsSetTheControls) {
  const size_t before = emulator_->Submissions().size();
  // Columns as the colour regions: a 5x5 board with one queen per row and
  // column, none diagonally adjacent.
  const testing::CommandResult result = testing::RunQsolve(absl::StrCat(
      "solve --addr ", server_->address(),
      " --kind queens --input ABCDE/ABCDE/ABCDE/ABCDE/ABCDE --backend dwave "
      "--reads 60 --seed 2 --dwave_spin_reversal_transforms 3 "
      "--dwave_anneal_schedule '0,0 10,0.5 30,0.5 40,1'"));
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_THAT(
      result.out,
      HasSubstr("dwave.num_spin_reversal_transforms 3, dwave.num_problems 3"));
  const auto all = emulator_->Submissions();
  ASSERT_EQ(all.size() - before, 3u);
  for (size_t k = before; k < all.size(); ++k) {
    const Json params = Json::parse(all[k].params_json);
    EXPECT_EQ(params["num_reads"], 20);
    EXPECT_EQ(params["anneal_schedule"],
              Json::parse("[[0.0,0.0],[10.0,0.5],[30.0,0.5],[40.0,1.0]]"));
  }
  const testing::CommandResult bad = testing::RunQsolve(absl::StrCat(
      "solve --addr ", server_->address(),
      " --kind queens --input ABCDE/ABCDE/ABCDE/ABCDE/ABCDE --backend dwave "
      "--dwave_anneal_schedule '0,0 10'"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("--dwave_anneal_schedule"));
}

}  // namespace
}  // namespace qs
