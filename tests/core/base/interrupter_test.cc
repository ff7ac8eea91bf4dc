// Interrupter: the first reason wins, the earliest deadline wins with its
// reason, and a passed deadline reports a stop.
#include "core/base/interrupter.h"

#include "gtest/gtest.h"

namespace qs {
namespace {

TEST(InterrupterTest, FirstReasonWins) {
  Interrupter interrupter;
  EXPECT_FALSE(interrupter.ShouldStop());
  EXPECT_EQ(interrupter.reason(), StopReason::kNone);
  interrupter.Interrupt(StopReason::kCancelled);
  interrupter.Interrupt(StopReason::kTimeLimit);
  EXPECT_TRUE(interrupter.ShouldStop());
  EXPECT_EQ(interrupter.reason(), StopReason::kCancelled);
  EXPECT_EQ(StopReasonName(interrupter.reason()), "cancelled");
}

TEST(InterrupterTest, EarliestDeadlineWinsWithItsReason) {
  Interrupter interrupter;
  interrupter.SetDeadline(absl::Now() + absl::Hours(1), StopReason::kDeadline);
  EXPECT_FALSE(interrupter.ShouldStop());
  interrupter.SetDeadline(absl::Now() - absl::Seconds(1),
                          StopReason::kTimeLimit);
  interrupter.SetDeadline(absl::Now() + absl::Hours(2),
                          StopReason::kDeadline);  // later: ignored
  EXPECT_TRUE(interrupter.ShouldStop());
  EXPECT_EQ(interrupter.reason(), StopReason::kTimeLimit);
}

}  // namespace
}  // namespace qs
