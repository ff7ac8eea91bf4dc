// `--encoding binary` on qsolve compile, solve and count against an in-process
// server: the JSON statistics of the higher-order model, a solve on the exact
// backend, the refusal of a QUBO backend, and a count with the BIN formula.
#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::RunQsolve;

class BinaryEncodingCliTest : public testing::SharedServerTest {};

TEST_F(BinaryEncodingCliTest, CompileReportsTheBinaryVariables) {
  const CommandResult result = RunQsolve(
      "compile" + Addr() + "--kind nqueens --input 8 --encoding binary --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct json = LastJsonLine(result.out);
  EXPECT_EQ(json.fields().at("variables").number_value(), 24);
  EXPECT_EQ(json.fields().at("encoding").string_value(), "binary");
  EXPECT_EQ(json.fields().at("higher_order_max_order").number_value(), 6);
  EXPECT_EQ(json.fields().at("higher_order_terms").number_value(), 1414);
  EXPECT_EQ(json.fields().at("ground_energy").number_value(), 0);

  const CommandResult one_hot =
      RunQsolve("compile" + Addr() +
                "--kind nqueens --input 8 --encoding one_hot --json");
  ASSERT_EQ(one_hot.exit_code, 0) << one_hot.err;
  EXPECT_EQ(LastJsonLine(one_hot.out).fields().at("variables").number_value(),
            64);

  const CommandResult bad = RunQsolve(
      "compile" + Addr() + "--kind nqueens --input 8 --encoding gray");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--encoding: one_hot or binary"));
}

TEST_F(BinaryEncodingCliTest, SolvesOnTheExactBackendOnly) {
  const CommandResult solved =
      RunQsolve("solve" + Addr() +
                "--kind nqueens --input 6 --encoding binary --backend exact "
                "--reads 4 --json");
  ASSERT_EQ(solved.exit_code, 0) << solved.err;
  const google::protobuf::Struct json = LastJsonLine(solved.out);
  EXPECT_TRUE(json.fields().at("valid").bool_value());
  EXPECT_EQ(json.fields().at("energy").number_value(), 0);

  const CommandResult refused =
      RunQsolve("solve" + Addr() +
                "--kind nqueens --input 6 --encoding binary --backend cpu-sa");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("INVALID_ARGUMENT"));
  EXPECT_THAT(refused.err, HasSubstr("params.backend: 'cpu-sa'"));
}

TEST_F(BinaryEncodingCliTest, CountsWithTheBinFormula) {
  const CommandResult result = RunQsolve(
      "count" + Addr() + "--kind nqueens --input 10 --encoding binary --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct json = LastJsonLine(result.out);
  EXPECT_EQ(json.fields().at("count").string_value(), "724");  // uint64
  EXPECT_TRUE(json.fields().at("complete").bool_value());
}

}  // namespace
}  // namespace qs
