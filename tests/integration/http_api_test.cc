// The HTTP/JSON front over loopback with cpp-httplib's client and raw
// sockets: every endpoint, errors and their HTTP statuses, the bearer token,
// TLS, streamed and one-object solves, SolveBatch, and a solve cancelled by a
// client that disconnects.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// A LinkedIn Queens puzzle of tests/data/queens and its unique solution.
constexpr char kQueens[] =
    "ACCCDDDD/AACCDDDH/AACCCGDD/AFFFFGGD/GFFFGGDD/GGFFGGBB/EGGFGBBB/GGGGGBBB";
const std::vector<std::string> kQueensSolution = {
    "..Q.....", ".......Q", ".Q......", "...Q....",
    "......Q.", "....Q...", "Q.......", ".....Q.."};
// A Tango puzzle of tests/data/takuzu and its solution.
constexpr char kTango[] =
    "..01../=...../.....1/....=./.0x..x../.=..../...x.../....x./....../"
    "....../......";
const std::vector<std::string> kTangoSolution = {"010101", "010011", "101010",
                                                 "100101", "011010", "101100"};

std::string SpecJson(const std::string& kind, const std::string& text) {
  auto spec = formats::ParsePuzzleText(kind, text);
  EXPECT_TRUE(spec.ok()) << spec.status();
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(*spec, &json);
  return json;
}

std::string SolveBody(const std::string& kind, const std::string& text,
                      const std::string& params) {
  return absl::StrCat(R"({"puzzle":)", SpecJson(kind, text), R"(,"params":)",
                      params, "}");
}

std::vector<Json> Lines(const std::string& body) {
  std::vector<Json> lines;
  for (absl::string_view line : absl::StrSplit(body, '\n', absl::SkipEmpty()))
    lines.push_back(Json::parse(line));
  return lines;
}

std::vector<std::string> Rows(const Json& solution) {
  return solution["rows"].get<std::vector<std::string>>();
}

