// Property tests of clamping and literal substitution ([Mücke 2024] §2.1): for
// random models and random partial assignments, the reduced model's energy
// (offset included) equals the full model's energy of the expanded assignment,
// for every reduced assignment.
#include "core/qubo/variable_map.h"

#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;

Qubo RandomIntegerQubo(int n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> weight(-5, 5);
  std::bernoulli_distribution keep(0.5);
  QuboBuilder builder(n);
  builder.AddOffset(weight(rng));
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, weight(rng));
    builder.SetLabel(i, "v" + std::to_string(i));
    for (int j = i + 1; j < n; ++j) {
      if (keep(rng)) builder.AddQuadratic(i, j, weight(rng));
    }
  }
  return *std::move(builder).Build();
}

std::vector<uint8_t> Bits(uint64_t mask, int n) {
  std::vector<uint8_t> x(n);
  for (int i = 0; i < n; ++i) x[i] = (mask >> i) & 1;
  return x;
}

TEST(VariableMapTest, RandomClampsKeepEnergiesExactly) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> value(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + trial % 11;
    const Qubo full = RandomIntegerQubo(n, rng);
    std::vector<int8_t> assignment(n);
    for (auto& a : assignment) a = static_cast<int8_t>(value(rng));
    auto map = VariableMap::FromAssignment(assignment);
    ASSERT_OK(map);
    auto reduced = ApplyVariableMap(full, *map);
    ASSERT_OK(reduced);
    const int m = map->num_reduced();
    ASSERT_EQ(reduced->num_variables(), m);
    for (uint64_t mask = 0; mask < (uint64_t{1} << m); ++mask) {
      const std::vector<uint8_t> y = Bits(mask, m);
      const std::vector<uint8_t> x = map->Expand(y);
      EXPECT_EQ(reduced->Energy(y), full.Energy(x));  // exact: integer weights
      EXPECT_EQ(map->Restrict(x), y);
      EXPECT_TRUE(map->IsConsistent(x));
    }
    // Free variables keep their order and labels.
    for (int r = 0; r + 1 < m; ++r)
      EXPECT_LT(map->representative(r), map->representative(r + 1));
    for (int r = 0; r < m; ++r)
      EXPECT_EQ(reduced->labels()[r],
                "v" + std::to_string(map->representative(r)));
  }
}

TEST(VariableMapTest, NegatedLiteralsKeepEnergiesExactly) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 100; ++trial) {
    const int n = 3 + trial % 8;
    const Qubo full = RandomIntegerQubo(n, rng);
    // Variable 0 is free; every other one is a constant, a copy of an earlier
    // reduced variable, or its negation, or a new reduced variable.
    std::vector<VariableMap::Source> sources(n);
    int next = 1;
    sources[0] = {0, 0};
    std::uniform_int_distribution<int> kind(0, 3);
    for (int v = 1; v < n; ++v) {
      switch (kind(rng)) {
        case 0:
          sources[v] = {-1, static_cast<uint8_t>(rng() & 1)};
          break;
        case 1:
          sources[v] = {static_cast<int32_t>(rng() % next), 0};
          break;
        case 2:
          sources[v] = {static_cast<int32_t>(rng() % next), 1};
          break;
        default:
          sources[v] = {next++, 0};
      }
    }
    auto map = VariableMap::FromSources(sources, next);
    ASSERT_OK(map);
    auto reduced = ApplyVariableMap(full, *map);
    ASSERT_OK(reduced);
    for (uint64_t mask = 0; mask < (uint64_t{1} << next); ++mask) {
      const std::vector<uint8_t> y = Bits(mask, next);
      EXPECT_EQ(reduced->Energy(y), full.Energy(map->Expand(y)));
    }
  }
}

TEST(VariableMapTest, RejectsMalformedMaps) {
  EXPECT_THAT(VariableMap::FromAssignment(std::vector<int8_t>{0, 2}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("variable 1")));
  EXPECT_THAT(VariableMap::FromSources({{0, 1}}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("negated")));
  EXPECT_THAT(VariableMap::FromSources({{0, 0}}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("never used")));
  const Qubo full = *QuboBuilder(3).Build();
  EXPECT_THAT(ApplyVariableMap(full, VariableMap::Identity(2)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("covers 2")));
}

}  // namespace
}  // namespace qs
