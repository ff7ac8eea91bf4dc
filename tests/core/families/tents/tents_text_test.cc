// Tents text formats (core/families/tents/tents_text.cc): sgt-tents game IDs,
// including every stored puzzle of tests/data/tents checked against its
// solution, and the grid format.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/tents_data.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

TEST(TentsTextTest, ReadsAGameIdAsSgtTentsPrintsIt) {
  // `sgt-tents --generate 1 4x4de`: trees after 3, 3 and 5 blanks, then 2
  // blanks to the end.
  auto spec = ParseTentsText("4x4:cceb,1,0,1,1,1,0,1,1");
  ASSERT_OK(spec);
  const v1::TentsPuzzle& tents = spec->tents();
  EXPECT_EQ(tents.rows(), 4u);
  EXPECT_EQ(tents.cols(), 4u);
  EXPECT_THAT(tents.trees(), ElementsAre(3, 7, 13));
  EXPECT_THAT(tents.col_counts(), ElementsAre(1, 0, 1, 1));
  EXPECT_THAT(tents.row_counts(), ElementsAre(1, 0, 1, 1));
}

TEST(TentsTextTest, WidthComesFirstAndColumnCountsBeforeRowCounts) {
  auto spec = ParseTentsText("7x5:adcfcgbb,2,0,2,1,0,1,1,2,1,2,0,2\n");
  ASSERT_OK(spec);
  const v1::TentsPuzzle& tents = spec->tents();
  EXPECT_EQ(tents.rows(), 5u);
  EXPECT_EQ(tents.cols(), 7u);
  EXPECT_THAT(tents.trees(), ElementsAre(1, 6, 10, 17, 21, 29, 32));
  EXPECT_THAT(tents.col_counts(), ElementsAre(2, 0, 2, 1, 0, 1, 1));
  EXPECT_THAT(tents.row_counts(), ElementsAre(2, 1, 2, 0, 2));
}

TEST(TentsTextTest, UnderscoreAndZRuns) {
  // '_' puts a tree at once (here on the last cell), 'z' skips 25 cells without
  // one; parameters such as "de" after the size are ignored.
  std::string id = "30x1de:z_c_";
  for (int k = 0; k < 30; ++k) id += (k == 25 || k == 29) ? ",1" : ",0";
  id += ",2";
  auto spec = ParseTentsText(id);
  ASSERT_OK(spec);
  EXPECT_THAT(spec->tents().trees(), ElementsAre(25, 29));
  EXPECT_EQ(spec->tents().cols(), 30u);
  EXPECT_EQ(spec->tents().rows(), 1u);
}

TEST(TentsTextTest, StoredGameIdsGiveTheTreesAndCountsOfTheirSolutions) {
  const auto puzzles = testing::ReadStoredTentsPuzzles();
  ASSERT_EQ(puzzles.size(), 20u);
  for (const auto& p : puzzles) {
    SCOPED_TRACE(p.id);
    auto spec = ParsePuzzleText("tents", p.id);
    ASSERT_OK(spec);
    const v1::TentsPuzzle& tents = spec->tents();
    std::vector<std::string> rows;
    for (size_t start = 0; start <= p.solution.size();) {
      size_t end = p.solution.find('/', start);
      if (end == std::string::npos) end = p.solution.size();
      rows.push_back(p.solution.substr(start, end - start));
      start = end + 1;
    }
    ASSERT_EQ(tents.rows(), rows.size());
    ASSERT_EQ(tents.cols(), rows[0].size());
    std::vector<uint32_t> trees, row_counts(tents.rows(), 0),
        col_counts(tents.cols(), 0);
    for (uint32_t r = 0; r < tents.rows(); ++r) {
      for (uint32_t c = 0; c < tents.cols(); ++c) {
        if (rows[r][c] == 'A') trees.push_back(r * tents.cols() + c);
        if (rows[r][c] == 'T') {
          ++row_counts[r];
          ++col_counts[c];
        }
      }
    }
    EXPECT_THAT(tents.trees(), ElementsAreArray(trees));
    EXPECT_THAT(tents.row_counts(), ElementsAreArray(row_counts));
    EXPECT_THAT(tents.col_counts(), ElementsAreArray(col_counts));
  }
}

