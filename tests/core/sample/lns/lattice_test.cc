// Tests of the lattice helpers (core/sample/lns/lattice.h): tori and open
// grids are recognised with their shape and other models are not; strip
// windows hold every variable but the fixed rows and column once, with a
// frontier one column high; kicks are rectangles within bounds.
#include "core/sample/lns/lattice.h"

#include <algorithm>
#include <set>
#include <vector>

#include "core/base/rng.h"
#include "core/qubo/qubo.h"
#include "core/sample/lns/window_dp.h"
#include "gtest/gtest.h"
#include "tests/core/sample/lns/lns_testing.h"

namespace qs {
namespace {

using ::qs::testing::LatticeMaxCut;

TEST(DetectLatticeTest, ATorusAndAnOpenGridAreLattices) {
  const std::optional<LatticeShape> torus =
      DetectLattice(LatticeMaxCut(6, 5, true, 1));
  ASSERT_TRUE(torus.has_value());
  EXPECT_EQ(torus->rows, 6);
  EXPECT_EQ(torus->cols, 5);
  EXPECT_TRUE(torus->wrap_rows);
  EXPECT_TRUE(torus->wrap_cols);
  const std::optional<LatticeShape> grid =
      DetectLattice(LatticeMaxCut(4, 7, false, 0));
  ASSERT_TRUE(grid.has_value());
  EXPECT_EQ(grid->rows, 4);
  EXPECT_EQ(grid->cols, 7);
  EXPECT_FALSE(grid->wrap_rows);
  EXPECT_FALSE(grid->wrap_cols);
}

TEST(DetectLatticeTest, OtherModelsAreNot) {
  QuboBuilder diagonal(36);
  for (int i = 0; i < 36; ++i) diagonal.AddQuadratic(i, (i + 7) % 36, 1);
  diagonal.AddQuadratic(0, 1, 1);
  EXPECT_FALSE(DetectLattice(*std::move(diagonal).Build()).has_value());
  QuboBuilder ring(12);
  for (int i = 0; i < 12; ++i) ring.AddQuadratic(i, (i + 1) % 12, 1);
  EXPECT_FALSE(DetectLattice(*std::move(ring).Build()).has_value());
  EXPECT_FALSE(DetectLattice(QuboBuilder(20).Build().value()).has_value());
}

TEST(StripWindowsTest, EveryVariableButTheFixedOnesOnceWithAThinFrontier) {
  const Qubo model = LatticeMaxCut(9, 7, true, 2);
  const LatticeShape shape = *DetectLattice(model);
  Xoshiro256 rng(4);
  for (bool transposed : {false, true}) {
    const std::vector<std::vector<int32_t>> windows =
        StripWindows(shape, transposed, 3, 5, rng);
    std::set<int32_t> seen;
    for (const std::vector<int32_t>& window : windows) {
      EXPECT_LE(WindowFrontier(model, window), 4);
      for (int32_t v : window) EXPECT_TRUE(seen.insert(v).second) << v;
    }
    // Strips of 3 between single fixed lines, and one fixed line across.
    const int lines = transposed ? 7 : 9, length = transposed ? 9 : 7;
    const int fixed_lines = (lines + 3) / 4;
    EXPECT_EQ(seen.size(), (lines - fixed_lines) * (length - 1));
  }
}

TEST(RandomRectangleTest, SidesWithinBoundsAndTheLattice) {
  const LatticeShape shape = {.rows = 5, .cols = 40};
  Xoshiro256 rng(8);
  for (int k = 0; k < 50; ++k) {
    const std::vector<int32_t> cells = RandomRectangle(shape, 30, rng);
    EXPECT_GE(cells.size(), 4u);
    EXPECT_LE(cells.size(), 5u * 30u);
    EXPECT_EQ(std::set<int32_t>(cells.begin(), cells.end()).size(),
              cells.size());
  }
}

}  // namespace
}  // namespace qs
