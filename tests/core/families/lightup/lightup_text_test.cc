// Light Up text formats (core/families/lightup/lightup_text.cc): sgt-lightup
// game IDs read and written back exactly (every stored puzzle of
// tests/data/lightup), runs longer than one letter, the grid format, the board
// parser and malformed text.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/lightup/lightup_oracle.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The black cells as "cell:number" ('B' for none), row-major.
std::vector<std::string> Blacks(const v1::PuzzleSpec& spec) {
  std::vector<std::string> out;
  for (const v1::LightupBlack& b : spec.lightup().blacks()) {
    out.push_back(std::to_string(b.cell()) + ":" +
                  (b.has_lights() ? std::to_string(b.lights()) : "B"));
  }
  return out;
}

TEST(LightupTextTest, ReadsAGameIdAsSgtLightupPrintsIt) {
  // 2 white cells, the 2, 1 white, the 0, 9 white, a plain black ...
  auto spec = ParsePuzzleText("lightup", "7x7:b2a0iBe0g1e2i1aBb");
  ASSERT_OK(spec);
  EXPECT_EQ(spec->lightup().rows(), 7u);
  EXPECT_EQ(spec->lightup().cols(), 7u);
  EXPECT_THAT(Blacks(*spec), ElementsAre("2:2", "4:0", "14:B", "20:0", "28:1",
                                         "34:2", "44:1", "46:B"));
}

TEST(LightupTextTest, WidthComesFirstAndParametersAreIgnored) {
  auto spec = ParsePuzzleText("lightup", "4x2b20s0d1:aBb2c\n");
  ASSERT_OK(spec);
  EXPECT_EQ(spec->lightup().rows(), 2u);
  EXPECT_EQ(spec->lightup().cols(), 4u);
  EXPECT_THAT(Blacks(*spec), ElementsAre("1:B", "4:2"));
}

TEST(LightupTextTest, LongRunsTakeSeveralLetters) {
  // 30 white cells, a 1, then 29: 'z' (26) and 'd' (4), the 1, 'z' 'c'.
  v1::PuzzleSpec spec;
  v1::LightupPuzzle& p = *spec.mutable_lightup();
  p.set_rows(6);
  p.set_cols(10);
  v1::LightupBlack& b = *p.add_blacks();
  b.set_cell(30);
  b.set_lights(1);
  auto text = FormatPuzzleText("lightup", spec);
  ASSERT_OK(text);
  EXPECT_EQ(*text, "10x6:zd1zc");
  auto back = ParsePuzzleText("lightup", *text);
  ASSERT_OK(back);
  EXPECT_EQ(back->SerializeAsString(), spec.SerializeAsString());
  // A run of exactly 26 before a black cell is one 'z'.
  p.mutable_blacks(0)->set_cell(26);
  text = FormatPuzzleText("lightup", spec);
  ASSERT_OK(text);
  EXPECT_EQ(*text, "10x6:z1zg");
}

TEST(LightupTextTest, StoredGameIdsRoundTripExactly) {
  const std::vector<std::string> ids = testing::ReadStoredLightupIds();
  ASSERT_EQ(ids.size(), 16u);
  for (const std::string& id : ids) {
    SCOPED_TRACE(id);
    auto spec = ParsePuzzleText("lightup", id);
    ASSERT_OK(spec);
    auto text = FormatPuzzleText("lightup", *spec);
    ASSERT_OK(text);
    EXPECT_EQ(*text, id);
  }
}

TEST(LightupTextTest, ReadsTheGridFormat) {
  auto from_id = ParsePuzzleText("lightup", "4x2:aBb2c");
  ASSERT_OK(from_id);
  for (const char* grid :
       {".#..\n2...\n", ". # . .\n\n2 . . .", ".#../2...", ".#L./2..L"}) {
    auto spec = ParsePuzzleText("lightup", grid);
    ASSERT_OK(spec) << grid;
    EXPECT_EQ(spec->SerializeAsString(), from_id->SerializeAsString()) << grid;
  }
}

TEST(LightupTextTest, ReadsBoards) {
  auto spec = ParsePuzzleText("lightup", ".#../2...");
  ASSERT_OK(spec);
  auto board = ParseBoardText("lightup", *spec, "L#.L/2L..");
  ASSERT_OK(board);
  EXPECT_THAT(board->cells(), ElementsAre(1, 0, 0, 1, 0, 1, 0, 0));
  EXPECT_THAT(board->rows(), ElementsAre("L#.L", "2L.."));
  // A light on a black cell stays in the rows; black cells hold 0.
  board = ParseBoardText("lightup", *spec, "L*.L\n2L..");
  ASSERT_OK(board);
  EXPECT_EQ(board->cells(1), 0);
  EXPECT_EQ(board->rows(0), "L*.L");
  EXPECT_THAT(ParseBoardText("lightup", *spec, "L#.L/2L.x"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2: unexpected 'x'")));
  EXPECT_THAT(ParseBoardText("lightup", *spec, "L#.L"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board has 1 rows, the puzzle 2")));
}

TEST(LightupTextTest, RejectsMalformedText) {
  auto expect_error = [](const std::string& text, const std::string& message) {
    EXPECT_THAT(
        ParsePuzzleText("lightup", text),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)))
        << text;
  };
  expect_error("4x2:aBb2", "covers 5 of the 8 cells");
  expect_error("4x2:aBb2d", "runs past the 4x2 grid at offset 4");
  expect_error("4x2:aBb2cB", "runs past the 4x2 grid at offset 5");
  expect_error("4x2:aBb5c", "unexpected '5' at offset 3");
  expect_error("0x2:h", "is not WxH");
  expect_error("4xb:h", "is not WxH");
  expect_error("101x2:z", "too large");
  expect_error(".#../2..", "row 2: 3 cells, but row 1 has 4");
  expect_error(".#../2..X", "row 2, column 4: unexpected 'X'");
  expect_error("  \n", "no rows");
}

TEST(LightupTextTest, ListedWithAWriter) {
  bool found = false;
  for (const TextKind& kind : TextKinds()) {
    if (kind.kind != "lightup") continue;
    found = true;
    EXPECT_TRUE(kind.writer);
    EXPECT_OK(ParsePuzzleText("lightup", kind.example));
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace qs::formats
