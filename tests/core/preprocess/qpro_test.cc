// The QPRO+ rules against enumeration: on many random small models the
// reduced model's energy equals the model's on every expanded assignment, its
// minimum is the model's (so its ground states expand to ground states), and
// fixings, equalities and complements all occur.
#include "core/preprocess/qpro.h"

#include <random>

#include "core/qubo/variable_map.h"
#include "gtest/gtest.h"
#include "tests/core/preprocess/random_models.h"

namespace qs {
namespace {

using testing::Bits;
using testing::Enumerate;
using testing::RandomModel;

TEST(QproTest, SingleVariableRules) {
  // x0: 2 - 1 >= 0 whatever x1 is, so x0 = 0; then x1 alone: -1 <= 0, x1 = 1.
  QuboBuilder builder(2);
  builder.AddLinear(0, 2);
  builder.AddLinear(1, -1);
  builder.AddQuadratic(0, 1, -1);
  const Qubo model = *std::move(builder).Build();
  auto map = QproReduce(model);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(map->num_reduced(), 0);
  EXPECT_EQ(map->Expand({}), (std::vector<uint8_t>{0, 1}));
}

TEST(QproTest, ReducedModelKeepsTheMinimumAndExactEnergies) {
  std::mt19937_64 rng(15);
  int removed = 0, merged = 0, complemented = 0, fixed = 0;
  for (int round = 0; round < 600; ++round) {
    const int n = 1 + static_cast<int>(rng() % 14);
    const double density = 0.1 + 0.1 * static_cast<double>(rng() % 9);
    const Qubo model = RandomModel(rng, n, density, 1 + round % 6);
    auto map = QproReduce(model);
    ASSERT_TRUE(map.ok()) << map.status();
    auto reduced = ApplyVariableMap(model, *map);
    ASSERT_TRUE(reduced.ok()) << reduced.status();
    const int m = reduced->num_variables();
    for (uint32_t mask = 0; mask < (uint32_t{1} << m); ++mask) {
      const std::vector<uint8_t> y = Bits(m, mask);
      ASSERT_EQ(reduced->Energy(y), model.Energy(map->Expand(y)));
    }
    ASSERT_EQ(Enumerate(*reduced).energy, Enumerate(model).energy)
        << "round " << round;
    removed += n - m;
    for (int v = 0; v < n; ++v) {
      const VariableMap::Source& s = map->source(v);
      if (s.reduced < 0) {
        ++fixed;
      } else if (s.value == 1) {
        ++complemented;
      } else if (map->representative(s.reduced) != v) {
        ++merged;
      }
    }
  }
  // Every kind of reduction happens, so the checks above are not vacuous.
  EXPECT_GT(removed, 1000);
  EXPECT_GT(fixed, 0);
  EXPECT_GT(merged, 0);
  EXPECT_GT(complemented, 0);
}

TEST(QproTest, PairBudgetZeroLeavesOnlySingleRules) {
  // x_0 = x_1 is the only reduction: a pair rule.
  QuboBuilder builder(3);
  builder.AddLinear(0, 1);
  builder.AddLinear(1, 1);
  builder.AddQuadratic(0, 1, -3);
  builder.AddQuadratic(0, 2, 2);
  builder.AddQuadratic(1, 2, 2);
  builder.AddLinear(2, -3);
  const Qubo model = *std::move(builder).Build();
  auto with_pairs = QproReduce(model);
  ASSERT_TRUE(with_pairs.ok());
  EXPECT_LT(with_pairs->num_reduced(), 3);
  auto without = QproReduce(model, {.pair_work_budget = 0});
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without->num_reduced(), 3);
}

}  // namespace
}  // namespace qs
