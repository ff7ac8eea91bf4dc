// The Towers text formats (towers_text.cc): sgt-towers game IDs (clue order,
// missing clues, run-length givens with '_'), the writer and its round trip,
// the grid form, boards, and bad input refused with its position.
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
using ::testing::IsEmpty;

absl::StatusOr<v1::PuzzleSpec> Parse(const std::string& text) {
  return formats::ParsePuzzleText("towers", text);
}

TEST(TowersTextTest, ReadsTheCluesOfAGameIdTopBottomLeftRight) {
  // `sgt-towers --generate 1 4de`.
  auto spec = Parse("4:2/2/1/2/1/2/4/3/2/3/2/1/2/1/2/3");
  ASSERT_OK(spec);
  const v1::TowersPuzzle& t = spec->towers();
  EXPECT_EQ(t.size(), 4u);
  EXPECT_THAT(t.top(), ElementsAre(2, 2, 1, 2));
  EXPECT_THAT(t.bottom(), ElementsAre(1, 2, 4, 3));
  EXPECT_THAT(t.left(), ElementsAre(2, 3, 2, 1));
  EXPECT_THAT(t.right(), ElementsAre(2, 1, 2, 3));
  EXPECT_THAT(t.givens(), IsEmpty());
}

TEST(TowersTextTest, ReadsMissingCluesAndGivens) {
  // `sgt-towers --generate 1 6du`: '_' between two givens.
  auto spec = Parse("6:2/2//3//2/3//3/////////4////1/3/,m2_4e3o");
  ASSERT_OK(spec);
  const v1::TowersPuzzle& t = spec->towers();
  EXPECT_THAT(t.top(), ElementsAre(2, 2, 0, 3, 0, 2));
  EXPECT_THAT(t.bottom(), ElementsAre(3, 0, 3, 0, 0, 0));
  EXPECT_THAT(t.left(), ElementsAre(0, 0, 0, 0, 0, 4));
  EXPECT_THAT(t.right(), ElementsAre(0, 0, 0, 1, 3, 0));
  ASSERT_EQ(t.givens_size(), 36);
  std::vector<int> at;
  for (int k = 0; k < 36; ++k) {
    if (t.givens(k) != 0) at.push_back(k * 10 + static_cast<int>(t.givens(k)));
  }
  // m: 13 empty, 2, 4, e: 5 empty, 3, o: 15 empty.
  EXPECT_THAT(at, ElementsAre(132, 144, 203));
  // A side without any clue is left empty.
  auto top_only = Parse("3:1/2/2/////////");
  ASSERT_OK(top_only);
  EXPECT_THAT(top_only->towers().top(), ElementsAre(1, 2, 2));
  EXPECT_THAT(top_only->towers().bottom(), IsEmpty());
  EXPECT_THAT(top_only->towers().left(), IsEmpty());
  EXPECT_THAT(top_only->towers().right(), IsEmpty());
  // Parameters after the size are ignored.
  auto with_params = Parse("6du:2/2//3//2/3//3/////////4////1/3/,m2_4e3o");
  ASSERT_OK(with_params);
  EXPECT_EQ(with_params->SerializeAsString(), spec->SerializeAsString());
}

TEST(TowersTextTest, WriterRoundTripsGameIds) {
  for (const char* id :
       {"4:2/2/1/2/1/2/4/3/2/3/2/1/2/1/2/3", "4:2/1////3/////1/2///2/",
        "5:/2/2//3///3/2////3/3/2///2//,u1c",
        "6:2/2//3//2/3//3/////////4////1/3/,m2_4e3o",
        "7:/3/4/3/3/2////////3/2//3/3/1//////2/3/4/,g3a2d1o3_2k4b3b",
        "6:2/1/2/3/4/2/2/2/4/1/2/3/2/4/2/3/1/3/2/1/3/2/2/3,d2h1g4j1c"}) {
    SCOPED_TRACE(id);
    auto spec = Parse(id);
    ASSERT_OK(spec);
    auto text = formats::FormatPuzzleText("towers", *spec);
    ASSERT_OK(text);
    EXPECT_EQ(*text, id);  // the generator's own encoding
    auto again = Parse(*text);
    ASSERT_OK(again);
    EXPECT_EQ(again->SerializeAsString(), spec->SerializeAsString());
  }
  // Givens in the first and last cells, and a run longer than 26.
  v1::PuzzleSpec spec;
  spec.mutable_towers()->set_size(6);
  for (int k = 0; k < 36; ++k) spec.mutable_towers()->add_givens(0);
  spec.mutable_towers()->set_givens(0, 1);
  spec.mutable_towers()->set_givens(1, 2);
  spec.mutable_towers()->set_givens(35, 6);
  auto text = formats::FormatPuzzleText("towers", spec);
  ASSERT_OK(text);
  EXPECT_EQ(*text, "6:///////////////////////,1_2zg6");
  auto again = Parse(*text);
  ASSERT_OK(again);
  EXPECT_EQ(again->SerializeAsString(), spec.SerializeAsString());
}

