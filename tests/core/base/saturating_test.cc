// SaturatingMul (core/base/saturating.h): exact below the int64_t limit,
// INT64_MAX at and past it.
#include "core/base/saturating.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace qs {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(SaturatingMulTest, ExactWhenTheProductFits) {
  EXPECT_EQ(SaturatingMul(0, kMax), 0);
  EXPECT_EQ(SaturatingMul(81, 9), 729);
  EXPECT_EQ(SaturatingMul(3037000499, 3037000499), 9223372030926249001);
  EXPECT_EQ(SaturatingMul(kMax, 1), kMax);
}

TEST(SaturatingMulTest, SaturatesWhenTheProductDoesNot) {
  EXPECT_EQ(SaturatingMul(3037000500, 3037000500), kMax);
  EXPECT_EQ(SaturatingMul(int64_t{4294967295}, int64_t{4294967295}), kMax);
  EXPECT_EQ(SaturatingMul(kMax, 2), kMax);
}

}  // namespace
}  // namespace qs