// Sends `request` on a raw loopback connection and returns the socket.
int SendRaw(int port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
            0);
  EXPECT_EQ(send(fd, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  return fd;
}

std::string RawPost(const std::string& path, const std::string& body) {
  return absl::StrCat("POST ", path,
                      " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      "application/json\r\nContent-Length: ",
                      body.size(), "\r\n\r\n", body);
}

// Reads from `fd` until `text` has arrived (or the peer closed).
std::string ReadUntil(int fd, const std::string& text) {
  std::string received;
  char buffer[4096];
  while (!absl::StrContains(received, text)) {
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    received.append(buffer, static_cast<size_t>(n));
  }
  return received;
}

// A solve that runs far longer than any test waits: an empty 9x9 Sudoku with
// ten million sweeps per read.
std::string EndlessSolve() {
  return SolveBody(
      "sudoku", std::string(81, '.'),
      R"({"backend":"cpu-sa","numReads":2,"numSweeps":10000000,"seed":"1"})");
}

// An in-process server with its HTTP front on a free loopback port.
std::unique_ptr<testing::TestServer> StartHttpServer(
    server::ServerOptions options) {
  options.http.address = "127.0.0.1:0";
  return testing::TestServer::Start(options, /*with_metrics=*/false);
}

class HttpApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server::ServerOptions options;
    options.http.address = "127.0.0.1:0";
    options.http.max_body_bytes = 1 << 20;
    server_ = testing::TestServer::Start(options).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static int port() { return server_->server().http_port(); }
  static httplib::Client Client() {
    httplib::Client client("127.0.0.1", port());
    client.set_read_timeout(120);
    return client;
  }
  static httplib::Result Post(const std::string& path,
                              const std::string& body) {
    return Client().Post(path.c_str(), body, "application/json");
  }

  // Waits (bounded) until /metrics shows `text`.
  static bool MetricsShow(const std::string& text) {
    for (int i = 0; i < 600; ++i) {
      auto metrics = server_->ScrapeMetrics();
      if (metrics.ok() && absl::StrContains(*metrics, text)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  static testing::TestServer* server_;
};

testing::TestServer* HttpApiTest::server_ = nullptr;

TEST_F(HttpApiTest, HealthReadinessAndPlayground) {
  auto health = Client().Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(Json::parse(health->body)["status"], "SERVING");
  auto ready = Client().Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);

  auto page = Client().Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_THAT(page->get_header_value("Content-Type"), HasSubstr("text/html"));
  EXPECT_THAT(page->body, HasSubstr("playground.js"));
  for (const char* asset : {"/playground.js", "/boards.js", "/style.css"}) {
    auto file = Client().Get(asset);
    ASSERT_TRUE(file) << asset;
    EXPECT_EQ(file->status, 200) << asset;
    EXPECT_FALSE(file->body.empty()) << asset;
  }
  EXPECT_THAT(Client().Get("/boards.js")->get_header_value("Content-Type"),
              HasSubstr("javascript"));
  EXPECT_THAT(Client().Get("/style.css")->get_header_value("Content-Type"),
              HasSubstr("text/css"));
}

TEST_F(HttpApiTest, SolveAsOneObjectHoldsTheSummaryAndTheBestBoard) {
  auto response =
      Post("/v1/solve?stream=false",
           SolveBody("queens", kQueens,
                     R"({"backend":"cpu-sa","numReads":100,"seed":"7"})"));
  ASSERT_TRUE(response);
  ASSERT_EQ(response->status, 200) << response->body;
  EXPECT_THAT(response->get_header_value("Content-Type"),
              HasSubstr("application/json"));
  EXPECT_FALSE(response->get_header_value("X-Request-Id").empty());
  const Json body = Json::parse(response->body);
  const Json& summary = body["summary"];
  EXPECT_EQ(summary["termination"], "COMPLETED");
  EXPECT_TRUE(summary["bestValid"].get<bool>());
  EXPECT_EQ(summary["bestEnergy"].get<double>(), 0);
  EXPECT_EQ(Rows(summary["bestSolution"]), kQueensSolution);
  EXPECT_GT(summary["successFraction"].get<double>(), 0);
  EXPECT_EQ(body["header"]["stats"]["puzzleKind"], "queens");
  EXPECT_TRUE(body["samples"].empty());  // max_sample_events not set
}

TEST_F(HttpApiTest, SolveStreamsNdjsonEvents) {
  auto response =
      Post("/v1/solve",
           SolveBody("tango", kTango,
                     R"({"backend":"cpu-sa","numReads":16,"seed":"3"})"));
  ASSERT_TRUE(response);
  ASSERT_EQ(response->status, 200) << response->body;
  EXPECT_THAT(response->get_header_value("Content-Type"),
              HasSubstr("application/x-ndjson"));
  const std::vector<Json> lines = Lines(response->body);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_TRUE(lines.front().contains("header"));
  ASSERT_TRUE(lines.back().contains("summary"));
  int samples = 0;
  for (const Json& line : lines) samples += line.contains("sample") ? 1 : 0;
  EXPECT_EQ(samples, 16);
  const Json& summary = lines.back()["summary"];
  EXPECT_TRUE(summary["bestValid"].get<bool>());
  EXPECT_EQ(Rows(summary["bestSolution"]), kTangoSolution);
  // ½(NM − N − M) for a 6x6 board.
  EXPECT_EQ(summary["bestEnergy"].get<double>(), 12);
}

TEST_F(HttpApiTest, ErrorsMapToHttpStatusesWithGoogleErrorBodies) {
  // A Sudoku whose cell 17 holds 12: the compiler names the field.
  std::string cells = "[";
  for (int i = 0; i < 81; ++i)
    absl::StrAppend(&cells, i ? "," : "", i == 17 ? 12 : 0);
  cells += "]";
  auto bad_puzzle =
      Post("/v1/solve?stream=false",
           absl::StrCat(R"({"puzzle":{"sudoku":{"cells":)", cells, "}}}"));
  ASSERT_TRUE(bad_puzzle);
  EXPECT_EQ(bad_puzzle->status, 400);
  const Json error = Json::parse(bad_puzzle->body)["error"];
  EXPECT_EQ(error["code"], 400);
  EXPECT_EQ(error["status"], "INVALID_ARGUMENT");
  EXPECT_THAT(error["message"].get<std::string>(),
              HasSubstr("sudoku.cells[17]"));
  // The same when streamed: the status waits for the compile.
  auto streamed =
      Post("/v1/solve",
           absl::StrCat(R"({"puzzle":{"sudoku":{"cells":)", cells, "}}}"));
  ASSERT_TRUE(streamed);
  EXPECT_EQ(streamed->status, 400);

  auto bad_json = Post("/v1/solve", R"({"puzzle": {"sudoku": {"cellz": []}}})");
  ASSERT_TRUE(bad_json);
  EXPECT_EQ(bad_json->status, 400);
  EXPECT_THAT(
      Json::parse(bad_json->body)["error"]["message"].get<std::string>(),
      HasSubstr("cellz"));

  auto bad_reads =
      Post("/v1/solve", SolveBody("nqueens", "6", R"({"numReads":0})"));
  ASSERT_TRUE(bad_reads);
  EXPECT_EQ(bad_reads->status, 400);
  EXPECT_THAT(bad_reads->body, HasSubstr("params.num_reads"));

  // No D-Wave token: FAILED_PRECONDITION, 400 as Google maps it.
  auto dwave =
      Post("/v1/solve", SolveBody("nqueens", "6", R"({"backend":"dwave"})"));
  ASSERT_TRUE(dwave);
  EXPECT_EQ(dwave->status, 400);
  EXPECT_EQ(Json::parse(dwave->body)["error"]["status"], "FAILED_PRECONDITION");

  auto missing = Client().Get("/v1/nothing");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(Json::parse(missing->body)["error"]["status"], "NOT_FOUND");

  auto too_large = Post("/v1/compile", std::string(2 << 20, ' '));
  ASSERT_TRUE(too_large);
  EXPECT_EQ(too_large->status, 413);
}

TEST_F(HttpApiTest, CompileValidateCountAndBackends) {
  auto compile =
      Post("/v1/compile",
           absl::StrCat(R"({"puzzle":)", SpecJson("queens", kQueens), "}"));
  ASSERT_TRUE(compile);
  ASSERT_EQ(compile->status, 200) << compile->body;
  const Json stats = Json::parse(compile->body)["stats"];
  EXPECT_EQ(stats["variablesTotal"], 64);
  EXPECT_EQ(stats["groundEnergy"].get<double>(), 0);
  // Compile options pass through as they are, preprocessing included.
  auto preprocessed =
      Post("/v1/compile",
           absl::StrCat(R"({"puzzle":)", SpecJson("sudoku", "12.43.1..1.34.21"),
                        R"(,"options":{"reduction":"REDUCTION_CLUES",)"
                        R"("preprocess":"PREPROCESS_QPRO"}})"));
  ASSERT_TRUE(preprocessed);
  ASSERT_EQ(preprocessed->status, 200) << preprocessed->body;
  EXPECT_EQ(Json::parse(preprocessed->body)["stats"]["variables"], 0);
  EXPECT_EQ(Json::parse(preprocessed->body)["stats"]["removedByPreprocess"],
            24);

  std::string board;
  for (const std::string& row : kQueensSolution)
    absl::StrAppend(&board, board.empty() ? "" : "/", row);
  auto spec = formats::ParsePuzzleText("queens", kQueens);
  ASSERT_TRUE(spec.ok());
  auto solution = formats::ParseBoardText("queens", *spec, board);
  ASSERT_TRUE(solution.ok());
  std::string solution_json;
  (void)google::protobuf::util::MessageToJsonString(*solution, &solution_json);
  auto validate = Post(
      "/v1/validate", absl::StrCat(R"({"puzzle":)", SpecJson("queens", kQueens),
                                   R"(,"solution":)", solution_json, "}"));
  ASSERT_TRUE(validate);
  ASSERT_EQ(validate->status, 200) << validate->body;
  EXPECT_TRUE(Json::parse(validate->body)["report"]["valid"].get<bool>());

  auto count = Post("/v1/count", absl::StrCat(R"({"puzzle":)",
                                              SpecJson("nqueens", "8"), "}"));
  ASSERT_TRUE(count);
  ASSERT_EQ(count->status, 200) << count->body;
  EXPECT_EQ(Json::parse(count->body)["count"], "92");  // uint64 as a string

  auto backends = Client().Get("/v1/backends");
  ASSERT_TRUE(backends);
  ASSERT_EQ(backends->status, 200);
  std::vector<std::string> names;
  const Json listed = Json::parse(backends->body);
  for (const Json& b : listed["backends"]) names.push_back(b["name"]);
  EXPECT_THAT(names, ::testing::IsSupersetOf({"cpu-sa", "exact", "sat"}));

  auto families = Client().Get("/v1/families");
  ASSERT_TRUE(families);
  ASSERT_EQ(families->status, 200) << families->body;
  std::vector<std::string> kinds;
  const Json families_listed = Json::parse(families->body);
  for (const Json& f : families_listed["families"]) kinds.push_back(f["kind"]);
  EXPECT_THAT(kinds,
              ::testing::IsSupersetOf({"sudoku", "queens", "tango", "model"}));
}

// A constrained model over HTTP: its LP text in the model message (the
// contract of docs/model.md), solved to its optimum and answered in its
// terms; /v1/parse returns the structured model; a malformed text is a 400
// naming its line.
TEST_F(HttpApiTest, ModelTextSolvesAndParses) {
  const std::string lp =
      "Maximize\n 3 x + 2 y + 4 z\nSubject To\n cap: x + y + z <= 2\n"
      "Binary\n x y z\nEnd\n";
  auto response =
      Post("/v1/solve?stream=false",
           Json({{"puzzle",
                  {{"model", {{"text", lp}, {"format", "MODEL_FORMAT_LP"}}}}},
                 {"params", {{"timeLimitSeconds", 5}}}})
               .dump());
  ASSERT_TRUE(response);
  ASSERT_EQ(response->status, 200) << response->body;
  const Json body = Json::parse(response->body);
  const Json& summary = body["summary"];
  EXPECT_TRUE(summary["bestValid"].get<bool>());
  EXPECT_EQ(summary["objective"].get<double>(), 7);  // x and z
  EXPECT_EQ(summary["bestSolution"]["names"], Json::array({"x", "y", "z"}));
  EXPECT_EQ(summary["bestSolution"]["cells"], Json::array({1, 0, 1}));
  EXPECT_EQ(body["header"]["stats"]["model"]["format"], "lp");

  auto parsed =
      Post("/v1/parse", Json({{"kind", "model"}, {"text", lp}}).dump());
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->status, 200) << parsed->body;
  const Json model = Json::parse(parsed->body)["puzzle"]["model"];
  EXPECT_EQ(model["sense"], "MAXIMIZE");
  EXPECT_EQ(model["variables"].size(), 3u);
  EXPECT_EQ(model["constraints"][0]["name"], "cap");

  auto bad = Post("/v1/solve?stream=false",
                  Json({{"puzzle",
                         {{"model",
                           {{"text", "Maximize\n x +\nSubject To\nEnd\n"},
                            {"format", "MODEL_FORMAT_LP"}}}}}})
                      .dump());
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400) << bad->body;
  EXPECT_THAT(bad->body, HasSubstr("lp line"));
}

