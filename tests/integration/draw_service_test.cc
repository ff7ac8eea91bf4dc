// Solver.Draw and POST /v1/draw through a running server over loopback: a
// solved board and a parsed one drawn over gRPC and over HTTP, a solution
// that does not fit refused naming solution.cells, and a raw model refused
// as UNIMPLEMENTED (HTTP 501).
#include <httplib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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

class DrawServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server::ServerOptions options;
    options.http.address = "127.0.0.1:0";
    server_ =
        testing::TestServer::Start(options, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static httplib::Result Post(const std::string& path,
                              const std::string& body) {
    httplib::Client client("127.0.0.1", server_->server().http_port());
    client.set_read_timeout(60);
    return client.Post(path.c_str(), body, "application/json");
  }

  static grpc::Status Parse(const std::string& kind, const std::string& text,
                            const std::string& board,
                            v1::ParseResponse* response) {
    auto stub = server_->NewStub();
    grpc::ClientContext context;
    v1::ParseRequest request;
    request.set_kind(kind);
    request.set_text(text);
    request.set_board(board);
    return stub->Parse(&context, request, response);
  }

  static grpc::Status Draw(const v1::DrawRequest& request,
                           v1::DrawResponse* response) {
    auto stub = server_->NewStub();
    grpc::ClientContext context;
    return stub->Draw(&context, request, response);
  }

  static testing::TestServer* server_;
};

testing::TestServer* DrawServiceTest::server_ = nullptr;

int CountGlyphs(const v1::BoardPicture& picture, const std::string& glyph) {
  return static_cast<int>(std::count_if(
      picture.cells().begin(), picture.cells().end(),
      [&](const v1::PictureCell& cell) { return cell.glyph() == glyph; }));
}

int CountChars(const std::vector<std::string>& rows, char ch) {
  int n = 0;
  for (const std::string& row : rows)
    n += std::count(row.begin(), row.end(), ch);
  return n;
}

TEST_F(DrawServiceTest, GrpcDrawsASolvedBoard) {
  v1::ParseResponse parsed;
  ASSERT_TRUE(Parse("queens", kQueens, "", &parsed).ok());
  v1::SolveRequest solve;
  *solve.mutable_puzzle() = parsed.puzzle();
  solve.mutable_params()->set_backend("cpu-sa");
  solve.mutable_params()->set_num_reads(100);
  solve.mutable_params()->set_seed(7);
  auto stub = server_->NewStub();
  const testing::SolveStream stream = testing::RunSolve(*stub, solve);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  ASSERT_NE(stream.summary(), nullptr);
  const v1::PuzzleSolution& best = stream.summary()->best_solution();
  ASSERT_EQ(std::vector<std::string>(best.rows().begin(), best.rows().end()),
            kQueensSolution);

  v1::DrawRequest request;
  *request.mutable_puzzle() = parsed.puzzle();
  *request.mutable_solution() = best;
  v1::DrawResponse response;
  const grpc::Status status = Draw(request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  const v1::BoardPicture& picture = response.picture();
  ASSERT_EQ(picture.rows(), 8u);
  ASSERT_EQ(picture.cols(), 8u);
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t c = 0; c < 8; ++c) {
      EXPECT_EQ(picture.cells(r * 8 + c).glyph() == "queen",
                kQueensSolution[r][c] == 'Q')
          << r << "," << c;
      EXPECT_GE(picture.cells(r * 8 + c).region(), 1u);
    }
  }
  EXPECT_FALSE(picture.walls().empty());
}

