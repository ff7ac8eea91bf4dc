// The Zip text format (core/families/zip/zip_text.cc): grids with waypoint
// numbers and walls, the writer's round trip, boards of steps, and errors that
// say where.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::pair<uint32_t, uint32_t>> Walls(const v1::ZipPuzzle& zip) {
  std::vector<std::pair<uint32_t, uint32_t>> walls;
  for (const v1::ZipWall& w : zip.walls()) walls.push_back({w.a(), w.b()});
  return walls;
}

TEST(ZipTextTest, ParsesNumbersWallsAndWallRows) {
  auto spec = formats::ParsePuzzleText(
      "zip", "1..|.../.....2/---.../3.4.../....../.|..|..5");
  ASSERT_TRUE(spec.ok()) << spec.status();
  const v1::ZipPuzzle& zip = spec->zip();
  EXPECT_EQ(zip.rows(), 5u);
  EXPECT_EQ(zip.cols(), 6u);
  EXPECT_THAT(
      std::vector<uint32_t>(zip.waypoints().begin(), zip.waypoints().end()),
      ElementsAre(0, 11, 12, 14, 29));
  EXPECT_THAT(Walls(zip), ElementsAre(std::pair<uint32_t, uint32_t>{2, 3},
                                      std::pair<uint32_t, uint32_t>{6, 12},
                                      std::pair<uint32_t, uint32_t>{7, 13},
                                      std::pair<uint32_t, uint32_t>{8, 14},
                                      std::pair<uint32_t, uint32_t>{24, 25},
                                      std::pair<uint32_t, uint32_t>{26, 27}));
}

TEST(ZipTextTest, SpacedTwoDigitAndMultiLineFormsAreTheSame) {
  std::string spaced;
  // 4 x 4 with waypoints 1..12: two-digit numbers, cells separated by spaces.
  spaced =
      "# a comment\n"
      " 1  2  3  4\n"
      " .  .  . 12\n"
      " -  .  .  .\n"
      "11 10  .  5\n"
      " 9  8  7  6\n";
  auto a = formats::ParsePuzzleText("zip", spaced);
  ASSERT_TRUE(a.ok()) << a.status();
  auto b =
      formats::ParsePuzzleText("zip", "1 2 3 4/...12/-.../11 10.5/9 8 7 6");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(a->SerializeAsString(), b->SerializeAsString());
  EXPECT_EQ(a->zip().waypoints_size(), 12);
  EXPECT_EQ(a->zip().waypoints(11), 7u);
}

TEST(ZipTextTest, WriterRoundTrips) {
  for (const char* text :
       {"1..|.../.....2/---.../3.4.../....../.|..|..5",
        "1 2 3 4/...12/-.../11 10.5/9 8 7 6", "1../.../..2"}) {
    auto spec = formats::ParsePuzzleText("zip", text);
    ASSERT_TRUE(spec.ok()) << spec.status();
    auto written = formats::FormatPuzzleText("zip", *spec);
    ASSERT_TRUE(written.ok()) << written.status();
    EXPECT_EQ(*written, text);
    auto again = formats::ParsePuzzleText("zip", *written);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->SerializeAsString(), spec->SerializeAsString());
  }
}

TEST(ZipTextTest, ErrorsSayWhere) {
  auto parse = [](const char* text) {
    return formats::ParsePuzzleText("zip", text).status();
  };
  EXPECT_THAT(parse("1.x/..2"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("line 1 column 3")));
  EXPECT_THAT(parse("1../..2."), StatusIs(absl::StatusCode::kInvalidArgument,
                                          HasSubstr("line 2: 4 cells")));
  EXPECT_THAT(parse("1../..3"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("waypoint 2 is missing")));
  EXPECT_THAT(parse("1.1/..2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("waypoint 1 appears twice")));
  EXPECT_THAT(parse("|1./..2"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("between two cells")));
  EXPECT_THAT(parse("1.|/..2"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("ends the row")));
  EXPECT_THAT(parse("---/1../..2"), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("line 1: a wall row")));
  EXPECT_THAT(parse("1../--/..2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("2 marks in a wall row")));
  EXPECT_THAT(parse("1../..2/-.."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("last row is a wall row")));
  EXPECT_THAT(parse(""), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("no rows")));
  EXPECT_THAT(parse("1..0/...2"), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("line 1 column 4")));
}

TEST(ZipTextTest, ParsesBoardsOfSteps) {
  auto spec = formats::ParsePuzzleText("zip", "1../.../..2");
  ASSERT_TRUE(spec.ok());
  auto board = formats::ParseBoardText("zip", *spec, "1 2 3/6 5 4\n7 8 9");
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_THAT(std::vector<int>(board->cells().begin(), board->cells().end()),
              ElementsAre(1, 2, 3, 6, 5, 4, 7, 8, 9));
  EXPECT_EQ(board->height(), 3u);
  EXPECT_EQ(board->rows(1), "6 5 4");
  auto dotted = formats::ParseBoardText("zip", *spec, "1 2 3/. 5 4/7 8 9");
  ASSERT_TRUE(dotted.ok());
  EXPECT_EQ(dotted->cells(3), 0);
  EXPECT_THAT(formats::ParseBoardText("zip", *spec, "1 2/6 5 4/7 8 9").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 1 has 2 steps")));
  EXPECT_THAT(
      formats::ParseBoardText("zip", *spec, "1 2 3/6 5 4/7 8 10").status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("row 3 column 3")));
  EXPECT_THAT(formats::ParseBoardText("zip", *spec, "1 2 3/6 5 4").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("2 rows, the puzzle has 3")));
}

}  // namespace
}  // namespace qs
