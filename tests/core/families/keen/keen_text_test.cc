// The Keen text formats (keen_text.cc): Tatham game IDs (cage boundaries,
// repeat counts, clue order, one-cell cages read as givens), the grid of cage
// letters, the writer's game IDs read back, boards, and bad input.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/keen/keen_testing.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::StatusOr<v1::PuzzleSpec> Parse(const std::string& text) {
  return formats::ParsePuzzleText("keen", text);
}

std::vector<uint32_t> CellsOf(const v1::KeenCage& cage) {
  return {cage.cells().begin(), cage.cells().end()};
}

TEST(KeenTextTest, ReadsAGameIdsCagesInOrder) {
  auto spec = Parse(testing::kKeen4x4);
  ASSERT_OK(spec);
  const v1::KeenPuzzle& keen = spec->keen();
  EXPECT_EQ(keen.size(), 4u);
  ASSERT_EQ(keen.cages_size(), 7);
  EXPECT_EQ(keen.cages(0).operation(), v1::KeenCage::ADD);
  EXPECT_EQ(keen.cages(0).target(), 9u);
  EXPECT_THAT(CellsOf(keen.cages(0)), ElementsAre(0, 4, 8));
  EXPECT_EQ(keen.cages(1).operation(), v1::KeenCage::MULTIPLY);
  EXPECT_THAT(CellsOf(keen.cages(1)), ElementsAre(1, 5, 9));
  EXPECT_EQ(keen.cages(2).operation(), v1::KeenCage::SUBTRACT);
  EXPECT_THAT(CellsOf(keen.cages(2)), ElementsAre(2, 3));
  EXPECT_THAT(CellsOf(keen.cages(3)), ElementsAre(6, 7));
  EXPECT_THAT(CellsOf(keen.cages(4)), ElementsAre(10, 14));
  EXPECT_EQ(keen.cages(5).operation(), v1::KeenCage::DIVIDE);
  EXPECT_EQ(keen.cages(5).target(), 2u);
  EXPECT_THAT(CellsOf(keen.cages(5)), ElementsAre(11, 15));
  EXPECT_THAT(CellsOf(keen.cages(6)), ElementsAre(12, 13));
}

TEST(KeenTextTest, GridFormReadsTheSamePuzzle) {
  auto id = Parse(testing::kKeen4x4);
  auto grid = Parse(testing::kKeen4x4Grid);
  ASSERT_OK(id);
  ASSERT_OK(grid);
  EXPECT_EQ(grid->SerializeAsString(), id->SerializeAsString());
  // One line, '/' between rows and ';' between lines, comments skipped.
  auto one_line = Parse(
      "# the same puzzle\nABCC/ABDD/ABEF/GGEF;A 9+;B 6*;C 1-;D 7+;E 2-;F "
      "2/;G 4X");
  ASSERT_OK(one_line);
  EXPECT_EQ(one_line->SerializeAsString(), id->SerializeAsString());
}

TEST(KeenTextTest, OneCellCagesAreGivens) {
  auto spec = Parse(testing::kKeen3x3Grid);
  ASSERT_OK(spec);
  ASSERT_EQ(spec->keen().cages_size(), 5);
  EXPECT_EQ(spec->keen().cages(2).operation(), v1::KeenCage::GIVEN);
  EXPECT_EQ(spec->keen().cages(2).target(), 2u);
  EXPECT_THAT(CellsOf(spec->keen().cages(2)), ElementsAre(4));
  // Written as a sum in a game ID, read back as a given.
  auto written = formats::FormatPuzzleText("keen", *spec);
  ASSERT_OK(written);
  EXPECT_EQ(*written, "3:_a_aa_3a,m3s1a2s2d2");
  auto again = Parse(*written);
  ASSERT_OK(again);
  EXPECT_EQ(again->SerializeAsString(), spec->SerializeAsString());
}

