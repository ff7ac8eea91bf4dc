// The Takuzu / Tango drawing (takuzu_drawing.cc): givens and a solution's
// values as suns (0) and moons (1), Tango's '=' and 'x' between side
// neighbours as signs, count regions as colours with walls, values that are
// neither 0 nor 1, and bad input refused naming the field.
#include <climits>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/families/builtin.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/family_drawing.h"
#include "tests/testing/picture_rows.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::GivenRows;
using ::qs::testing::GlyphRows;
using ::qs::testing::RegionRows;
using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::map<std::string, char> kValues = {{"sun", '0'}, {"moon", '1'}};

// The 4x4 Tango of takuzu_text.cc's comment: cells (1,1) and (1,2) equal,
// (2,3) and (3,3) different, (4,2) and (4,3) different (1-based).
constexpr char kTango[] = "1=..0/..../...1/..x./0.../..../..x..";

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("takuzu", spec, solution);
}

v1::PuzzleSpec Parse(const std::string& kind, const std::string& text) {
  auto spec = formats::ParsePuzzleText(kind, text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

std::set<std::tuple<uint32_t, uint32_t, std::string>> Signs(
    const v1::BoardPicture& picture) {
  std::set<std::tuple<uint32_t, uint32_t, std::string>> signs;
  for (const v1::EdgeSign& sign : picture.signs())
    signs.emplace(sign.a(), sign.b(), sign.text());
  return signs;
}

TEST(TakuzuDrawingTest, TangoGivensAreSunsAndMoonsAndSignsAreOnTheirEdges) {
  auto picture = Draw(Parse("tango", kTango));
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 4u);
  EXPECT_EQ(picture->cols(), 4u);
  EXPECT_THAT(GlyphRows(*picture, kValues),
              ElementsAre("1..0", "...1", "0...", "...."));
  EXPECT_THAT(GivenRows(*picture), ElementsAre("G..G", "...G", "G...", "...."));
  const std::set<std::tuple<uint32_t, uint32_t, std::string>> expected = {
      {0, 1, "="}, {6, 10, "x"}, {13, 14, "x"}};
  EXPECT_EQ(Signs(*picture), expected);
  EXPECT_EQ(picture->signs_size(), 3);
  EXPECT_THAT(picture->walls(), IsEmpty());
}

TEST(TakuzuDrawingTest, TheSolutionsValuesFillTheOtherCells) {
  const v1::PuzzleSpec spec = Parse("takuzu", "1..0/..../0.../...1");
  auto solution =
      formats::ParseBoardText("takuzu", spec, "1100/0011/0110/1001");
  ASSERT_OK(solution);
  auto picture = Draw(spec, &*solution);
  ASSERT_OK(picture);
  EXPECT_THAT(GlyphRows(*picture, kValues),
              ElementsAre("1100", "0011", "0110", "1001"));
  EXPECT_THAT(GivenRows(*picture), ElementsAre("G..G", "....", "G...", "...G"));
  EXPECT_THAT(picture->signs(), IsEmpty());
}

TEST(TakuzuDrawingTest, ValuesOtherThanZeroOrOneDrawNothing) {
  const v1::PuzzleSpec spec = Parse("takuzu", "1..0/..../0.../...1");
  v1::PuzzleSolution solution;
  // Givens keep their value whatever the solution says there.
  for (int value :
       {0, -1, 2, 1, INT_MIN, INT_MAX, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0})
    solution.add_cells(value);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(GlyphRows(*picture, kValues),
              ElementsAre("1..0", "..01", "0000", "0001"));
}

TEST(TakuzuDrawingTest, CountRegionsAreColoursAndFarSignsAreLeftOut) {
  v1::PuzzleSpec spec;
  v1::TakuzuPuzzle& takuzu = *spec.mutable_takuzu();
  takuzu.set_rows(2);
  takuzu.set_cols(2);
  auto cell = [](v1::TakuzuCellRef* ref, uint32_t row, uint32_t col) {
    ref->set_row(row);
    ref->set_col(col);
  };
  v1::TakuzuCountRegion& first = *takuzu.add_regions();
  cell(first.add_cells(), 0, 0);
  cell(first.add_cells(), 0, 1);
  v1::TakuzuCountRegion& second = *takuzu.add_regions();
  cell(second.add_cells(), 0, 1);  // overlaps the first: keeps colour 1
  cell(second.add_cells(), 1, 1);
  v1::TakuzuSign& far = *takuzu.add_signs();  // diagonal neighbours
  cell(far.mutable_a(), 0, 0);
  cell(far.mutable_b(), 1, 1);
  far.set_kind(v1::TakuzuSign::EQUAL);
  auto picture = Draw(spec);
  ASSERT_OK(picture);
  EXPECT_THAT(RegionRows(*picture), ElementsAre("11", ".2"));
  EXPECT_EQ(picture->walls_size(), 3);
  EXPECT_THAT(picture->signs(), IsEmpty());
}

TEST(TakuzuDrawingTest, BadInputIsRefusedNamingTheField) {
  const v1::PuzzleSpec spec = Parse("tango", kTango);
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(0);
  EXPECT_THAT(Draw(spec, &short_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));

  v1::PuzzleSpec off_board = spec;
  off_board.mutable_takuzu()->mutable_signs(1)->mutable_b()->set_row(4);
  EXPECT_THAT(Draw(off_board), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("takuzu.signs[1].b")));

  v1::PuzzleSpec cells = spec;
  cells.mutable_takuzu()->add_cells(v1::TakuzuPuzzle::ONE);
  EXPECT_THAT(Draw(cells), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("takuzu.cells")));

  v1::PuzzleSpec no_cols = spec;
  no_cols.mutable_takuzu()->set_cols(0);
  EXPECT_THAT(Draw(no_cols), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("takuzu.cols")));
}

}  // namespace
}  // namespace qs
