// The field helpers of the line-based formats (formats/text_fields.h): numbers
// are written as the shortest decimal that reads back exactly, zeros unsigned.
#include "formats/text_fields.h"

#include <cmath>
#include <limits>

#include "absl/strings/numbers.h"
#include "gtest/gtest.h"

namespace qs::formats {
namespace {

TEST(ExactNumberTest, WritesTheShortestDecimalThatReadsBack) {
  EXPECT_EQ(ExactNumber(3), "3");
  EXPECT_EQ(ExactNumber(-2.5), "-2.5");
  EXPECT_EQ(ExactNumber(0.1), "0.1");
  EXPECT_EQ(ExactNumber(1e300), "1e+300");
  for (double w : {1.0 / 3, -2.0 / 7, std::nextafter(1.0, 2.0),
                   std::numeric_limits<double>::min()}) {
    double back = 0;
    ASSERT_TRUE(absl::SimpleAtod(ExactNumber(w), &back)) << ExactNumber(w);
    EXPECT_EQ(back, w) << ExactNumber(w);
  }
}

TEST(ExactNumberTest, WritesBothZerosAsZero) {
  EXPECT_EQ(ExactNumber(0.0), "0");
  EXPECT_EQ(ExactNumber(-0.0), "0");
  EXPECT_EQ(ExactNumber(-1.0 * 0), "0");
}

}  // namespace
}  // namespace qs::formats
