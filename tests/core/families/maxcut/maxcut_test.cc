// The maxcut family: the QUBO's energy is minus the cut on every assignment,
// the ground energy is the brute-force maximum cut, Validate recomputes the
// cut, and malformed graphs are refused naming the field.
#include "core/families/maxcut/maxcut.h"

#include <algorithm>
#include <vector>

#include "core/compile/compiler.h"
#include "formats/instance_generators.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

std::vector<uint8_t> Bits(uint32_t mask, int n) {
  std::vector<uint8_t> bits(n);
  for (int v = 0; v < n; ++v) bits[v] = (mask >> v) & 1;
  return bits;
}

TEST(MaxCut, EnergyIsMinusTheCutEverywhere) {
  auto compiler = NewMaxCutCompiler();
  for (bool signed_weights : {false, true}) {
    const v1::PuzzleSpec spec =
        formats::RandomGsetGraph(12, 0.5, signed_weights, 5);
    auto problem = compiler->Compile(spec, {});
    ASSERT_TRUE(problem.ok()) << problem.status();
    double best_cut = -1e300;
    for (uint32_t mask = 0; mask < (1u << 12); ++mask) {
      const std::vector<uint8_t> side = Bits(mask, 12);
      const double cut = CutWeight(spec.maxcut(), side);
      best_cut = std::max(best_cut, cut);
      EXPECT_EQ(problem->full_model.Energy(side), -cut) << mask;
      EXPECT_EQ(*compiler->Objective(spec, -cut), cut);
      const v1::PuzzleSolution board = compiler->Decode(spec, *problem, side);
      auto report = compiler->Validate(spec, board);
      ASSERT_TRUE(report.ok());
      EXPECT_TRUE(report->valid());
      EXPECT_EQ(report->objective(), cut);
      EXPECT_EQ(*compiler->Encode(spec, *problem, board), side);
    }
    // Brute force agrees with the compiler's enumerated ground energy.
    ASSERT_TRUE(problem->ground_energy.has_value());
    EXPECT_EQ(*problem->ground_energy, -best_cut);
  }
}

TEST(MaxCut, LargeGraphsHaveNoGroundEnergy) {
  auto compiler = NewMaxCutCompiler();
  auto problem =
      compiler->Compile(formats::RandomGsetGraph(800, 0.06, true, 1), {});
  ASSERT_TRUE(problem.ok());
  EXPECT_FALSE(problem->ground_energy.has_value());
  EXPECT_EQ(problem->model.num_variables(), 800);
}

TEST(MaxCut, BoardFromRowAndErrors) {
  auto compiler = NewMaxCutCompiler();
  v1::PuzzleSpec spec;
  v1::MaxCutPuzzle* g = spec.mutable_maxcut();
  g->set_num_nodes(3);
  for (auto [u, v, w] : {std::tuple{0, 1, 2.0}, {1, 2, 3.0}, {0, 2, -1.0}}) {
    g->add_u(u);
    g->add_v(v);
    g->add_w(w);
  }
  v1::PuzzleSolution row;
  row.add_rows("010");
  EXPECT_EQ(compiler->Validate(spec, row)->objective(), 5);
  row.set_rows(0, "01");
  EXPECT_THAT(compiler->Validate(spec, row).status().message(),
              HasSubstr("expected 3 nodes"));
  g->set_v(2, 7);
  EXPECT_THAT(compiler->Compile(spec, {}).status().message(),
              HasSubstr("maxcut.v[2]: 7 >= num_nodes 3"));
  g->set_v(2, 0);
  EXPECT_THAT(compiler->Compile(spec, {}).status().message(),
              HasSubstr("maxcut.v[2]: a loop"));
}

}  // namespace
}  // namespace qs
