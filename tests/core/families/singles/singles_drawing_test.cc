// The Singles drawing (Family::draw): every number as given text, a
// solution's shaded cells drawn dark, and the checks of a malformed puzzle or
// solution.
#include "core/families/builtin.h"
#include "core/families/family.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

DrawFunction Draw() {
  const FamilyInfo* family = BuiltinFamilies().Find("singles");
  EXPECT_NE(family, nullptr);
  return family == nullptr ? nullptr : family->draw;
}

TEST(SinglesDrawingTest, DrawsNumbersAndShadedCells) {
  auto spec = formats::ParsePuzzleText("singles", "2x2:1221");
  ASSERT_OK(spec);
  auto puzzle = Draw()(*spec, nullptr);
  ASSERT_OK(puzzle);
  EXPECT_EQ(puzzle->rows(), 2u);
  EXPECT_EQ(puzzle->cols(), 2u);
  ASSERT_EQ(puzzle->cells_size(), 4);
  EXPECT_EQ(puzzle->cells(1).text(), "2");
  EXPECT_TRUE(puzzle->cells(1).given());
  for (const auto& cell : puzzle->cells()) EXPECT_FALSE(cell.blocked());

  v1::PuzzleSolution solution;
  for (int s : {1, 0, 0, 1}) solution.add_cells(s);
  auto solved = Draw()(*spec, &solution);
  ASSERT_OK(solved);
  EXPECT_TRUE(solved->cells(0).blocked());
  EXPECT_EQ(solved->cells(0).glyph(), "cross");
  EXPECT_EQ(solved->cells(1).glyph(), "");
  // The unshaded cells' tree: none between the two diagonal ones here, two
  // edges over three connected ones.
  EXPECT_EQ(solved->paths_size(), 0);
  EXPECT_EQ(puzzle->paths_size(), 0);
  v1::PuzzleSolution connected;
  for (int s : {1, 0, 0, 0}) connected.add_cells(s);
  auto tree = Draw()(*spec, &connected);
  ASSERT_OK(tree);
  EXPECT_EQ(tree->paths_size(), 2);
  EXPECT_FALSE(solved->cells(1).blocked());
  EXPECT_TRUE(solved->cells(3).blocked());
  EXPECT_EQ(solved->cells(0).text(), "1");  // the number stays readable
}

TEST(SinglesDrawingTest, RefusesMismatchedSolutionsAndPuzzles) {
  auto spec = formats::ParsePuzzleText("singles", "2x2:1221");
  ASSERT_OK(spec);
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(1);
  EXPECT_FALSE(Draw()(*spec, &short_solution).ok());
  v1::PuzzleSpec missing = *spec;
  missing.mutable_singles()->mutable_numbers()->RemoveLast();
  EXPECT_FALSE(Draw()(missing, nullptr).ok());
}

}  // namespace
}  // namespace qs
