// The libcurl SapiClient and the emulator's SAPI contract
// (docs/dwave-protocol.md §1, §4.1): endpoint resolution through the
// Metadata API, Retry-After parsing, the §1.7 worked example end to end, and
// the emulator's authentication, content negotiation, caching, strict
// validation, polling and cancellation codes, checked with raw HTTP requests.
#include "core/sample/dwave/sapi_client.h"

#include <httplib.h>
#include <zlib.h>

#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/sapi_emulator/sapi_emulator.h"
#include "tests/testing/status_matchers.h"

namespace qs::dwave {
namespace {

using json = nlohmann::json;
using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kToken[] = "CLIENT-token-77";
constexpr char kNoAccess[] = "NO-ACCESS-token";
constexpr char kProblemsAccept[] =
    "application/vnd.dwave.sapi.problems+json; version=3.0.0";

class SapiClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sapi_emulator::Options options;
    options.tokens = {kToken};
    options.token_without_access = kNoAccess;
    options.queue_delay = absl::ZeroDuration();
    options.run_time = absl::ZeroDuration();
    emulator_ = std::make_unique<sapi_emulator::SapiEmulator>(options);
    ASSERT_OK(emulator_->Start());
    SapiClientOptions client_options;
    client_options.endpoint = emulator_->endpoint();
    client_options.token = kToken;
    client_options.request_timeout = absl::Seconds(5);
    client_ = NewCurlSapiClient(client_options);
    http_ = std::make_unique<httplib::Client>("127.0.0.1", emulator_->port());
  }

  CallContext Ctx() const {
    return CallContext{absl::Now() + absl::Seconds(30), nullptr};
  }

  // The §1.7 worked-example job, as JSON.
  json WorkedExampleJob() const {
    return {{"solver",
             {{"name", "FAKE_k4"}, {"version", {{"graph_id", "fake00k4aa"}}}}},
            {"type", "qubo"},
            {"label", "one-hot-demo"},
            {"data",
             {{"format", "qp"},
              {"lin", "AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAA+H8="},
              {"quad", "AAAAAAAAAEAAAAAAAAAAQAAAAAAAAABA"},
              {"offset", 1.0}}},
            {"params",
             {{"num_reads", 100},
              {"annealing_time", 20.0},
              {"auto_scale", true},
              {"answer_mode", "histogram"}}}};
  }

  httplib::Result Post(const std::string& path, const std::string& body,
                       const std::string& token = kToken,
                       const std::string& accept = kProblemsAccept) {
    httplib::Headers headers = {{"X-Auth-Token", token}, {"Accept", accept}};
    return http_->Post(path.c_str(), headers, body, "application/json");
  }

  // The per-item error message of a one-job submission.
  std::string SubmitError(const json& job) {
    auto res = Post("/sapi/v2/problems/", json::array({job}).dump());
    EXPECT_TRUE(res);
    if (!res) return "";
    EXPECT_EQ(res->status, 200);
    json body = json::parse(res->body, nullptr, false);
    if (!body.is_array() || body.empty() || !body[0].contains("error_code"))
      return "(accepted)";
    EXPECT_EQ(body[0]["error_code"], 400);
    return body[0]["error_msg"].get<std::string>();
  }

  std::unique_ptr<sapi_emulator::SapiEmulator> emulator_;
  std::unique_ptr<SapiClient> client_;
  std::unique_ptr<httplib::Client> http_;
};

TEST_F(SapiClientTest, ResolvesEndpointsLikeTheOfficialClient) {
  SapiClientOptions http;
  // An explicit endpoint wins.
  auto explicit_endpoint = ResolveEndpoint("https://example.invalid/sapi/v2/",
                                           "eu-central-1", "", http, Ctx());
  ASSERT_OK(explicit_endpoint);
  EXPECT_EQ(explicit_endpoint->endpoint, "https://example.invalid/sapi/v2/");
  // The default region with the default Metadata API: the global endpoint,
  // without asking.
  auto global = ResolveEndpoint("", "", "", http, Ctx());
  ASSERT_OK(global);
  EXPECT_EQ(global->endpoint, kDefaultSapiEndpoint);
  // Otherwise the Metadata API's region list decides.
  auto regional = ResolveEndpoint("", "eu-central-1",
                                  emulator_->metadata_endpoint(), http, Ctx());
  ASSERT_OK(regional);
  EXPECT_EQ(regional->endpoint, emulator_->endpoint());
  EXPECT_TRUE(regional->warning.empty());
  EXPECT_THAT(ResolveEndpoint("", "mars-north-1",
                              emulator_->metadata_endpoint(), http, Ctx()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("na-west-1, eu-central-1")));
  // A failing Metadata API falls back to the default endpoint with a warning.
  http.connect_timeout = absl::Seconds(2);
  auto fallback = ResolveEndpoint(
      "", "eu-central-1", "http://127.0.0.1:1/metadata/v1/", http, Ctx());
  ASSERT_OK(fallback);
  EXPECT_EQ(fallback->endpoint, kDefaultSapiEndpoint);
  EXPECT_THAT(fallback->warning, HasSubstr("Metadata API"));
}

