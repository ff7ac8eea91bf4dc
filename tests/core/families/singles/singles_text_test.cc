// The Singles text format (core/families/singles/singles_text.cc): Tatham's
// game IDs in and out (letters for numbers from 10), the grid of our own,
// boards with '#' for shaded cells, and the errors naming what is wrong.
#include <string>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::testing::HasSubstr;

constexpr char kTen[] =
    "10x10:492a62855623738584a5943354a751457883711417a9425281599a14163a3635591"
    "776652137959822a41a31647382639445";

TEST(SinglesTextTest, ReadsAGameId) {
  auto spec = ParsePuzzleText("singles", "5x5:2355225324115251254214331");
  ASSERT_OK(spec);
  const v1::SinglesPuzzle& s = spec->singles();
  EXPECT_EQ(s.rows(), 5u);
  EXPECT_EQ(s.cols(), 5u);
  ASSERT_EQ(s.numbers_size(), 25);
  EXPECT_EQ(s.numbers(0), 2u);
  EXPECT_EQ(s.numbers(24), 1u);
}

TEST(SinglesTextTest, LettersAreNumbersFromTen) {
  auto spec = ParsePuzzleText("singles", kTen);
  ASSERT_OK(spec);
  EXPECT_EQ(spec->singles().numbers(3), 10u);  // "492a"
  auto mixed = ParsePuzzleText("singles", "2x2:aA1z");
  ASSERT_OK(mixed);
  EXPECT_THAT(mixed->singles().numbers(),
              ::testing::ElementsAre(10u, 36u, 1u, 35u));
}

TEST(SinglesTextTest, GameIdRoundTrips) {
  for (const char* id : {"5x5:2355225324115251254214331", kTen,
                         "6x4:123456234561345612456123"}) {
    auto spec = ParsePuzzleText("singles", id);
    ASSERT_OK(spec);
    auto text = FormatPuzzleText("singles", *spec);
    ASSERT_OK(text);
    EXPECT_EQ(*text, id);
    auto again = ParsePuzzleText("singles", *text);
    ASSERT_OK(again);
    EXPECT_EQ(again->SerializeAsString(), spec->SerializeAsString());
  }
  auto wide = ParsePuzzleText("singles", "6x4:123456234561345612456123");
  ASSERT_OK(wide);
  EXPECT_EQ(wide->singles().rows(), 4u);
  EXPECT_EQ(wide->singles().cols(), 6u);
}

TEST(SinglesTextTest, GameIdParametersMayCarryADifficultyOrOneSide) {
  auto tricky = ParsePuzzleText("singles", "2x2dk:1221");
  ASSERT_OK(tricky);
  EXPECT_EQ(tricky->singles().rows(), 2u);
  auto square = ParsePuzzleText("singles", "2:1221");
  ASSERT_OK(square);
  EXPECT_EQ(square->singles().cols(), 2u);
}

TEST(SinglesTextTest, ReadsTheGrid) {
  auto spec = ParsePuzzleText("singles", "# a 3x2 grid\n1 2 3\n\n3 12 1\n");
  ASSERT_OK(spec);
  EXPECT_EQ(spec->singles().rows(), 2u);
  EXPECT_EQ(spec->singles().cols(), 3u);
  EXPECT_EQ(spec->singles().numbers(4), 12u);
  auto slashes = ParsePuzzleText("singles", "1 2/2 1");
  ASSERT_OK(slashes);
  auto id = FormatPuzzleText("singles", *slashes);
  ASSERT_OK(id);
  EXPECT_EQ(*id, "2x2:1221");
}

TEST(SinglesTextTest, ErrorsNameTheProblem) {
  EXPECT_THAT(
      std::string(ParsePuzzleText("singles", "5x5:123").status().message()),
      HasSubstr("needs 25"));
  EXPECT_THAT(
      std::string(ParsePuzzleText("singles", "2x2:12!1").status().message()),
      HasSubstr("unexpected '!'"));
  EXPECT_THAT(
      std::string(ParsePuzzleText("singles", "2x2:1021").status().message()),
      HasSubstr("unexpected '0'"));
  EXPECT_THAT(
      std::string(ParsePuzzleText("singles", "1 2 3\n1 2").status().message()),
      HasSubstr("line 2"));
  EXPECT_THAT(
      std::string(ParsePuzzleText("singles", "1 x\n2 1").status().message()),
      HasSubstr("'x'"));
  v1::PuzzleSpec big;
  big.mutable_singles()->set_rows(2);
  big.mutable_singles()->set_cols(2);
  for (uint32_t n : {1u, 2u, 62u, 1u}) big.mutable_singles()->add_numbers(n);
  EXPECT_THAT(std::string(FormatPuzzleText("singles", big).status().message()),
              HasSubstr("numbers[2]"));
}

TEST(SinglesTextTest, ReadsBoards) {
  auto spec = ParsePuzzleText("singles", "5x5:2355225324115251254214331");
  ASSERT_OK(spec);
  auto board =
      ParseBoardText("singles", *spec,
                     "# 3 # 5 2\n2 5 3 # 4\n# 1 # 2 5\n1 2 5 4 #\n* 4 # 3 1");
  ASSERT_OK(board);
  ASSERT_EQ(board->cells_size(), 25);
  EXPECT_EQ(board->cells(0), 1);
  EXPECT_EQ(board->cells(1), 0);
  EXPECT_EQ(board->cells(20), 1);
  auto wrong = ParseBoardText("singles", *spec,
                              "# 4 # 5 2/2 5 3 # 4/# 1 # 2 5/1 2 5 4 #/# 4 # "
                              "3 1");
  EXPECT_THAT(std::string(wrong.status().message()), HasSubstr("'4'"));
  EXPECT_FALSE(ParseBoardText("singles", *spec, "# 3 # 5 2").ok());
}

}  // namespace
}  // namespace qs::formats
