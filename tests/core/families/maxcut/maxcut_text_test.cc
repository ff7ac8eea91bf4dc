// The rudy / G-set Max-Cut format: round trip, generated graphs, and errors
// that name the line and the field.
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "formats/instance_generators.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs::formats {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

TEST(MaxCutText, ReadsOneBasedEdges) {
  auto spec =
      ParsePuzzleText("maxcut", "# a triangle\n3 3\n1 2 1\n2 3 -1\n1 3 2.5\n");
  ASSERT_TRUE(spec.ok()) << spec.status();
  const v1::MaxCutPuzzle& g = spec->maxcut();
  EXPECT_EQ(g.num_nodes(), 3u);
  ASSERT_EQ(g.u_size(), 3);
  EXPECT_EQ(g.u(1), 1u);
  EXPECT_EQ(g.v(1), 2u);
  EXPECT_EQ(g.w(1), -1);
  EXPECT_EQ(g.w(2), 2.5);
}

TEST(MaxCutText, RoundTripOfGeneratedGraphs) {
  for (bool signed_weights : {false, true}) {
    const v1::PuzzleSpec graph = RandomGsetGraph(60, 0.1, signed_weights, 3);
    EXPECT_GT(graph.maxcut().u_size(), 100);
    auto text = FormatPuzzleText("maxcut", graph);
    ASSERT_TRUE(text.ok()) << text.status();
    auto back = ParsePuzzleText("maxcut", *text);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(MessageDifferencer::Equals(*back, graph));
    EXPECT_EQ(*FormatPuzzleText("maxcut", *back), *text);
  }
}

TEST(MaxCutText, GeneratorIsSeeded) {
  EXPECT_TRUE(MessageDifferencer::Equals(RandomGsetGraph(50, 0.2, true, 9),
                                         RandomGsetGraph(50, 0.2, true, 9)));
  EXPECT_FALSE(MessageDifferencer::Equals(RandomGsetGraph(50, 0.2, true, 9),
                                          RandomGsetGraph(50, 0.2, true, 10)));
  // G-set's 800-node graphs at 6 % density have about 19,176 edges.
  const int edges = RandomGsetGraph(800, 0.06, false, 1).maxcut().u_size();
  EXPECT_NEAR(edges, 19176, 600);
}

// Every node of a regular graph has the degree, every node of a square +-J
// torus four neighbours, with no loop and no edge twice; both are seeded.
TEST(MaxCutText, RegularGraphsAndToriAreSimpleAndSeeded) {
  auto check = [](const v1::PuzzleSpec& spec, uint32_t degree,
                  bool signed_weights) {
    const v1::MaxCutPuzzle& g = spec.maxcut();
    std::vector<uint32_t> seen(g.num_nodes());
    std::set<std::pair<uint32_t, uint32_t>> edges;
    bool negative = false;
    for (int k = 0; k < g.u_size(); ++k) {
      EXPECT_LT(g.u(k), g.v(k));
      EXPECT_TRUE(edges.insert({g.u(k), g.v(k)}).second) << k;
      ++seen[g.u(k)];
      ++seen[g.v(k)];
      EXPECT_EQ(std::abs(g.w(k)), 1);
      negative = negative || g.w(k) < 0;
    }
    EXPECT_EQ(negative, signed_weights);
    for (uint32_t d : seen) EXPECT_EQ(d, degree);
  };
  check(RandomRegularGraph(1000, 3, false, 1), 3, false);
  check(RandomRegularGraph(501, 4, true, 2), 4, true);
  check(RandomToroidalGraph(3, 3, true, 1), 4, true);
  check(RandomToroidalGraph(20, 20, true, 7), 4, true);
  EXPECT_EQ(RandomToroidalGraph(20, 20, true, 7).maxcut().u_size(), 800);
  EXPECT_TRUE(MessageDifferencer::Equals(RandomRegularGraph(100, 3, true, 5),
                                         RandomRegularGraph(100, 3, true, 5)));
  EXPECT_FALSE(MessageDifferencer::Equals(RandomRegularGraph(100, 3, true, 5),
                                          RandomRegularGraph(100, 3, true, 6)));
  EXPECT_FALSE(
      MessageDifferencer::Equals(RandomToroidalGraph(10, 10, true, 1),
                                 RandomToroidalGraph(10, 10, true, 2)));
  // No such graph (odd n * d): the nodes alone.
  EXPECT_EQ(RandomRegularGraph(11, 3, false, 1).maxcut().u_size(), 0);
}

TEST(MaxCutText, ToroidalGridHasDegreeFourAndDistinctEdges) {
  // As G11: an 800-node torus (50 x 16), 1,600 edges, weights +-1.
  const v1::MaxCutPuzzle g = RandomToroidalGraph(50, 16, true, 11).maxcut();
  ASSERT_EQ(g.num_nodes(), 800u);
  ASSERT_EQ(g.u_size(), 1600);
  std::vector<int> degree(g.num_nodes());
  std::set<std::pair<uint32_t, uint32_t>> edges;
  int negative = 0;
  for (int k = 0; k < g.u_size(); ++k) {
    EXPECT_LT(g.u(k), g.v(k));
    ++degree[g.u(k)];
    ++degree[g.v(k)];
    edges.insert({g.u(k), g.v(k)});
    negative += g.w(k) < 0;
    EXPECT_EQ(std::abs(g.w(k)), 1);
  }
  EXPECT_EQ(edges.size(), 1600u);
  for (int d : degree) EXPECT_EQ(d, 4);
  EXPECT_NEAR(negative, 800, 120);
  // Unsigned: every weight 1; seeded like the random graphs.
  const v1::PuzzleSpec unsigned_grid = RandomToroidalGraph(3, 4, false, 1);
  for (double w : unsigned_grid.maxcut().w()) EXPECT_EQ(w, 1);
  EXPECT_TRUE(MessageDifferencer::Equals(RandomToroidalGraph(5, 6, true, 9),
                                         RandomToroidalGraph(5, 6, true, 9)));
  EXPECT_FALSE(MessageDifferencer::Equals(RandomToroidalGraph(5, 6, true, 9),
                                          RandomToroidalGraph(5, 6, true, 10)));
}

TEST(MaxCutText, StoredGraphIsTheGeneratorOutput) {
  EXPECT_EQ(testing::ReadSourceFile("tests/data/maxcut/gset_pm_14.txt"),
            *FormatPuzzleText("maxcut", RandomGsetGraph(14, 0.4, true, 2)));
}

TEST(MaxCutText, ErrorsNameLineAndField) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"3 1\n1 4 1\n", "maxcut line 2, field 2 (j): 4 is out of range [1, 3]"},
      {"3 1\n2 2 1\n", "maxcut line 2, field 2 (j): a loop on node 2"},
      {"3 1\n1 2 one\n", "maxcut line 2, field 3 (w): 'one' is not a finite"},
      {"3 2\n1 2 1\n", "maxcut line 1: announces 2 edges, the file has 1"},
      {"3\n", "maxcut line 1: expected 2 fields 'N E', got 1"},
      {"0 0\n", "maxcut line 1, field 1 (N): 0 is out of range"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(ParsePuzzleText("maxcut", c.text).status().message(),
                HasSubstr(c.message))
        << c.text;
  }
}

}  // namespace
}  // namespace qs::formats
