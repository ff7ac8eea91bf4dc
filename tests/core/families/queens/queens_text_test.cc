// Tests of the "nqueens" and "queens" text formats
// (core/families/queens/queens_text.cc): sizes and options, LinkedIn region
// letters with pre-placed queens and masked cells, and the messages for bad
// input.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(NQueensTextTest, SizeAlone) {
  auto spec = ParsePuzzleText("nqueens", "8");
  ASSERT_OK(spec);
  const v1::QueensPuzzle& queens = spec->queens();
  EXPECT_EQ(queens.rows(), 8u);
  EXPECT_EQ(queens.cols(), 8u);
  EXPECT_EQ(queens.attack(), v1::QUEENS_ATTACK_DEFAULT);
  EXPECT_EQ(queens.topology(), v1::QUEENS_TOPOLOGY_PLANE);
  EXPECT_TRUE(queens.row_counts().empty());
  EXPECT_TRUE(queens.regions().empty());
}

TEST(NQueensTextTest, Options) {
  auto torus = ParseNQueensText(" 7  torus\n");
  ASSERT_OK(torus);
  EXPECT_EQ(torus->queens().topology(), v1::QUEENS_TOPOLOGY_TORUS);
  auto linked = ParseNQueensText("6 cylinder adjacent queen=1,2 queen=6,6");
  ASSERT_OK(linked);
  EXPECT_EQ(linked->queens().topology(), v1::QUEENS_TOPOLOGY_CYLINDER);
  EXPECT_EQ(linked->queens().attack(), v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  EXPECT_THAT(linked->queens().given_queens(), ElementsAre(1, 35));
  auto distance = ParseNQueensText("9 distance=2");
  ASSERT_OK(distance);
  EXPECT_EQ(distance->queens().attack(), v1::QUEENS_ATTACK_DIAGONAL_DISTANCE);
  EXPECT_THAT(distance->queens().diagonal_distance(), ElementsAre(2));
}

TEST(NQueensTextTest, RectangleLetsTheLongerSideHoldZeroOrOne) {
  auto spec = ParseNQueensText("3x5");
  ASSERT_OK(spec);
  const v1::QueensPuzzle& queens = spec->queens();
  EXPECT_EQ(queens.rows(), 3u);
  EXPECT_EQ(queens.cols(), 5u);
  EXPECT_THAT(queens.row_counts(), ElementsAre(1, 1, 1));
  EXPECT_THAT(queens.row_two_values(), ElementsAre(false, false, false));
  EXPECT_THAT(queens.col_counts(), ElementsAre(0, 0, 0, 0, 0));
  EXPECT_THAT(queens.col_two_values(),
              ElementsAre(true, true, true, true, true));
  auto tall = ParseNQueensText("5X3 queen=5,3");
  ASSERT_OK(tall);
  EXPECT_THAT(tall->queens().row_counts(), ElementsAre(0, 0, 0, 0, 0));
  EXPECT_THAT(tall->queens().col_counts(), ElementsAre(1, 1, 1));
  EXPECT_THAT(tall->queens().given_queens(), ElementsAre(14));
}

TEST(NQueensTextTest, BadInput) {
  EXPECT_THAT(ParseNQueensText(""), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("nqueens text: empty")));
  EXPECT_THAT(
      ParseNQueensText("0"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("size '0'")));
  EXPECT_THAT(
      ParseNQueensText("8x"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("size '8x'")));
  EXPECT_THAT(
      ParseNQueensText("eight"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("size 'eight'")));
  EXPECT_THAT(ParseNQueensText("8 sphere"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown option 'sphere'")));
  EXPECT_THAT(ParseNQueensText("8 torus cylinder"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("topology is already set")));
  EXPECT_THAT(ParseNQueensText("8 adjacent distance=3"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("attack rule is already set")));
  EXPECT_THAT(
      ParseNQueensText("8 distance=x"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'distance=x'")));
  EXPECT_THAT(ParseNQueensText("8 queen=9,1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("'queen=9,1': expected queen=R,C")));
  EXPECT_THAT(
      ParseNQueensText("8 queen=1"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'queen=1'")));
}

TEST(QueensTextTest, RegionLettersWithSlashes) {
  auto spec = ParsePuzzleText("queens", "AABB/AABB/CCDD/CCDD");
  ASSERT_OK(spec);
  const v1::QueensPuzzle& queens = spec->queens();
  EXPECT_EQ(queens.rows(), 4u);
  EXPECT_EQ(queens.cols(), 4u);
  EXPECT_EQ(queens.attack(), v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  EXPECT_THAT(queens.regions(),
              ElementsAre(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3));
  EXPECT_TRUE(queens.masked().empty());
  EXPECT_TRUE(queens.given_queens().empty());
}

TEST(QueensTextTest, NewlinesGivenQueensAndMaskedCells) {
  // Letters are numbered alphabetically whatever their order on the board; 'c'
  // is a queen in region C.
  auto spec = ParseQueensText("ZZC\r\n  Z#c\n\nAAC\n");
  ASSERT_OK(spec);
  const v1::QueensPuzzle& queens = spec->queens();
  EXPECT_EQ(queens.rows(), 3u);
  EXPECT_EQ(queens.cols(), 3u);
  EXPECT_THAT(queens.regions(), ElementsAre(2, 2, 1, 2, -1, 1, 0, 0, 1));
  EXPECT_THAT(queens.masked(), ElementsAre(false, false, false, false, true,
                                           false, false, false, false));
  EXPECT_THAT(queens.given_queens(), ElementsAre(5));
}

TEST(QueensTextTest, BadInput) {
  EXPECT_THAT(
      ParseQueensText(" / \n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no rows")));
  EXPECT_THAT(ParseQueensText("AAB/AB/CCC"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 2 has 2 cells, row 1 has 3")));
  EXPECT_THAT(ParseQueensText("AA/B1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected character '1' at offset 4")));
  EXPECT_THAT(ParsePuzzleText("queen", "AA/BB"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown puzzle kind 'queen'")));
}

TEST(QueensTextTest, KindsAreListed) {
  EXPECT_THAT(PuzzleKinds(), ::testing::IsSupersetOf({"nqueens", "queens"}));
}

}  // namespace
}  // namespace qs::formats