TEST_F(DrawServiceTest, GrpcDrawsAParsedBoardAndRefusesWhatDoesNotFit) {
  v1::ParseResponse parsed;
  ASSERT_TRUE(
      Parse("tango", kTango, absl::StrJoin(kTangoSolution, "/"), &parsed).ok());
  v1::DrawRequest request;
  *request.mutable_puzzle() = parsed.puzzle();
  v1::DrawResponse puzzle;
  ASSERT_TRUE(Draw(request, &puzzle).ok());
  // The givens alone: two suns and two moons (kTango's cell rows).
  EXPECT_EQ(CountGlyphs(puzzle.picture(), "sun"), 2);
  EXPECT_EQ(CountGlyphs(puzzle.picture(), "moon"), 2);
  // Every sign of a Tango stands between side neighbours.
  const std::string text = kTango;
  EXPECT_EQ(puzzle.picture().signs_size(),
            std::count(text.begin(), text.end(), '=') +
                std::count(text.begin(), text.end(), 'x'));

  *request.mutable_solution() = parsed.board();
  v1::DrawResponse solved;
  ASSERT_TRUE(Draw(request, &solved).ok());
  EXPECT_EQ(CountGlyphs(solved.picture(), "sun"),
            CountChars(kTangoSolution, '0'));
  EXPECT_EQ(CountGlyphs(solved.picture(), "moon"),
            CountChars(kTangoSolution, '1'));

  request.mutable_solution()->mutable_cells()->RemoveLast();
  v1::DrawResponse refused;
  const grpc::Status status = Draw(request, &refused);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("solution.cells"));

  v1::ParseResponse maxcut;
  ASSERT_TRUE(Parse("maxcut", "3 2\n1 2 1\n2 3 1", "", &maxcut).ok());
  request.Clear();
  *request.mutable_puzzle() = maxcut.puzzle();
  EXPECT_EQ(Draw(request, &refused).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(DrawServiceTest, HttpDrawAnswersThePictureAsJson) {
  auto parsed = Post("/v1/parse", R"({"kind":"tango","text":")" +
                                      std::string(kTango) + R"("})");
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->status, 200) << parsed->body;
  const Json puzzle = Json::parse(parsed->body)["puzzle"];
  Json cells = Json::array();
  for (const std::string& row : kTangoSolution)
    for (char ch : row) cells.push_back(ch - '0');
  const Json body = {{"puzzle", puzzle}, {"solution", {{"cells", cells}}}};

  auto drawn = Post("/v1/draw", body.dump());
  ASSERT_TRUE(drawn);
  ASSERT_EQ(drawn->status, 200) << drawn->body;
  EXPECT_THAT(drawn->get_header_value("Content-Type"),
              HasSubstr("application/json"));
  const Json picture = Json::parse(drawn->body)["picture"];
  EXPECT_EQ(picture["rows"], 6);
  EXPECT_EQ(picture["cols"], 6);
  ASSERT_EQ(picture["cells"].size(), 36u);
  int suns = 0, moons = 0, given = 0;
  for (const Json& cell : picture["cells"]) {
    suns += cell["glyph"] == "sun";
    moons += cell["glyph"] == "moon";
    given += cell["given"] == true;
  }
  EXPECT_EQ(suns, CountChars(kTangoSolution, '0'));
  EXPECT_EQ(moons, CountChars(kTangoSolution, '1'));
  EXPECT_EQ(given, 4);
  ASSERT_FALSE(picture["signs"].empty());
  for (const Json& sign : picture["signs"]) {
    EXPECT_TRUE(sign["text"] == "=" || sign["text"] == "x") << sign.dump();
  }

  // One cell short: 400 naming the field.
  Json short_body = body;
  short_body["solution"]["cells"].erase(35);
  auto refused = Post("/v1/draw", short_body.dump());
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  const Json error = Json::parse(refused->body)["error"];
  EXPECT_EQ(error["status"], "INVALID_ARGUMENT");
  EXPECT_THAT(error["message"].get<std::string>(), HasSubstr("solution.cells"));

  // A raw model has no board to draw: 501.
  auto maxcut =
      Post("/v1/draw",
           R"({"puzzle":{"maxcut":{"numNodes":2,"u":[0],"v":[1],"w":[1]}}})");
  ASSERT_TRUE(maxcut);
  EXPECT_EQ(maxcut->status, 501) << maxcut->body;
  EXPECT_EQ(Json::parse(maxcut->body)["error"]["status"], "UNIMPLEMENTED");
}

}  // namespace
}  // namespace qs
