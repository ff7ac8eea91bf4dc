// Topology generators against the counts of docs/dwave-protocol.md §3.2
// (which match dwave-networkx): P16 5640 qubits / 40484 couplers, Z(12,4) 4800
// / 45864, C16 2048 / 6016, and the smaller shapes.
#include "core/sample/dwave/hardware_graph.h"

#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::dwave {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

int MaxDegree(const HardwareGraph& g) {
  size_t d = 0;
  for (int q = 0; q < g.size(); ++q) d = std::max(d, g.neighbors(q).size());
  return static_cast<int>(d);
}

TEST(HardwareGraphTest, PegasusCountsMatchTheReference) {
  const HardwareGraph p4 = PegasusGraph(4);
  EXPECT_EQ(p4.size(), 264);
  EXPECT_EQ(p4.couplers().size(), 1604u);
  const HardwareGraph p6 = PegasusGraph(6);
  EXPECT_EQ(p6.size(), 680);
  EXPECT_EQ(p6.couplers().size(), 4484u);
  const HardwareGraph p16 = PegasusGraph(16);
  EXPECT_EQ(p16.size(), 5640);
  EXPECT_EQ(p16.couplers().size(), 40484u);
  EXPECT_EQ(p16.num_qubits(), 5760);
  EXPECT_EQ(p16.qubits().front(), 30);  // fabric labels 30 ... 5729
  EXPECT_EQ(p16.qubits().back(), 5729);
  EXPECT_EQ(MaxDegree(p16), 15);
}

TEST(HardwareGraphTest, ZephyrCountsMatchTheReference) {
  EXPECT_EQ(ZephyrGraph(4, 4).size(), 576);
  EXPECT_EQ(ZephyrGraph(4, 4).couplers().size(), 5032u);
  EXPECT_EQ(ZephyrGraph(6, 4).couplers().size(), 11400u);
  const HardwareGraph z12 = ZephyrGraph(12, 4);
  EXPECT_EQ(z12.size(), 4800);
  EXPECT_EQ(z12.couplers().size(), 45864u);
  EXPECT_EQ(MaxDegree(z12), 20);
  // Edge count formula 2t((8t+8)m^2 - 2m - 3) for m > 1.
  EXPECT_EQ(ZephyrGraph(3, 2).couplers().size(),
            static_cast<size_t>(2 * 2 * ((8 * 2 + 8) * 9 - 6 - 3)));
}

TEST(HardwareGraphTest, ChimeraCountsMatchTheReference) {
  const HardwareGraph c16 = ChimeraGraph(16, 16, 4);
  EXPECT_EQ(c16.size(), 2048);
  EXPECT_EQ(c16.couplers().size(), 6016u);
  EXPECT_EQ(MaxDegree(c16), 6);
}

TEST(HardwareGraphTest, DefectsAreSeededAndChangeTheGraphId) {
  const HardwareGraph p6 = PegasusGraph(6);
  const HardwareGraph a = RemoveDefects(p6, 7, 0.02, 0.005);
  const HardwareGraph b = RemoveDefects(p6, 7, 0.02, 0.005);
  const HardwareGraph c = RemoveDefects(p6, 8, 0.02, 0.005);
  EXPECT_LT(a.size(), p6.size());
  EXPECT_LT(a.couplers().size(), p6.couplers().size());
  EXPECT_EQ(a.qubits(), b.qubits());
  EXPECT_EQ(GraphId(a), GraphId(b));
  EXPECT_NE(GraphId(a), GraphId(c));
  EXPECT_NE(GraphId(a), GraphId(p6));
  EXPECT_EQ(GraphId(a).size(), 10u);
  for (const auto& [x, y] : a.couplers()) {
    EXPECT_GE(a.IndexOf(x), 0);
    EXPECT_GE(a.IndexOf(y), 0);
  }
}

TEST(HardwareGraphTest, CreateRejectsCouplersOnMissingQubits) {
  EXPECT_THAT(HardwareGraph::Create({0, 1}, {{0, 2}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("2")));
  auto g = HardwareGraph::Create({5, 1, 4}, {{4, 1}, {1, 4}, {5, 4}});
  ASSERT_OK(g);
  EXPECT_THAT(g->qubits(), ::testing::ElementsAre(1, 4, 5));
  EXPECT_EQ(g->couplers().size(), 2u);
  EXPECT_TRUE(g->HasEdge(g->IndexOf(1), g->IndexOf(4)));
  EXPECT_FALSE(g->HasEdge(g->IndexOf(1), g->IndexOf(5)));
}

TEST(HardwareGraphTest, GraphForTopologyParsesSapiShapes) {
  auto p = GraphForTopology("pegasus", {4});
  ASSERT_OK(p);
  EXPECT_EQ(p->size(), 264);
  auto z = GraphForTopology("zephyr", {4, 4});
  ASSERT_OK(z);
  EXPECT_EQ(z->size(), 576);
  EXPECT_THAT(
      GraphForTopology("pegasus", {4, 4}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pegasus")));
  EXPECT_THAT(
      GraphForTopology("mobius", {4}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("mobius")));
}

}  // namespace
}  // namespace qs::dwave
