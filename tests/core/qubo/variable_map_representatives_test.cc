// Tests of VariableMap::FromSourcesWithRepresentatives
// (core/qubo/variable_map.h): literal substitution with caller-chosen
// representatives, as the Takuzu compiler uses it ([Mata Ali & Mencia 2025] §3,
// eq. 19-22), keeps every energy of ApplyVariableMap exact.
#include <vector>

#include "core/qubo/qubo.h"
#include "core/qubo/variable_map.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;
using Source = VariableMap::Source;

TEST(VariableMapRepresentativesTest, RepresentativeNeedNotBeTheFirstUse) {
  // x0 = 1, x1 = 1 - y0, x2 = y0 (its representative), x3 = y1.
  auto map = VariableMap::FromSourcesWithRepresentatives(
      {{-1, 1}, {0, 1}, {0, 0}, {1, 0}}, {2, 3});
  ASSERT_OK(map);
  EXPECT_EQ(map->num_full(), 4);
  EXPECT_EQ(map->num_reduced(), 2);
  EXPECT_EQ(map->representative(0), 2);
  EXPECT_EQ(map->representative(1), 3);
  EXPECT_EQ(map->num_fixed_one(), 1);
  EXPECT_EQ(map->Expand(std::vector<uint8_t>{1, 0}),
            (std::vector<uint8_t>{1, 0, 1, 0}));
  EXPECT_EQ(map->Restrict(std::vector<uint8_t>{1, 1, 0, 1}),
            (std::vector<uint8_t>{0, 1}));
  EXPECT_TRUE(map->IsConsistent(std::vector<uint8_t>{1, 1, 0, 1}));
  EXPECT_FALSE(map->IsConsistent(std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(VariableMapRepresentativesTest, ReducedEnergiesEqualFullEnergies) {
  QuboBuilder builder(4);
  builder.AddOffset(0.25);
  builder.AddLinear(0, -1.5);
  builder.AddLinear(1, 2);
  builder.AddLinear(3, -0.75);
  builder.AddQuadratic(0, 1, 2);
  builder.AddQuadratic(1, 2, -3);
  builder.AddQuadratic(2, 3, 1.25);
  builder.AddQuadratic(1, 3, 0.5);
  auto full = std::move(builder).Build();
  ASSERT_OK(full);
  auto map = VariableMap::FromSourcesWithRepresentatives(
      {{-1, 1}, {0, 1}, {0, 0}, {1, 0}}, {2, 3});
  ASSERT_OK(map);
  auto reduced = ApplyVariableMap(*full, *map);
  ASSERT_OK(reduced);
  for (uint8_t a : {0, 1}) {
    for (uint8_t b : {0, 1}) {
      const std::vector<uint8_t> y = {a, b};
      EXPECT_EQ(reduced->Energy(y), full->Energy(map->Expand(y)));
    }
  }
}

TEST(VariableMapRepresentativesTest, RejectsBadRepresentatives) {
  EXPECT_THAT(
      VariableMap::FromSourcesWithRepresentatives({{0, 1}, {0, 0}}, {0}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("not the plain literal")));
  EXPECT_THAT(
      VariableMap::FromSourcesWithRepresentatives({{0, 0}, {1, 0}}, {1, 0}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("not the plain literal")));
  EXPECT_THAT(
      VariableMap::FromSourcesWithRepresentatives({{0, 0}}, {3}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("outside")));
  EXPECT_THAT(
      VariableMap::FromSourcesWithRepresentatives({{2, 0}, {0, 0}}, {1}),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("reduced index 2")));
  EXPECT_THAT(
      VariableMap::FromSourcesWithRepresentatives({{-1, 2}}, {}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("value 2")));
}

}  // namespace
}  // namespace qs