// A backend's own parameters in its message, as ListBackends declares them:
// tabu, pa and sqa are set over HTTP, and a value out of the declared range
// is refused naming the field.
TEST_F(HttpApiTest, BackendParametersTravelInTheBackendsMessage) {
  for (const auto& [params, field, value] :
       std::vector<std::tuple<std::string, std::string, int>>{
           {R"({"backend":"tabu","tabu":{"tenure":2},"seed":"1"})", "tenure",
            2},
           {R"({"backend":"sqa","sqa":{"trotter_slices":4},"seed":"1"})",
            "trotterSlices", 4},
           {R"({"backend":"pa","pa":{"sweepsPerStep":3},"seed":"1"})",
            "sweepsPerStep", 3}}) {
    auto response =
        Post("/v1/solve?stream=false", SolveBody("queens", kQueens, params));
    ASSERT_TRUE(response);
    ASSERT_EQ(response->status, 200) << response->body;
    const Json body = Json::parse(response->body);
    const Json& info = body["summary"]["backend"];
    const std::string backend = info["name"];
    EXPECT_EQ(info[backend][field].get<int>(), value) << params;
  }
  auto refused =
      Post("/v1/solve?stream=false",
           SolveBody("queens", kQueens,
                     R"({"backend":"tabu","tabu":{"elite_size":5000}})"));
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  EXPECT_THAT(refused->body, HasSubstr("params.tabu.elite_size"));
}