TEST(TentsTextTest, WritesGameIdsAsSgtTentsDoes) {
  for (const auto& p : testing::ReadStoredTentsPuzzles()) {
    auto spec = ParsePuzzleText("tents", p.id);
    ASSERT_OK(spec);
    auto text = FormatPuzzleText("tents", *spec);
    ASSERT_OK(text);
    EXPECT_EQ(*text, p.id);
  }
  // Runs longer than 25 cells, a tree in the first and in the last cell.
  v1::PuzzleSpec spec;
  v1::TentsPuzzle& t = *spec.mutable_tents();
  t.set_rows(10);
  t.set_cols(10);
  for (uint32_t tree : {0u, 1u, 27u, 80u, 99u}) t.add_trees(tree);
  for (int k = 0; k < 10; ++k) {
    t.add_row_counts(k < 5 ? 1 : 0);
    t.add_col_counts(k < 5 ? 1 : 0);
  }
  auto text = FormatPuzzleText("tents", spec);
  ASSERT_OK(text);
  EXPECT_EQ(*text, "10x10:__yzzbr_,1,1,1,1,1,0,0,0,0,0,1,1,1,1,1,0,0,0,0,0");
  auto back = ParsePuzzleText("tents", *text);
  ASSERT_OK(back);
  EXPECT_EQ(back->SerializeAsString(), spec.SerializeAsString());
}

TEST(TentsTextTest, ReadsTheGridFormat) {
  auto spec = ParseTentsText(
      "# the 4x4 game above\n"
      "  1 0 1 1\n"
      ". . . A  1\n"
      "...A 0\n"
      "\n"
      ".... 1\n"
      ".A.. 1\n");
  ASSERT_OK(spec);
  auto from_id = ParseTentsText("4x4:cceb,1,0,1,1,1,0,1,1");
  ASSERT_OK(from_id);
  EXPECT_EQ(spec->SerializeAsString(), from_id->SerializeAsString());
  auto one_line = ParsePuzzleText("tents", "1,0,1,1/...A1/...A0/....1/.A..1");
  ASSERT_OK(one_line);
  EXPECT_EQ(one_line->SerializeAsString(), from_id->SerializeAsString());
}

TEST(TentsTextTest, RejectsMalformedText) {
  auto expect_error = [](const std::string& text, const std::string& message) {
    EXPECT_THAT(
        ParseTentsText(text),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)))
        << text;
  };
  expect_error("4x4:cceb,1,0,1,1,1,0,1",
               "game ID has 7 counts; a 4x4 grid needs 8");
  expect_error("4x4:cc9b,1,0,1,1,1,0,1,1", "unexpected '9' at offset 2");
  expect_error("4x4:cc,1,0,1,1,1,0,1,1", "covers 8 of the 16 cells");
  expect_error("4x4:ccey,1,0,1,1,1,0,1,1", "runs past the 4x4 grid");
  expect_error("4x4:cceb,1,0,1,x,1,0,1,1",
               "column count 4: 'x' is not a count");
  expect_error("4x4:cceb,1,0,1,1,1,-1,1,1", "row count 2");
  expect_error("0x4:cceb,1", "is not WxH");
  expect_error("1 0 1 1/...T 1/...A 0/.... 1/.A.. 1", "row 1: unexpected 'T'");
  expect_error("1 0 1 1/...A 1/..A 0",
               "row 2: 3 cells, but line 1 gives 4 column counts");
  expect_error("1 0 1 1/...A", "row 1: no tent count");
  expect_error("1 0 1 1",
               "expected a line of column counts and at least one row");
}

TEST(TentsTextTest, KindsIncludeTentsAndChess) {
  EXPECT_THAT(PuzzleKinds(), ::testing::IsSupersetOf({"tents", "chess"}));
}

}  // namespace
}  // namespace qs::formats