TEST(SapiHelpersTest, RetryAfterInSecondsOrAsAnHttpDate) {
  const absl::Time now =
      absl::FromUnixSeconds(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(*ParseRetryAfter("120", now), absl::Seconds(120));
  EXPECT_EQ(*ParseRetryAfter(" 0 ", now), absl::ZeroDuration());
  EXPECT_EQ(*ParseRetryAfter("Sun, 06 Nov 1994 08:49:47 GMT", now),
            absl::Seconds(10));
  EXPECT_EQ(*ParseRetryAfter("Sun, 06 Nov 1994 08:49:27 GMT", now),
            absl::ZeroDuration());
  EXPECT_FALSE(ParseRetryAfter("soon", now).has_value());
  EXPECT_FALSE(ParseRetryAfter("-5", now).has_value());
}

TEST(SapiHelpersTest, HttpStatusesMapToStatusCodes) {
  EXPECT_EQ(StatusCodeForHttp(400), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StatusCodeForHttp(401), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(StatusCodeForHttp(403), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(StatusCodeForHttp(404), absl::StatusCode::kNotFound);
  EXPECT_EQ(StatusCodeForHttp(409), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(StatusCodeForHttp(410), absl::StatusCode::kNotFound);
  EXPECT_EQ(StatusCodeForHttp(415), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(StatusCodeForHttp(429), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(StatusCodeForHttp(502), absl::StatusCode::kUnavailable);
}

TEST_F(SapiClientTest, ListsAndFetchesSolvers) {
  auto all = client_->ListSolvers("", Ctx());
  ASSERT_OK(all);
  ASSERT_EQ(all->size(), 5u);
  const SolverInfo* p16 = nullptr;
  for (const SolverInfo& s : *all) {
    if (s.name == "Advantage_emulator_P16") p16 = &s;
  }
  ASSERT_NE(p16, nullptr);
  EXPECT_EQ(p16->category, "qpu");
  EXPECT_EQ(p16->topology_type, "pegasus");
  EXPECT_EQ(p16->num_qubits, 5760);
  EXPECT_LT(p16->qubits.size(), 5640u);  // seeded broken qubits
  EXPECT_EQ(p16->graph_id, *emulator_->GraphIdOf("Advantage_emulator_P16"));
  // A light listing keeps only what the filter asks for.
  auto light = client_->ListSolvers(
      "none,+identity,+status,+properties.category", Ctx());
  ASSERT_OK(light);
  for (const SolverInfo& s : *light) {
    EXPECT_TRUE(s.qubits.empty());
    EXPECT_EQ(s.status, "ONLINE");
    EXPECT_FALSE(s.category.empty());
  }
  auto k4 = client_->GetSolver("FAKE_k4", Ctx());
  ASSERT_OK(k4);
  EXPECT_THAT(k4->qubits, ElementsAre(0, 1, 4, 5));
  EXPECT_EQ(k4->couplers.size(), 6u);
  EXPECT_EQ(k4->identity_json,
            R"({"name":"FAKE_k4","version":{"graph_id":"fake00k4aa"}})");
  // The anneal-control properties (docs/dwave-protocol.md §6).
  EXPECT_EQ(k4->max_anneal_schedule_points, 12);
  EXPECT_EQ(k4->max_h_gain_schedule_points, 20);
  ASSERT_TRUE(k4->h_gain_schedule_range.has_value());
  EXPECT_EQ(*k4->h_gain_schedule_range, std::make_pair(-4.0, 4.0));
  EXPECT_FALSE(k4->max_slope.has_value());
  EXPECT_THAT(client_->GetSolver("Nonexistent_system", Ctx()),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("Solver does not exist")));
}

TEST_F(SapiClientTest, TheWorkedExampleRoundTrips) {
  auto k4 = client_->GetSolver("FAKE_k4", Ctx());
  ASSERT_OK(k4);
  ProblemJob job;
  job.solver_identity_json = k4->identity_json;
  job.type = "qubo";
  job.data = {"AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAA+H8=",
              "AAAAAAAAAEAAAAAAAAAAQAAAAAAAAABA"};
  job.params_json =
      R"({"num_reads": 100, "annealing_time": 20.0, "auto_scale": true, "answer_mode": "histogram"})";
  job.label = "one-hot-demo";
  auto submitted = client_->Submit({job}, Ctx());
  ASSERT_OK(submitted);
  ASSERT_EQ(submitted->size(), 1u);
  ASSERT_OK((*submitted)[0]);
  const ProblemStatus& status = *(*submitted)[0];
  EXPECT_EQ(status.label, "one-hot-demo");
  EXPECT_EQ(status.type, "qubo");
  EXPECT_THAT(
      status.submitted_on,
      ::testing::MatchesRegex(
          R"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z)"));
  // UUID version 4.
  EXPECT_THAT(
      status.id,
      ::testing::MatchesRegex(
          R"([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"));
  std::vector<ProblemStatus> polled;
  for (int i = 0; i < 50; ++i) {
    auto p = client_->Poll({status.id}, 1, Ctx());
    ASSERT_OK(p);
    polled = *p;
    if (polled[0].terminal()) break;
  }
  ASSERT_EQ(polled[0].status, "COMPLETED");
  EXPECT_FALSE(polled[0].solved_on.empty());
  auto answer = client_->GetAnswer(status.id, Ctx());
  ASSERT_OK(answer);
  EXPECT_EQ(answer->fields.num_variables, 6);
  EXPECT_EQ(answer->fields.active_variables, "AAAAAAEAAAAEAAAA");
  EXPECT_DOUBLE_EQ(answer->timing.at("qpu_access_time"),
                   answer->timing.at("qpu_programming_time") +
                       answer->timing.at("qpu_sampling_time"));
  auto decoded = DecodeQpAnswer(answer->fields, QpProblemType::kQubo);
  ASSERT_OK(decoded);
  int64_t total = 0;
  for (size_t s = 0; s < decoded->solutions.size(); ++s) {
    EXPECT_EQ(decoded->energies[s],
              -1.0);  // one-hot ground states, offset not included
    EXPECT_EQ(decoded->solutions[s][0] + decoded->solutions[s][1] +
                  decoded->solutions[s][2],
              1);
    total += decoded->num_occurrences[s];
  }
  EXPECT_EQ(total, 100);
}

TEST_F(SapiClientTest, EmulatorAuthenticatesAndNegotiatesMediaTypes) {
  auto no_token = http_->Get("/sapi/v2/solvers/remote/");
  ASSERT_TRUE(no_token);
  EXPECT_EQ(no_token->status, 401);
  httplib::Headers v2 = {
      {"X-Auth-Token", kToken},
      {"Accept",
       "application/vnd.dwave.sapi.solver-definition-list+json; "
       "version=2.0.0"}};
  auto old = http_->Get("/sapi/v2/solvers/remote/", v2);
  ASSERT_TRUE(old);
  EXPECT_EQ(old->status, 415);
  auto bare = http_->Get("/sapi/v2/solvers/remote/FAKE_k4",
                         httplib::Headers{{"X-Auth-Token", kToken}});
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 200);
  EXPECT_TRUE(bare->has_header("X-Deprecation"));
  EXPECT_THAT(bare->get_header_value("Content-Type"),
              HasSubstr("version=3.0.0"));
  // Caching: the ETag comes back, If-None-Match gets 304.
  httplib::Headers v3 = {
      {"X-Auth-Token", kToken},
      {"Accept",
       "application/vnd.dwave.sapi.solver-definition+json; version=3.0.0"}};
  auto first = http_->Get("/sapi/v2/solvers/remote/FAKE_k4/", v3);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  EXPECT_THAT(first->get_header_value("Cache-Control"),
              HasSubstr("private, max-age="));
  v3.emplace("If-None-Match", first->get_header_value("ETag"));
  auto second = http_->Get("/sapi/v2/solvers/remote/FAKE_k4", v3);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 304);
  // A token without access sees no solver.
  httplib::Headers limited = {{"X-Auth-Token", kNoAccess}};
  auto hidden = http_->Get("/sapi/v2/solvers/remote/FAKE_k4", limited);
  ASSERT_TRUE(hidden);
  EXPECT_EQ(hidden->status, 404);
  auto refused = Post("/sapi/v2/problems/",
                      json::array({WorkedExampleJob()}).dump(), kNoAccess);
  ASSERT_TRUE(refused);
  EXPECT_THAT(refused->body, HasSubstr("\"error_code\":400"));
  auto unknown = http_->Get("/sapi/v2/nothing/here",
                            httplib::Headers{{"X-Auth-Token", kToken}});
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
}

TEST_F(SapiClientTest, EmulatorValidatesSubmissionsStrictly) {
  EXPECT_EQ(SubmitError(WorkedExampleJob()), "(accepted)");
  json job = WorkedExampleJob();
  job["solver"] = "FAKE_k4";
  EXPECT_THAT(SubmitError(job), HasSubstr("identity object"));
  job = WorkedExampleJob();
  job["solver"]["version"]["graph_id"] = "0123456789";
  EXPECT_THAT(SubmitError(job), HasSubstr("graph_id"));
  job = WorkedExampleJob();
  job["type"] = "cqm";
  EXPECT_THAT(SubmitError(job),
              HasSubstr("Problem type (cqm) is not supported"));
  job = WorkedExampleJob();
  job["params"]["flux_drift"] = 1;
  EXPECT_THAT(SubmitError(job), HasSubstr("flux_drift"));
  job["params"].erase("flux_drift");
  job["params"]["x_experimental"] = 1;  // x_ parameters pass
  EXPECT_EQ(SubmitError(job), "(accepted)");
  job = WorkedExampleJob();
  job["params"]["num_reads"] = 10001;
  EXPECT_THAT(SubmitError(job), HasSubstr("num_reads"));
  job = WorkedExampleJob();
  job["params"]["anneal_schedule"] = json::array();
  EXPECT_THAT(SubmitError(job), HasSubstr("mutually exclusive"));
  job = WorkedExampleJob();
  job["data"]["lin"] = "AAAAAAAA8L8=";
  EXPECT_THAT(SubmitError(job), HasSubstr("data.lin"));
  job = WorkedExampleJob();
  job["data"]["quad"] = "AAAAAAAA+H8AAAAAAAAAQAAAAAAAAABA";  // NaN first
  EXPECT_THAT(SubmitError(job), HasSubstr("NaN"));
  job = WorkedExampleJob();
  job["label"] = std::string(1025, 'x');
  EXPECT_THAT(SubmitError(job), HasSubstr("1024"));
  job = WorkedExampleJob();
  job["params"]["auto_scale"] = false;
  job["data"]["lin"] =
      "AAAAAAAAFMAAAAAAAADwvwAAAAAAAPC/AAAAAAAA+H8=";  // h = -5 is outside [-4,
                                                       // 4]
  EXPECT_THAT(SubmitError(job), HasSubstr("h_range"));
  auto malformed = Post("/sapi/v2/problems/", "[{\"solver\":");
  ASSERT_TRUE(malformed);
  EXPECT_EQ(malformed->status, 400);
}

TEST_F(SapiClientTest, EmulatorAcceptsDeflatedBodiesAndTheBlockingForm) {
  const std::string body = json::array({WorkedExampleJob()}).dump();
  uLongf size = compressBound(body.size());
  std::string packed(size, '\0');
  ASSERT_EQ(compress(reinterpret_cast<Bytef*>(packed.data()), &size,
                     reinterpret_cast<const Bytef*>(body.data()), body.size()),
            Z_OK);
  packed.resize(size);
  httplib::Headers headers = {{"X-Auth-Token", kToken},
                              {"Accept", kProblemsAccept},
                              {"Content-Encoding", "deflate"}};
  auto res =
      http_->Post("/sapi/v2/problems/", headers, packed, "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  const json accepted = json::parse(res->body);
  ASSERT_TRUE(accepted.is_array());
  EXPECT_TRUE(accepted[0].contains("id"));
  EXPECT_FALSE(accepted[0].contains("error_code"));
  // One object instead of an array: one status back.
  auto single = Post("/sapi/v2/problems", WorkedExampleJob().dump());
  ASSERT_TRUE(single);
  json status = json::parse(single->body);
  EXPECT_TRUE(status.is_object());
  EXPECT_TRUE(status.contains("id"));
}

TEST_F(SapiClientTest, EmulatorPollsAndCancelsWithSapisCodes) {
  httplib::Headers headers = {{"X-Auth-Token", kToken},
                              {"Accept", kProblemsAccept}};
  auto bad_timeout = http_->Get("/sapi/v2/problems/?id=x&timeout=31", headers);
  ASSERT_TRUE(bad_timeout);
  EXPECT_EQ(bad_timeout->status, 400);
  auto unknown = http_->Get(
      "/sapi/v2/problems/?id=00000000-0000-4000-8000-000000000000", headers);
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  // A finished problem cannot be cancelled (409); an unknown one is 404.
  auto done =
      Post("/sapi/v2/problems/", json::array({WorkedExampleJob()}).dump());
  ASSERT_TRUE(done);
  const std::string id = json::parse(done->body)[0]["id"];
  for (int i = 0; i < 200 && *emulator_->ProblemStatusOf(id) != "COMPLETED";
       ++i)
    absl::SleepFor(absl::Milliseconds(5));
  httplib::Headers one = {
      {"X-Auth-Token", kToken},
      {"Accept", "application/vnd.dwave.sapi.problem+json; version=3.0.0"}};
  auto finished = http_->Delete(("/sapi/v2/problems/" + id).c_str(), one);
  ASSERT_TRUE(finished);
  EXPECT_EQ(finished->status, 409);
  auto gone = http_->Delete(
      "/sapi/v2/problems/00000000-0000-4000-8000-000000000000", one);
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->status, 404);
  auto list = http_->Delete("/sapi/v2/problems/", headers,
                            json::array({id}).dump(), "application/json");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 200);
  EXPECT_EQ(json::parse(list->body)[0]["error_code"], 409);
  auto empty =
      http_->Delete("/sapi/v2/problems/", headers, "[]", "application/json");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->status, 400);
  // GET problems/{id}/ carries the answer once COMPLETED; info and messages
  // exist.
  httplib::Headers problem = one;
  auto full = http_->Get(("/sapi/v2/problems/" + id + "/").c_str(), problem);
  ASSERT_TRUE(full);
  EXPECT_TRUE(json::parse(full->body).contains("answer"));
  httplib::Headers info = {
      {"X-Auth-Token", kToken},
      {"Accept",
       "application/vnd.dwave.sapi.problem-data+json; version=3.0.0"}};
  auto data = http_->Get(("/sapi/v2/problems/" + id + "/info").c_str(), info);
  ASSERT_TRUE(data);
  EXPECT_EQ(json::parse(data->body)["metadata"]["label"], "one-hot-demo");
}

TEST_F(SapiClientTest, PendingProblemsCancelWith200) {
  sapi_emulator::Options options;
  options.tokens = {kToken};
  options.queue_delay = absl::Seconds(60);
  sapi_emulator::SapiEmulator slow(options);
  ASSERT_OK(slow.Start());
  SapiClientOptions client_options;
  client_options.endpoint = slow.endpoint();
  client_options.token = kToken;
  auto client = NewCurlSapiClient(client_options);
  auto k4 = client->GetSolver("FAKE_k4", Ctx());
  ASSERT_OK(k4);
  ProblemJob job;
  job.solver_identity_json = k4->identity_json;
  job.data = {"AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAA+H8=",
              "AAAAAAAAAEAAAAAAAAAAQAAAAAAAAABA"};
  auto submitted = client->Submit({job, job}, Ctx());
  ASSERT_OK(submitted);
  std::vector<std::string> ids = {(*submitted)[0]->id, (*submitted)[1]->id};
  EXPECT_EQ((*submitted)[0]->status, "PENDING");
  ASSERT_OK(client->Cancel(ids, Ctx()));  // the list form
  EXPECT_EQ(*slow.ProblemStatusOf(ids[0]), "CANCELLED");
  EXPECT_EQ(*slow.ProblemStatusOf(ids[1]), "CANCELLED");
  EXPECT_EQ(slow.CountRequests("cancel", "DELETE"), 1);
  auto polled = client->Poll(ids, 1, Ctx());
  ASSERT_OK(polled);
  EXPECT_EQ((*polled)[0].status, "CANCELLED");
  EXPECT_THAT(client->GetAnswer(ids[0], Ctx()),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("HTTP 404")));
}

}  // namespace
}  // namespace qs::dwave
