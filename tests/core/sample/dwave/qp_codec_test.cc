// Golden tests of the qp wire format on the worked example of
// docs/dwave-protocol.md §1.7 and the documented live answer of §1.6 / §4.2,
// independent of any server.
#include "core/sample/dwave/qp_codec.h"

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::dwave {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::vector<int> kK4Qubits = {0, 1, 4, 5};
const std::vector<std::pair<int, int>> kK4Couplers = {{0, 1}, {0, 4}, {0, 5},
                                                      {1, 4}, {1, 5}, {4, 5}};

TEST(QpCodecTest, EncodesTheWorkedExample) {
  // One-hot over qubits 0, 1, 4 as a QUBO: Q_ii = -1, Q_ij = 2; qubit 5
  // inactive.
  PhysicalProblem problem;
  problem.linear = {{0, -1.0}, {1, -1.0}, {4, -1.0}};
  problem.quadratic = {{{0, 1}, 2.0},
                       {{0, 4}, 2.0},
                       {{4, 1}, 1.0},
                       {{1, 4}, 1.0}};  // (b,a)+(a,b) summed
  auto data = EncodeQp(problem, kK4Qubits, kK4Couplers);
  ASSERT_OK(data);
  EXPECT_EQ(data->lin, "AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAA+H8=");
  EXPECT_EQ(data->quad, "AAAAAAAAAEAAAAAAAAAAQAAAAAAAAABA");
}

TEST(QpCodecTest, DecodesTheWorkedExampleProblem) {
  auto problem = DecodeQp({"AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAA+H8=",
                           "AAAAAAAAAEAAAAAAAAAAQAAAAAAAAABA"},
                          kK4Qubits, kK4Couplers);
  ASSERT_OK(problem);
  EXPECT_EQ(problem->linear.size(), 3u);
  EXPECT_FALSE(problem->linear.contains(5));
  EXPECT_EQ(problem->linear.at(4), -1.0);
  ASSERT_EQ(problem->quadratic.size(), 3u);
  EXPECT_EQ(problem->quadratic[2].first, (std::pair<int, int>(1, 4)));
  EXPECT_EQ(problem->quadratic[2].second, 2.0);
}

TEST(QpCodecTest, NanMarksInactiveQubitsAsPythonPacksIt) {
  auto raw = DecodeFloat64s("AAAAAAAA+H8=", "lin");
  ASSERT_OK(raw);
  ASSERT_EQ(raw->size(), 1u);
  EXPECT_TRUE(std::isnan((*raw)[0]));
}

TEST(QpCodecTest, DecodesTheWorkedExampleAnswer) {
  QpAnswerFields fields;
  fields.num_variables = 6;
  fields.active_variables = "AAAAAAEAAAAEAAAA";
  fields.solutions = "gEAgwA==";
  fields.energies = "AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAAAAA=";
  fields.num_occurrences = "JgAAACEAAAAbAAAAAgAAAA==";
  auto answer = DecodeQpAnswer(fields, QpProblemType::kQubo);
  ASSERT_OK(answer);
  EXPECT_THAT(answer->active_variables, ElementsAre(0, 1, 4));
  ASSERT_EQ(answer->solutions.size(), 4u);
  EXPECT_THAT(answer->solutions[0], ElementsAre(1, 0, 0));
  EXPECT_THAT(answer->solutions[1], ElementsAre(0, 1, 0));
  EXPECT_THAT(answer->solutions[2], ElementsAre(0, 0, 1));
  EXPECT_THAT(answer->solutions[3], ElementsAre(1, 1, 0));
  EXPECT_THAT(answer->energies, ElementsAre(-1, -1, -1, 0));
  EXPECT_THAT(answer->num_occurrences, ElementsAre(38, 33, 27, 2));
  // And back: the encoder reproduces the documented strings.
  const QpAnswerFields again = EncodeQpAnswer(*answer);
  EXPECT_EQ(again.active_variables, fields.active_variables);
  EXPECT_EQ(again.solutions, fields.solutions);
  EXPECT_EQ(again.energies, fields.energies);
  EXPECT_EQ(again.num_occurrences, fields.num_occurrences);
}

TEST(QpCodecTest,
     DecodesTheDocumentedLiveAnswerFirstVariableInTheMostSignificantBit) {
  // Active qubits 30 and 31 of an Advantage system, E = -0.5 s30 + 0.5 s31 -
  // s30 s31 (ising).
  QpAnswerFields fields;
  fields.num_variables = 5760;
  fields.active_variables = "HgAAAB8AAAA=";
  fields.solutions = "AMA=";
  fields.energies = "AAAAAAAA8L8AAAAAAADwvw==";
  fields.num_occurrences = "BgAAAAQAAAA=";
  auto answer = DecodeQpAnswer(fields, QpProblemType::kIsing);
  ASSERT_OK(answer);
  EXPECT_EQ(answer->num_variables, 5760);
  EXPECT_THAT(answer->active_variables, ElementsAre(30, 31));
  ASSERT_EQ(answer->solutions.size(), 2u);
  EXPECT_THAT(answer->solutions[0], ElementsAre(-1, -1));
  EXPECT_THAT(answer->solutions[1], ElementsAre(1, 1));
  for (size_t s = 0; s < 2; ++s) {
    const double e = -0.5 * answer->solutions[s][0] +
                     0.5 * answer->solutions[s][1] -
                     answer->solutions[s][0] * answer->solutions[s][1];
    EXPECT_EQ(e, answer->energies[s]);
  }
  EXPECT_THAT(answer->num_occurrences, ElementsAre(6, 4));
}

TEST(QpCodecTest, MissingOccurrencesCountOnce) {
  QpAnswerFields fields;
  fields.active_variables = "HgAAAB8AAAA=";
  fields.solutions = "AMA=";
  fields.energies = "AAAAAAAA8L8AAAAAAADwvw==";
  auto answer = DecodeQpAnswer(fields, QpProblemType::kIsing);
  ASSERT_OK(answer);
  EXPECT_THAT(answer->num_occurrences, ElementsAre(1, 1));
}

TEST(QpCodecTest, RejectsMalformedData) {
  PhysicalProblem outside;
  outside.linear = {{2, 1.0}};  // qubit 2 is broken
  EXPECT_THAT(
      EncodeQp(outside, kK4Qubits, kK4Couplers),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("qubit 2")));
  PhysicalProblem bad_coupler;
  bad_coupler.quadratic = {{{0, 2}, 1.0}};
  EXPECT_THAT(EncodeQp(bad_coupler, kK4Qubits, kK4Couplers),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("[0,2]")));
  EXPECT_THAT(
      DecodeQp({"AAAA", ""}, kK4Qubits, kK4Couplers),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("data.lin")));
  EXPECT_THAT(
      DecodeQp({"not base64!", ""}, kK4Qubits, kK4Couplers),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("base64")));
  // NaN in quad is forbidden.
  const std::string lin = EncodeFloat64s({0, 0, std::nan(""), std::nan("")});
  EXPECT_THAT(
      DecodeQp({lin, EncodeFloat64s({std::nan("")})}, kK4Qubits, kK4Couplers),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("NaN")));
  EXPECT_THAT(DecodeQp({lin, EncodeFloat64s({1, 2})}, kK4Qubits, kK4Couplers),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("active couplers")));
  QpAnswerFields short_solutions{
      0, "HgAAAB8AAAA=", "AA==", "AAAAAAAA8L8AAAAAAADwvw==", std::nullopt};
  EXPECT_THAT(DecodeQpAnswer(short_solutions, QpProblemType::kIsing),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("answer.solutions")));
}

}  // namespace
}  // namespace qs::dwave
