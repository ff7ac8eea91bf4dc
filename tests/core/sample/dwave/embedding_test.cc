// Minor embedding (docs/dwave-protocol.md §3.3, §3.5): the heuristic's
// embeddings are valid (connected, disjoint chains covering every edge),
// seeded, fail with FAILED_PRECONDITION when the graph cannot fit, the
// validator catches each kind of fault, and the cache returns what was stored
// per (graph id, problem).
#include "core/sample/dwave/embedding.h"

#include "core/families/sudoku/sudoku.h"
#include "core/sample/dwave/embed_problem.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/status_matchers.h"

namespace qs::dwave {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

ProblemGraph Clique(int n) {
  ProblemGraph g;
  g.num_variables = n;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) g.edges.emplace_back(a, b);
  }
  return g;
}

ProblemGraph NytSudokuGraph() {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(3);
  for (char ch : std::string(qs::testing::kNytPuzzle))
    spec.mutable_sudoku()->add_cells(ch == '.' ? 0 : ch - '0');
  v1::CompileOptions options;
  options.set_reduction(v1::REDUCTION_FULL);
  auto problem = NewSudokuCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return ProblemGraphOf(problem->model);
}

TEST(EmbeddingTest, CliqueOnChimeraIsValid) {
  const HardwareGraph target = ChimeraGraph(4, 4, 4);
  const ProblemGraph k8 = Clique(8);
  EmbeddingStats stats;
  auto embedding = FindEmbedding(k8, target, {.seed = 3}, nullptr, &stats);
  ASSERT_OK(embedding);
  EXPECT_OK(ValidateEmbedding(k8, target, *embedding));
  EXPECT_GT(embedding->MaxChainLength(),
            1);  // K8 is not a subgraph of a degree-6 graph
  EXPECT_GE(stats.tries, 1);
}

TEST(EmbeddingTest, SameSeedSameEmbedding) {
  const HardwareGraph target = PegasusGraph(4);
  const ProblemGraph k10 = Clique(10);
  auto a = FindEmbedding(k10, target, {.seed = 11}, nullptr);
  auto b = FindEmbedding(k10, target, {.seed = 11}, nullptr);
  ASSERT_OK(a);
  ASSERT_OK(b);
  EXPECT_EQ(a->chains, b->chains);
}

TEST(EmbeddingTest, EmbedsAroundBrokenQubits) {
  const HardwareGraph target = RemoveDefects(PegasusGraph(6), 5, 0.05, 0.01);
  const ProblemGraph k16 = Clique(16);
  auto embedding = FindEmbedding(k16, target, {.seed = 2}, nullptr);
  ASSERT_OK(embedding);
  EXPECT_OK(ValidateEmbedding(k16, target, *embedding));
}

TEST(EmbeddingTest, NytSudokuEmbedsOnPegasus16) {
  const ProblemGraph sudoku = NytSudokuGraph();
  ASSERT_EQ(sudoku.num_variables, 211);
  ASSERT_EQ(sudoku.edges.size(), 1125u);
  const HardwareGraph target = PegasusGraph(16);
  EmbeddingStats stats;
  auto embedding =
      FindEmbedding(sudoku, target, {.seed = 1, .timeout = absl::Seconds(300)},
                    nullptr, &stats);
  ASSERT_OK(embedding);
  EXPECT_OK(ValidateEmbedding(sudoku, target, *embedding));
  std::printf(
      "NYT Sudoku on P16: %s, max chain %d, %d qubits, %d tries, %d passes\n",
      absl::FormatDuration(stats.elapsed).c_str(), embedding->MaxChainLength(),
      embedding->TotalQubits(), stats.tries, stats.passes);
}

TEST(EmbeddingTest, TooLargeFailsWithFailedPrecondition) {
  // K40 needs chains whose outside degree exceeds what 24 qubits of a degree-6
  // graph offer.
  EXPECT_THAT(
      FindEmbedding(Clique(40), ChimeraGraph(1, 1, 4), {.seed = 1}, nullptr),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("needs at least")));
  // Passes the counting bound, but C(3,3,4) holds no clique above K13.
  EXPECT_THAT(
      FindEmbedding(Clique(16), ChimeraGraph(3, 3, 4),
                    {.seed = 1, .timeout = absl::Seconds(2), .tries = 2},
                    nullptr),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("no minor embedding of the 16-variable")));
}

TEST(EmbeddingTest, InterrupterCancels) {
  Interrupter interrupter;
  interrupter.Interrupt(StopReason::kCancelled);
  EXPECT_THAT(
      FindEmbedding(Clique(10), PegasusGraph(4), {.seed = 1}, &interrupter),
      StatusIs(absl::StatusCode::kCancelled, HasSubstr("interrupted")));
}

TEST(EmbeddingTest, ValidatorFindsEveryFault) {
  auto target =
      HardwareGraph::Create({0, 1, 2, 3}, {{0, 1}, {1, 2}, {2, 3}});  // a path
  ASSERT_OK(target);
  ProblemGraph edge{2, {{0, 1}}};
  EXPECT_OK(ValidateEmbedding(edge, *target, {{{0, 1}, {2}}}));
  EXPECT_THAT(ValidateEmbedding(edge, *target, {{{0}, {}}}),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("empty")));
  EXPECT_THAT(
      ValidateEmbedding(edge, *target, {{{0, 2}, {3}}}),
      StatusIs(absl::StatusCode::kInternal, HasSubstr("not connected")));
  EXPECT_THAT(ValidateEmbedding(edge, *target, {{{0, 1}, {1, 2}}}),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("chains of variables 0 and 1")));
  EXPECT_THAT(
      ValidateEmbedding(edge, *target, {{{0}, {3}}}),
      StatusIs(absl::StatusCode::kInternal, HasSubstr("no coupler between")));
  EXPECT_THAT(ValidateEmbedding(edge, *target, {{{0}, {7}}}),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("not working")));
}

TEST(EmbeddingTest, CacheIsKeyedByGraphIdAndProblem) {
  EmbeddingCache cache(2);
  const ProblemGraph k3 = Clique(3);
  const uint64_t h3 = ProblemGraphHash(k3);
  EXPECT_NE(h3, ProblemGraphHash(Clique(4)));
  ProblemGraph shuffled{3, {{1, 2}, {0, 2}, {1, 0}}};
  EXPECT_EQ(h3, ProblemGraphHash(shuffled));
  EXPECT_FALSE(cache.Lookup("g1", h3).has_value());
  cache.Insert("g1", h3, {{{1}, {2}, {3}}});
  ASSERT_TRUE(cache.Lookup("g1", h3).has_value());
  EXPECT_EQ(cache.Lookup("g1", h3)->chains[2], std::vector<int>{3});
  EXPECT_FALSE(cache.Lookup("g2", h3).has_value());
  cache.Insert("g2", h3, {{{4}, {5}, {6}}});
  cache.Insert("g3", h3, {{{4}, {5}, {6}}});
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_FALSE(cache.Lookup("g1", h3).has_value());  // the oldest went first
}

}  // namespace
}  // namespace qs::dwave
