// RequestedBudget: the reads and sweeps of a request, with the defaults
// solve.proto states for unset fields.
#include "core/backend/requested_budget.h"

#include "gtest/gtest.h"

namespace qs {
namespace {

TEST(RequestedBudgetTest, UnsetFieldsTakeTheStatedDefaults) {
  const JobBudget unset = RequestedBudget(v1::SolveParams());
  EXPECT_EQ(unset.num_reads, 100);
  EXPECT_EQ(unset.num_sweeps, 1000);
  v1::SolveParams params;
  params.set_num_reads(7);
  params.set_num_sweeps(30);
  const JobBudget set = RequestedBudget(params);
  EXPECT_EQ(set.num_reads, 7);
  EXPECT_EQ(set.num_sweeps, 30);
  params.clear_num_sweeps();
  EXPECT_EQ(RequestedBudget(params).num_sweeps, 1000);
}

}  // namespace
}  // namespace qs