TEST_F(HttpApiTest, GenerateStreamsPuzzlesAndParseFormatRoundTrip) {
  auto generated = Post("/v1/generate",
                        R"({"family":"queens","rows":6,"count":2,"seed":"5"})");
  ASSERT_TRUE(generated);
  ASSERT_EQ(generated->status, 200) << generated->body;
  const std::vector<Json> puzzles = Lines(generated->body);
  ASSERT_EQ(puzzles.size(), 2u);
  EXPECT_TRUE(puzzles[0]["unique"].get<bool>());

  auto one = Post("/v1/generate?stream=false",
                  R"({"family":"tango","rows":6,"count":1,"seed":"5"})");
  ASSERT_TRUE(one);
  ASSERT_EQ(one->status, 200) << one->body;
  const Json puzzle = Json::parse(one->body)["puzzles"][0];
  auto formatted =
      Post("/v1/format",
           Json({{"kind", "tango"}, {"puzzle", puzzle["puzzle"]}}).dump());
  ASSERT_TRUE(formatted);
  ASSERT_EQ(formatted->status, 200) << formatted->body;
  const std::string text = Json::parse(formatted->body)["text"];
  auto parsed =
      Post("/v1/parse", Json({{"kind", "tango"}, {"text", text}}).dump());
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->status, 200) << parsed->body;
  EXPECT_EQ(Json::parse(parsed->body)["puzzle"]["takuzu"]["cells"],
            puzzle["puzzle"]["takuzu"]["cells"]);

  auto bad_text = Post("/v1/parse", R"({"kind":"queens","text":"AB/A"})");
  ASSERT_TRUE(bad_text);
  EXPECT_EQ(bad_text->status, 400);
  EXPECT_THAT(bad_text->body, HasSubstr("text: "));
  auto bad_family = Post("/v1/generate", R"({"family":"chess","rows":6})");
  ASSERT_TRUE(bad_family);
  EXPECT_EQ(bad_family->status, 400);
}

