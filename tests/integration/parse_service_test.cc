// Solver.Parse over loopback gRPC: every kind ListFamilies lists comes back
// from its example text as the PuzzleSpec field it names, a parsed puzzle and
// board go straight into Validate and Solve, and bad requests are
// INVALID_ARGUMENT naming `kind`, `text` or `board`: what the clients rely on
// to carry no text formats of their own.
#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class ParseServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = testing::TestServer::Start({}, /*with_metrics=*/false).release();
    ASSERT_NE(server_, nullptr);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  grpc::Status Parse(const std::string& kind, const std::string& text,
                     const std::string& board, v1::ParseResponse* response) {
    v1::ParseRequest request;
    request.set_kind(kind);
    request.set_text(text);
    request.set_board(board);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(30));
    return stub_->Parse(&context, request, response);
  }

  static testing::TestServer* server_;
  std::unique_ptr<v1::Solver::Stub> stub_ = server_->NewStub();
};

testing::TestServer* ParseServiceTest::server_ = nullptr;

TEST_F(ParseServiceTest, EveryListedKindParsesItsExample) {
  v1::ListFamiliesResponse families;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(
        stub_->ListFamilies(&context, v1::ListFamiliesRequest(), &families)
            .ok());
  }
  ASSERT_GT(families.families_size(), 0);
  for (const v1::FamilyDescription& family : families.families()) {
    SCOPED_TRACE(family.kind());
    v1::ParseResponse parsed;
    const grpc::Status status =
        Parse(family.kind(), family.example(), "", &parsed);
    ASSERT_TRUE(status.ok()) << status.error_message();
    const auto* field = v1::PuzzleSpec::descriptor()->FindFieldByNumber(
        parsed.puzzle().puzzle_case());
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->name(), family.puzzle_field());
    EXPECT_FALSE(parsed.family().empty());
    EXPECT_FALSE(parsed.has_board());
  }
}

TEST_F(ParseServiceTest, ParsedPuzzleAndBoardValidate) {
  v1::ParseResponse parsed;
  ASSERT_TRUE(Parse("nqueens", "4", ".Q../...Q/Q.../..Q.", &parsed).ok());
  EXPECT_EQ(parsed.family(), "queens");
  v1::ValidateRequest request;
  *request.mutable_puzzle() = parsed.puzzle();
  *request.mutable_solution() = parsed.board();
  v1::ValidateResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(stub_->Validate(&context, request, &response).ok());
  EXPECT_TRUE(response.report().valid());
  // Two queens on a diagonal: parsed alike, refused by Validate.
  ASSERT_TRUE(Parse("nqueens", "4", "Q.../.Q../...Q/..Q.", &parsed).ok());
  *request.mutable_solution() = parsed.board();
  grpc::ClientContext again;
  ASSERT_TRUE(stub_->Validate(&again, request, &response).ok());
  EXPECT_FALSE(response.report().valid());
}

TEST_F(ParseServiceTest, ParsedPuzzleSolves) {
  v1::ParseResponse parsed;
  ASSERT_TRUE(Parse("nqueens", "6", "", &parsed).ok());
  v1::SolveRequest request;
  *request.mutable_puzzle() = parsed.puzzle();
  request.mutable_params()->set_backend("sat");
  const testing::SolveStream stream = testing::RunSolve(*stub_, request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  ASSERT_NE(stream.summary(), nullptr);
  EXPECT_TRUE(stream.summary()->best_valid());
  EXPECT_EQ(stream.summary()->best_solution().rows_size(), 6);
}

TEST_F(ParseServiceTest, ErrorsNameTheField) {
  v1::ParseResponse parsed;
  grpc::Status status = Parse("chess-ish", "8", "", &parsed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), StartsWith("kind: "));
  EXPECT_THAT(status.error_message(), HasSubstr("chess-ish"));
  status = Parse("sudoku", "12345", "", &parsed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), StartsWith("text: "));
  status = Parse("nqueens", "4", ".Q../..Z.", &parsed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), StartsWith("board: "));
}

}  // namespace
}  // namespace qs
