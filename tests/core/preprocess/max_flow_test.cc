// MaxFlow: a textbook network, and the flow value against the minimum cut
// found by enumerating every cut of small random networks.
#include "core/preprocess/max_flow.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"

namespace qs {
namespace {

TEST(MaxFlowTest, TextbookNetwork) {
  // CLRS figure 26.1: the maximum flow is 23.
  MaxFlow flow(6);
  flow.AddArc(0, 1, 16);
  flow.AddArc(0, 2, 13);
  flow.AddArc(2, 1, 4);
  flow.AddArc(1, 3, 12);
  flow.AddArc(3, 2, 9);
  flow.AddArc(2, 4, 14);
  flow.AddArc(4, 3, 7);
  flow.AddArc(3, 5, 20);
  flow.AddArc(4, 5, 4);
  EXPECT_EQ(flow.Solve(0, 5), 23);
}

TEST(MaxFlowTest, FlowsRespectCapacitiesAndConservation) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    const int nodes = 2 + static_cast<int>(rng() % 8);
    MaxFlow flow(nodes);
    std::vector<std::tuple<int, int, int64_t>> arcs;
    for (int k = 0; k < 3 * nodes; ++k) {
      const int u = static_cast<int>(rng() % nodes);
      const int v = static_cast<int>(rng() % nodes);
      if (u == v) continue;
      const int64_t c = static_cast<int64_t>(rng() % 10);
      arcs.emplace_back(u, v, c);
      flow.AddArc(u, v, c);
    }
    const int64_t value = flow.Solve(0, nodes - 1);
    // The minimum over every cut with the source in and the sink out.
    int64_t best = std::numeric_limits<int64_t>::max();
    for (uint32_t mask = 0; mask < (1u << nodes); ++mask) {
      if (!(mask & 1) || (mask >> (nodes - 1) & 1)) continue;
      int64_t cut = 0;
      for (const auto& [u, v, c] : arcs) {
        if ((mask >> u & 1) && !(mask >> v & 1)) cut += c;
      }
      best = std::min(best, cut);
    }
    EXPECT_EQ(value, best) << "round " << round;
    std::vector<int64_t> balance(nodes, 0);
    for (int e = 0; e < flow.num_arcs(); ++e) {
      EXPECT_GE(flow.flow(e), 0);
      EXPECT_LE(flow.flow(e), flow.capacity(e));
      balance[flow.from(e)] -= flow.flow(e);
      balance[flow.to(e)] += flow.flow(e);
    }
    for (int u = 1; u + 1 < nodes; ++u) EXPECT_EQ(balance[u], 0);
    EXPECT_EQ(balance[nodes - 1], value);
  }
}

}  // namespace
}  // namespace qs