TEST_F(HttpApiTest, SolveBatchAnswersEveryLine) {
  const std::string body = absl::StrCat(
      R"({"id":"q","request":)",
      SolveBody("queens", kQueens, R"({"numReads":50,"seed":"1"})"), "}\n",
      R"({"id":"t","request":)",
      SolveBody("tango", kTango, R"({"numReads":16,"seed":"1"})"), "}\n\n",
      "not json\n", R"({"id":"r","request":)",
      SolveBody("nqueens", "6", R"({"numReads":0})"), "}\n");
  auto response =
      Client().Post("/v1/solve_batch", body, "application/x-ndjson");
  ASSERT_TRUE(response);
  ASSERT_EQ(response->status, 200) << response->body;
  std::map<std::string, Json> by_id;
  int unnamed = 0;
  for (const Json& result : Lines(response->body)) {
    const std::string id = result["id"];
    if (id.empty()) {
      ++unnamed;
      EXPECT_EQ(result["statusCode"], 3);
      EXPECT_THAT(result["statusMessage"].get<std::string>(),
                  HasSubstr("line 4"));
    } else {
      by_id[id] = result;
    }
  }
  EXPECT_EQ(unnamed, 1);
  ASSERT_EQ(by_id.size(), 3u);
  EXPECT_EQ(by_id["q"]["statusCode"], 0);
  EXPECT_EQ(Rows(by_id["q"]["summary"]["bestSolution"]), kQueensSolution);
  EXPECT_EQ(Rows(by_id["t"]["summary"]["bestSolution"]), kTangoSolution);
  EXPECT_EQ(by_id["r"]["statusCode"], 3);
}

