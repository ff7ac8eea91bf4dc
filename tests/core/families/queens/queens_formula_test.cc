// [Bryant 2019]'s N-queens formula in both encodings (core/exact/
// queens_formula.h): the gates it builds per constraint follow the closed
// forms derived in docs/binary-encoding.md (the Table 1 comparison), and the
// BIN formula counts the same boards as the one-hot rules, by BDD and by
// CaDiCaL.
#include "core/families/queens/queens_formula.h"

#include <cctype>
#include <string>
#include <vector>

#include "core/exact/bdd_counter.h"
#include "core/exact/encoder.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/queens/queens_binary.h"
#include "gtest/gtest.h"
#include "tests/testing/nqueens_spec.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NQueens;

// A LinkedIn puzzle from rows of region letters ('/' between rows), lower
// case for a given queen.
v1::PuzzleSpec LinkedIn(const std::string& text) {
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& q = *spec.mutable_queens();
  q.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  int rows = 1, cell = 0;
  for (char ch : text) {
    if (ch == '/') {
      ++rows;
      continue;
    }
    q.add_regions(std::toupper(ch) - 'A');
    if (std::islower(ch)) q.add_given_queens(cell);
    ++cell;
  }
  q.set_rows(rows);
  return spec;
}

QueensFormulaOps Ops(int n, bool binary) {
  auto rules = QueensRulesOf(NQueens(n).queens());
  EXPECT_OK(rules);
  auto formula = BuildQueensFormula(*rules, binary, /*clues=*/true);
  EXPECT_OK(formula);
  return formula->ops;
}

uint64_t OneHotCount(const v1::PuzzleSpec& spec, CountMethod method) {
  const RulesEncoder& encoder = **BuiltinEncoders().ForSpec(spec);
  const int cells = spec.queens().rows() * spec.queens().rows();
  auto counted =
      CountRuleSolutions(encoder, spec, cells, 1 << 20, method, nullptr);
  EXPECT_OK(counted);
  EXPECT_TRUE(counted->complete);
  return counted->count;
}

uint64_t BinaryCount(const v1::PuzzleSpec& spec, CountMethod method) {
  auto counted = CountQueensBinary(spec, 1 << 20, method, nullptr);
  EXPECT_OK(counted);
  EXPECT_TRUE(counted->complete);
  EXPECT_EQ(counted->method, method);
  return counted->count;
}

TEST(QueensFormulaTest, OperationCountsFollowTheDerivedForms) {
  for (int64_t n = 4; n <= 40; ++n) {
    SCOPED_TRACE(n);
    const int64_t k = QueensCodeBits(static_cast<int>(n));
    const QueensFormulaOps bin = Ops(static_cast<int>(n), true);
    const QueensFormulaOps onh = Ops(static_cast<int>(n), false);
    EXPECT_EQ(bin.select, (k - 1) * n * n);
    EXPECT_EQ(onh.select, 0);
    EXPECT_EQ(bin.unique, n * (n - 1));
    EXPECT_EQ(onh.unique, n * (4 * n - 5));
    for (const QueensFormulaOps& ops : {bin, onh}) {
      EXPECT_EQ(ops.conflict, n * (n - 2) + 2 * (n - 2) * (n - 2));
      EXPECT_EQ(ops.row, (n - 1) * (4 * n - 2));
      EXPECT_EQ(ops.overall, n - 1);
    }
    // Totals against Table 1: the one-hot leading term is the paper's 11 N^2;
    // the binary one is a quadratic term lower, (7 + bits) N^2 against
    // (8 + bits) N^2, since a selector of bits literals takes bits - 1 ANDs.
    EXPECT_EQ(onh.total(), 11 * n * n - 20 * n + 9);
    EXPECT_EQ(bin.total(), (7 + k) * n * n - 16 * n + 9);
  }
}

TEST(QueensFormulaTest, BinaryCountsEqualOneHotCounts) {
  EXPECT_EQ(BinaryCount(NQueens(8), CountMethod::kBdd), 92u);
  EXPECT_EQ(BinaryCount(NQueens(8), CountMethod::kSat), 92u);
  EXPECT_EQ(OneHotCount(NQueens(8), CountMethod::kBdd), 92u);
  EXPECT_EQ(BinaryCount(NQueens(10), CountMethod::kBdd), 724u);
  EXPECT_EQ(OneHotCount(NQueens(10), CountMethod::kBdd), 724u);
  for (int n = 1; n <= 7; ++n) {
    SCOPED_TRACE(n);
    const uint64_t expected = OneHotCount(NQueens(n), CountMethod::kSat);
    EXPECT_EQ(BinaryCount(NQueens(n), CountMethod::kBdd), expected);
    EXPECT_EQ(BinaryCount(NQueens(n), CountMethod::kSat), expected);
  }
}

TEST(QueensFormulaTest, BinaryCountsOfLinkedInAndTorusBoards) {
  // Regions, adjacent diagonals, a given queen; a torus.
  std::vector<v1::PuzzleSpec> specs;
  for (const char* text : {"AABBB/AaBBC/DDBCC/DDECC/DEEEC",
                           "ABBBBBB/ABBBBBD/BBFBBBD/BCCCGGG/BBCCGGG/BCCCCEG/"
                           "BBBCCCC"})
    specs.push_back(LinkedIn(text));
  v1::PuzzleSpec torus = NQueens(7);
  torus.mutable_queens()->set_topology(v1::QUEENS_TOPOLOGY_TORUS);
  specs.push_back(torus);
  for (const v1::PuzzleSpec& spec : specs) {
    SCOPED_TRACE(spec.ShortDebugString());
    const uint64_t expected = OneHotCount(spec, CountMethod::kSat);
    EXPECT_GT(expected, 0u);
    EXPECT_EQ(BinaryCount(spec, CountMethod::kBdd), expected);
    EXPECT_EQ(BinaryCount(spec, CountMethod::kSat), expected);
  }
}

TEST(QueensFormulaTest, SolutionsDecodeToValidBoards) {
  const v1::PuzzleSpec spec = NQueens(6);
  std::vector<std::vector<uint8_t>> boards;
  auto solved = SolveQueensBinary(spec, 100, [&](std::vector<uint8_t> bits) {
    boards.push_back(QueensBinaryToCells(bits, 6, 6));
  });
  ASSERT_OK(solved);
  EXPECT_TRUE(solved->enumeration.complete);
  ASSERT_EQ(boards.size(), 4u);
  auto rules = QueensRulesOf(spec.queens());
  ASSERT_OK(rules);
  for (const auto& cells : boards) {
    auto bits = QueensCellsToBinary(cells, 6, 6);
    ASSERT_OK(bits);
    auto hubo = QueensBinaryHubo(*rules);
    ASSERT_OK(hubo);
    EXPECT_EQ(hubo->Energy(*bits), 0.0);
  }
}

}  // namespace
}  // namespace qs
