// Roof duality against enumeration: on many random small models every fixed
// variable has its value in every ground state (strong persistency) and the
// roof dual is a lower bound of the minimum, tight on models without positive
// couplers (submodular ones).
#include "core/preprocess/roof_duality.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/preprocess/random_models.h"

namespace qs {
namespace {

using testing::Enumerate;
using testing::GroundStates;
using testing::RandomModel;

TEST(RoofDualityTest, PositiveLinearTermFixesZeroNegativeFixesOne) {
  QuboBuilder builder(2);
  builder.AddLinear(0, 3);
  builder.AddLinear(1, -2);
  builder.AddOffset(1);
  const Qubo model = *std::move(builder).Build();
  const RoofDualityResult roof = RoofDuality(model);
  EXPECT_EQ(roof.fixed, (std::vector<int8_t>{0, 1}));
  EXPECT_EQ(roof.lower_bound, -1);
}

TEST(RoofDualityTest, FixedVariablesHoldInEveryGroundState) {
  std::mt19937_64 rng(2024);
  int fixed_total = 0, models_fixed_completely = 0;
  for (int round = 0; round < 600; ++round) {
    const int n = 1 + static_cast<int>(rng() % 14);
    const double density = 0.1 + 0.1 * static_cast<double>(rng() % 9);
    const Qubo model = RandomModel(rng, n, density, 1 + round % 6);
    const GroundStates ground = Enumerate(model);
    const RoofDualityResult roof = RoofDuality(model);
    ASSERT_TRUE(roof.lower_bound.has_value());
    EXPECT_LE(*roof.lower_bound, ground.energy) << "round " << round;
    int fixed = 0;
    for (int i = 0; i < n; ++i) {
      if (roof.fixed[i] < 0) continue;
      ++fixed;
      for (const std::vector<uint8_t>& state : ground.states) {
        ASSERT_EQ(state[i], roof.fixed[i])
            << "round " << round << " variable " << i;
      }
    }
    fixed_total += fixed;
    models_fixed_completely += fixed == n;
  }
  // The rules do fix something: the test would pass vacuously otherwise.
  EXPECT_GT(fixed_total, 600);
  EXPECT_GT(models_fixed_completely, 20);
}

TEST(RoofDualityTest, BoundIsTightWithoutPositiveCouplers) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 200; ++round) {
    const int n = 2 + static_cast<int>(rng() % 11);
    const Qubo model = RandomModel(rng, n, 0.5, 5);
    QuboBuilder builder(n);
    builder.AddOffset(model.offset());
    for (int i = 0; i < n; ++i) {
      builder.AddLinear(i, model.linear(i));
      for (const Neighbor& nb : model.neighbors(i)) {
        if (nb.j > i) builder.AddQuadratic(i, nb.j, -std::abs(nb.w));
      }
    }
    const Qubo submodular = *std::move(builder).Build();
    EXPECT_EQ(RoofDuality(submodular).lower_bound, Enumerate(submodular).energy)
        << "round " << round;
  }
}

TEST(RoofDualityTest, DyadicAndDecimalWeightsAreScaledOthersLeftAlone) {
  QuboBuilder dyadic(2);
  dyadic.AddLinear(0, 0.375);
  dyadic.AddLinear(1, -0.5);
  dyadic.AddQuadratic(0, 1, 0.25);
  const RoofDualityResult scaled = RoofDuality(*std::move(dyadic).Build());
  EXPECT_EQ(scaled.fixed, (std::vector<int8_t>{0, 1}));
  EXPECT_EQ(scaled.lower_bound, -0.5);

  QuboBuilder decimal(2);
  decimal.AddLinear(0, 0.1);
  decimal.AddLinear(1, -0.25);
  const RoofDualityResult tenths = RoofDuality(*std::move(decimal).Build());
  EXPECT_EQ(tenths.fixed, (std::vector<int8_t>{0, 1}));
  EXPECT_DOUBLE_EQ(*tenths.lower_bound, -0.25);

  QuboBuilder irrational(2);
  irrational.AddLinear(0, std::sqrt(2.0));
  irrational.AddLinear(1, -0.5);
  const RoofDualityResult alone = RoofDuality(*std::move(irrational).Build());
  EXPECT_EQ(alone.fixed, (std::vector<int8_t>{-1, -1}));
  EXPECT_FALSE(alone.lower_bound.has_value());
}

TEST(RoofDualityTest, EmptyModel) {
  const RoofDualityResult roof = RoofDuality(Qubo());
  EXPECT_TRUE(roof.fixed.empty());
  EXPECT_EQ(roof.lower_bound, 0);
}

}  // namespace
}  // namespace qs