TEST_F(HttpApiTest, DisconnectingClientCancelsItsSolve) {
  // Streamed: the client reads the header line, then leaves.
  int fd = SendRaw(port(), RawPost("/v1/solve", EndlessSolve()));
  EXPECT_THAT(ReadUntil(fd, "\"header\""), HasSubstr("200 OK"));
  close(fd);
  EXPECT_TRUE(
      MetricsShow(R"(code="CANCELLED",method="Solve",protocol="http")"));
  // One object: the client leaves while the status line still waits.
  fd = SendRaw(port(), RawPost("/v1/solve?stream=false", EndlessSolve()));
  ASSERT_TRUE(MetricsShow("qs_active_requests 1"));
  close(fd);
  EXPECT_TRUE(MetricsShow(
      R"(qs_requests_total{backend="cpu-sa",code="CANCELLED",method="Solve",protocol="http",puzzle="sudoku"} 2)"));
  EXPECT_TRUE(MetricsShow("qs_active_requests 0"));
  // The HTTP request metrics carry the protocol, next to gRPC's.
  ASSERT_TRUE(Client().Get("/v1/backends"));
  EXPECT_TRUE(MetricsShow(R"(method="ListBackends",protocol="http")"));
}

// A fresh directory with a token file and a self-signed certificate for
// 127.0.0.1.
std::string MakeSecrets() {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/qs_http_", getpid());
  const std::string script = absl::StrCat(
      "set -e; mkdir -p ", dir, "; cd ", dir,
      "; openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
      "-nodes -keyout key.pem -out cert.pem -days 1 -subj /CN=localhost "
      "-addext subjectAltName=IP:127.0.0.1 2>/dev/null; "
      "echo s3cret > token.txt");
  EXPECT_EQ(std::system(script.c_str()), 0);
  return dir;
}

TEST(HttpSecurityTest, BearerTokenAndTls) {
  const std::string dir = MakeSecrets();
  server::ServerOptions options;
  options.auth_token_file = dir + "/token.txt";
  options.tls.cert_file = dir + "/cert.pem";
  options.tls.key_file = dir + "/key.pem";
  auto server = StartHttpServer(options);
  ASSERT_NE(server, nullptr);
  const int port = server->server().http_port();

  httplib::SSLClient client("127.0.0.1", port);
  client.set_ca_cert_path((dir + "/cert.pem").c_str());
  client.enable_server_certificate_verification(true);
  auto health = client.Get("/healthz");  // probes need no token
  ASSERT_TRUE(health) << httplib::to_string(health.error());
  EXPECT_EQ(health->status, 200);
  auto anonymous = client.Get("/v1/backends");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401);
  EXPECT_EQ(Json::parse(anonymous->body)["error"]["status"], "UNAUTHENTICATED");
  auto wrong = client.Get("/v1/backends", {{"Authorization", "Bearer nope"}});
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 401);
  client.set_bearer_token_auth("s3cret");
  auto good = client.Get("/v1/backends");
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 200);
  auto solve = client.Post("/v1/solve?stream=false",
                           SolveBody("queens", kQueens, R"({"seed":"2"})"),
                           "application/json");
  ASSERT_TRUE(solve);
  EXPECT_EQ(solve->status, 200);
  // Plaintext HTTP is not answered on the TLS port.
  httplib::Client plain("127.0.0.1", port);
  auto refused = plain.Get("/healthz");
  EXPECT_FALSE(refused && refused->status == 200);
}