TEST(KeenTextTest, WriterGivesTheGameIdBack) {
  for (const auto& p : testing::ReadStoredKeenPuzzles()) {
    SCOPED_TRACE(p.id);
    auto spec = Parse(p.id);
    ASSERT_OK(spec);
    auto written = formats::FormatPuzzleText("keen", *spec);
    ASSERT_OK(written);
    EXPECT_EQ(*written, p.id);
  }
}

TEST(KeenTextTest, ReadsRepeatCountsAndParameterLetters) {
  // "_25" is 25 boundaries in a row (sgt-keen --generate 2 7du).
  auto spec = Parse(
      "7:__abaa_25aa_cba3__aa__aa_a6ba_,m36m14s2m35a12d2m6a8s2s5m28a8a11s2s1"
      "a9a11d3m84s4s1");
  ASSERT_OK(spec);
  EXPECT_EQ(spec->keen().cages_size(), 21);
  auto with_params = Parse("4de:__a_a__a_bb__a_a,a9m6s1a7s2d2m4");
  ASSERT_OK(with_params);
  EXPECT_EQ(with_params->SerializeAsString(),
            Parse(testing::kKeen4x4)->SerializeAsString());
}

TEST(KeenTextTest, WriterRefusesWhatAGameIdCannotSay) {
  auto spec = Parse(testing::kKeen4x4);
  ASSERT_OK(spec);
  v1::PuzzleSpec apart = *spec;
  // Cage 3 (1-) takes cell 15 instead of 3: two pieces.
  apart.mutable_keen()->mutable_cages(2)->set_cells(1, 15);
  apart.mutable_keen()->mutable_cages(5)->set_cells(1, 3);
  EXPECT_THAT(
      formats::FormatPuzzleText("keen", apart),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("connected")));
  v1::PuzzleSpec missing = *spec;
  missing.mutable_keen()->mutable_cages()->RemoveLast();
  EXPECT_THAT(
      formats::FormatPuzzleText("keen", missing),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("every cell")));
}

TEST(KeenTextTest, RefusesBadText) {
  EXPECT_THAT(Parse("4:__a_a__a_bb__a_a,a9m6s1a7s2d2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("clues for 7 cages")));
  EXPECT_THAT(
      Parse("4:__a_a__a_bb__a_a,a9m6s1a7s2d2m4a3"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("more clues")));
  EXPECT_THAT(Parse("4:__a_a__a_bb__a_,a9m6s1a7s2d2m4"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cage boundaries cover")));
  EXPECT_THAT(
      Parse("4:__a_a__a_bb__a_a_,a9m6s1a7s2d2m4"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("run past")));
  EXPECT_THAT(Parse("4:__a_a__a_bb__a_a,a9m6s1a7s2d2x4"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown operation 'x'")));
  EXPECT_THAT(Parse("12:a,a1"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("size")));
  EXPECT_THAT(Parse("AB/AB;A 3+"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  EXPECT_THAT(Parse("AAB/CDB/CDE;A 2x;B 3+;C 5+;D 4+"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cage 'E' has no line")));
  EXPECT_THAT(Parse("AAB/CDB/CDE;A 2x;B 3+;C 5+;D 4+;E 1;F 2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cage 'F' has no cell")));
  EXPECT_THAT(Parse("AAB/CDB/CDE;A 2%;B 3+;C 5+;D 4+;E 1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown operation '%'")));
}

TEST(KeenTextTest, ReadsBoards) {
  const v1::PuzzleSpec spec = testing::KeenSpec(testing::kKeen4x4);
  auto board = formats::ParseBoardText("keen", spec, "4321/2143\n3.14/14*2");
  ASSERT_OK(board);
  EXPECT_THAT(board->cells(),
              ElementsAre(4, 3, 2, 1, 2, 1, 4, 3, 3, 0, 1, 4, 1, 4, -1, 2));
  EXPECT_EQ(board->rows(2), "3.14");
  EXPECT_THAT(
      formats::ParseBoardText("keen", spec, "4321/2143/3214"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("3 rows")));
  EXPECT_THAT(formats::ParseBoardText("keen", spec, "4325/2143/3214/1432"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected '5'")));
}

}  // namespace
}  // namespace qs
