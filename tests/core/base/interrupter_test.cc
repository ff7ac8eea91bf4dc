// Interrupter: the first reason wins, the earliest deadline wins with its
// reason (also when two deadlines are set at once from two threads), and a
// passed deadline reports a stop.
#include "core/base/interrupter.h"

#include <atomic>
#include <thread>

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

// Before, the reason was stored ahead of the compare-and-swap of the time, so a
// later deadline that lost the race could leave its reason beside the
// earlier one's time.
TEST(InterrupterTest, RacingDeadlinesKeepTheWinnersReason) {
  const absl::Time now = absl::Now();
  for (int round = 0; round < 2000; ++round) {
    Interrupter interrupter;
    std::atomic<int> ready{0};
    auto set = [&](absl::Time deadline, StopReason reason) {
      ready.fetch_add(1);
      while (ready.load() < 2) {
      }
      interrupter.SetDeadline(deadline, reason);
    };
    std::thread early(set, now - absl::Seconds(2), StopReason::kTimeLimit);
    std::thread late(set, now - absl::Seconds(1), StopReason::kDeadline);
    early.join();
    late.join();
    ASSERT_TRUE(interrupter.ShouldStop());
    ASSERT_EQ(interrupter.reason(), StopReason::kTimeLimit)
        << "round " << round;
    ASSERT_EQ(interrupter.deadline(), now - absl::Seconds(2));
  }
}

}  // namespace
}  // namespace qs