TEST(HttpAdmissionTest, FullServerAnswers503) {
  server::ServerOptions options;
  options.max_concurrent_requests = 1;
  options.max_queued_requests = 0;
  auto server = StartHttpServer(options);
  ASSERT_NE(server, nullptr);
  const int port = server->server().http_port();
  const int fd = SendRaw(port, RawPost("/v1/solve", EndlessSolve()));
  ASSERT_THAT(ReadUntil(fd, "\"header\""), HasSubstr("200 OK"));
  httplib::Client client("127.0.0.1", port);
  auto refused = client.Post("/v1/solve", SolveBody("nqueens", "6", "{}"),
                             "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 503);
  EXPECT_EQ(refused->get_header_value("Retry-After"), "1");
  EXPECT_EQ(Json::parse(refused->body)["error"]["status"], "UNAVAILABLE");
  close(fd);
}

// SIGTERM's drain reaches the HTTP front as it reaches gRPC: readiness turns
// 503, new calls get 503, and a running streamed solve ends normally.
TEST(HttpDrainTest, RunningSolveEndsNewCallsAreRefused) {
  server::ServerOptions options;
  auto server = StartHttpServer(options);
  ASSERT_NE(server, nullptr);
  const int port = server->server().http_port();
  // About 2.6e8 spin-update attempts: running when the drain starts.
  const int fd = SendRaw(
      port,
      RawPost(
          "/v1/solve",
          SolveBody(
              "queens", kQueens,
              R"({"backend":"cpu-sa","numReads":4,"numSweeps":1000000,"seed":"1"})")));
  ASSERT_THAT(ReadUntil(fd, "\"header\""), HasSubstr("200 OK"));
  std::thread drain([&] { server->server().Drain(absl::Seconds(120)); });
  httplib::Client client("127.0.0.1", port);
  int ready = 0;
  for (int i = 0; i < 200 && ready != 503; ++i) {
    auto response = client.Get("/readyz");
    ready = response ? response->status : 0;
    if (ready != 503)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(ready, 503);
  auto refused = client.Post("/v1/solve", SolveBody("nqueens", "6", "{}"),
                             "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 503);
  const std::string rest = ReadUntil(fd, "\r\n0\r\n\r\n");
  close(fd);
  drain.join();
  EXPECT_THAT(rest, HasSubstr("\"summary\""));
  EXPECT_THAT(rest, HasSubstr("\"termination\":\"COMPLETED\""));
  EXPECT_THAT(rest, ::testing::Not(HasSubstr("\"error\"")));
}

TEST(HttpStartTest, BusyPortAndMalformedAddressAreReported) {
  server::ServerOptions options;
  auto first = StartHttpServer(options);
  ASSERT_NE(first, nullptr);
  options.http.address =
      absl::StrCat("127.0.0.1:", first->server().http_port());
  options.address = "127.0.0.1:0";
  options.metrics_address = "";
  auto busy = server::Server::Start(options);
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(busy.status().message(), HasSubstr("(HTTP)"));

  options.http.address = "127.0.0.1:not-a-port";
  auto malformed = server::Server::Start(options);
  ASSERT_FALSE(malformed.ok());
  EXPECT_THAT(malformed.status().message(), HasSubstr("--http_address"));
}

}  // namespace
}  // namespace qs