TEST(TowersTextTest, ReadsTheGridForm) {
  const std::string grid =
      "  . 2 . 3\n"
      ". . . . . 2\n"
      "3 . . 4 . .\n"
      "# a comment\n"
      ". . . . . .\n"
      "1 . . . . .\n"
      "  . . 2 .\n";
  auto spec = Parse(grid);
  ASSERT_OK(spec);
  const v1::TowersPuzzle& t = spec->towers();
  EXPECT_EQ(t.size(), 4u);
  EXPECT_THAT(t.top(), ElementsAre(0, 2, 0, 3));
  EXPECT_THAT(t.bottom(), ElementsAre(0, 0, 2, 0));
  EXPECT_THAT(t.left(), ElementsAre(0, 3, 0, 1));
  EXPECT_THAT(t.right(), ElementsAre(2, 0, 0, 0));
  ASSERT_EQ(t.givens_size(), 16);
  EXPECT_EQ(t.givens(6), 4u);
  // The compact form, one character per token, lines split by '/'.
  auto compact = Parse(".2.3/.....2/3..4../....../1...../..2.");
  ASSERT_OK(compact);
  EXPECT_EQ(compact->SerializeAsString(), spec->SerializeAsString());
}

TEST(TowersTextTest, RefusesBadInput) {
  EXPECT_THAT(Parse("4:1/2/3"), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("has 3 clues; size 4 "
                                                   "needs 16")));
  EXPECT_THAT(Parse("4:5///////////////"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("5 is over the size 4")));
  EXPECT_THAT(Parse("4:///////////////,a"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("givens cover 1 cells of 16")));
  EXPECT_THAT(Parse("4:///////////////,p1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("givens cover 17 cells of 16")));
  EXPECT_THAT(Parse("4:///////////////,o!"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected '!'")));
  EXPECT_THAT(Parse("12:1"), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("is not a size 1..9")));
  EXPECT_THAT(Parse(". 1\n. . . .\n. ."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("expected a line of n top clues")));
  EXPECT_THAT(Parse(". 1\n. . . .\n. . x .\n. ."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 3: 'x' is not a number")));
}

TEST(TowersTextTest, ParsesBoards) {
  auto spec = Parse("3:2/3/1/2/1/2/2/1/2/1/3/2");
  ASSERT_OK(spec);
  auto board = formats::ParseBoardText("towers", *spec, "213/3 2 1/1.2");
  ASSERT_OK(board);
  EXPECT_THAT(board->cells(), ElementsAre(2, 1, 3, 3, 2, 1, 1, 0, 2));
  EXPECT_THAT(board->rows(), ElementsAre("213", "321", "1.2"));
  EXPECT_EQ(board->height(), 3u);
  EXPECT_EQ(board->width(), 3u);
  EXPECT_THAT(formats::ParseBoardText("towers", *spec, "21/321"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2 has 3 cells")));
  EXPECT_THAT(formats::ParseBoardText("towers", *spec, "2x1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected character 'x'")));
}

TEST(TowersTextTest, ListedAsAKindWithAWriter) {
  bool found = false;
  for (const formats::TextKind& kind : formats::TextKinds()) {
    if (kind.kind != "towers") continue;
    found = true;
    EXPECT_TRUE(kind.writer);
    EXPECT_OK(Parse(kind.example));
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace qs
