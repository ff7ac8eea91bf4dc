// The encodings of core/exact/cnf.h ([Bryant 2019]'s chains):
// for every small size and bound, the CNF with its auxiliary variables admits
// exactly the assignments of the primary variables that keep the constraint
// (checked with CaDiCaL under assumptions, and counted with the BDD builder
// for the same constraints), the clause counts of the ladder, and unit
// propagation deciding what each constraint alone implies.
#include "core/exact/cnf.h"

#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "core/exact/bdd_counter.h"
#include "core/exact/sat_solver.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

std::vector<int> Literals(int k) {
  std::vector<int> lits(k);
  std::iota(lits.begin(), lits.end(), 1);
  return lits;
}

// For every assignment of k primary variables: whether the CNF allows it.
std::vector<bool> Allowed(const Cnf& cnf, int k) {
  SatSolver solver(cnf);
  std::vector<bool> allowed;
  for (uint32_t mask = 0; mask < (1u << k); ++mask) {
    std::vector<int> assumptions;
    for (int v = 0; v < k; ++v)
      assumptions.push_back((mask >> v) & 1 ? v + 1 : -(v + 1));
    allowed.push_back(solver.Solve(assumptions) == SatResult::kSatisfiable);
  }
  return allowed;
}

void ExpectMatches(const Cnf& cnf, int k,
                   const std::function<bool(int ones, uint32_t mask)>& rule,
                   const std::string& what) {
  const std::vector<bool> allowed = Allowed(cnf, k);
  for (uint32_t mask = 0; mask < (1u << k); ++mask) {
    EXPECT_EQ(allowed[mask], rule(__builtin_popcount(mask), mask))
        << what << " mask " << mask;
  }
}

TEST(CnfTest, AtMostOneAndExactlyOneAdmitExactlyTheirAssignments) {
  for (int k = 1; k <= 9; ++k) {
    CnfBuilder amo(k);
    amo.AddAtMostOne(Literals(k));
    ExpectMatches(
        amo.cnf(), k, [](int ones, uint32_t) { return ones <= 1; },
        "AMO k=" + std::to_string(k));
    CnfBuilder eo(k);
    eo.AddExactlyOne(Literals(k));
    ExpectMatches(
        eo.cnf(), k, [](int ones, uint32_t) { return ones == 1; },
        "EO k=" + std::to_string(k));
  }
}

TEST(CnfTest, LadderHasLinearSize) {
  // k - 1 auxiliaries and 3k - 4 clauses past the pairwise sizes ([Bryant
  // 2019]: Theta(1) operations per square).
  for (int k = 5; k <= 40; ++k) {
    CnfBuilder amo(k);
    amo.AddAtMostOne(Literals(k));
    const EncodingStats stats = amo.cnf().Stats();
    EXPECT_EQ(stats.auxiliary_variables, k - 1);
    EXPECT_EQ(stats.clauses, 3 * k - 4);
  }
  CnfBuilder pairwise(4);
  pairwise.AddAtMostOne(Literals(4));
  EXPECT_EQ(pairwise.cnf().Stats().clauses, 6);
  EXPECT_EQ(pairwise.cnf().Stats().auxiliary_variables, 0);
}

TEST(CnfTest, CardinalityAdmitsExactlyItsAssignments) {
  for (int k = 1; k <= 8; ++k) {
    for (int min = 0; min <= k + 1; ++min) {
      for (int max = min; max <= k + 1; ++max) {
        CnfBuilder cnf(k);
        cnf.AddCardinality(Literals(k), min, max);
        ExpectMatches(
            cnf.cnf(), k,
            [&](int ones, uint32_t) { return ones >= min && ones <= max; },
            "k=" + std::to_string(k) + " [" + std::to_string(min) + "," +
                std::to_string(max) + "]");
      }
    }
  }
}

TEST(CnfTest, CardinalityOverNegatedLiterals) {
  // At least 2 of (not x1, x2, not x3, x4).
  CnfBuilder cnf(4);
  cnf.AddCardinality(std::vector<int>{-1, 2, -3, 4}, 2, 3);
  ExpectMatches(
      cnf.cnf(), 4,
      [](int, uint32_t mask) {
        const int held =
            !(mask & 1) + !!(mask & 2) + !(mask & 4) + !!(mask & 8);
        return held >= 2 && held <= 3;
      },
      "negated");
}

TEST(CnfTest, DifferentAdmitsExactlyDistinctWords) {
  CnfBuilder cnf(6);
  cnf.AddDifferent(std::vector<int>{1, 2, 3}, std::vector<int>{4, 5, 6});
  ExpectMatches(
      cnf.cnf(), 6,
      [](int, uint32_t mask) { return (mask & 7) != (mask >> 3); },
      "different");
}

TEST(CnfTest, BddCountsTheSameConstraints) {
  // Overlapping counts, a ladder, a clause and two words that differ.
  auto emit = [](ConstraintSink& sink) {
    sink.AddCardinality(std::vector<int>{1, 2, 3, 4, 5, 6}, 3, 3);
    sink.AddExactlyOne(std::vector<int>{1, 3, 5, 7});
    sink.AddAtMostOne(std::vector<int>{2, 4, 8});
    sink.AddDifferent(std::vector<int>{1, 2}, std::vector<int>{7, 8});
    sink.AddClause({-1, 8});
  };
  CnfBuilder cnf(8);
  emit(cnf);
  const std::vector<bool> allowed = Allowed(cnf.cnf(), 8);
  const int64_t expected = std::count(allowed.begin(), allowed.end(), true);
  BddBuilder bdd(8);
  emit(bdd);
  auto counted = bdd.Count();
  ASSERT_OK(counted);
  EXPECT_EQ(counted->count, static_cast<double>(expected));
  EXPECT_GT(expected, 0);
}

TEST(CnfTest, PropagationDecidesWhatEachConstraintImplies) {
  CnfBuilder cnf(6);
  cnf.AddExactlyOne(std::vector<int>{1, 2, 3});
  cnf.AddCardinality(std::vector<int>{4, 5, 6, 1}, 2, 2);
  // x2 true: x1, x3 false by the ladder.
  std::vector<int8_t> values = Propagate(cnf.cnf(), std::vector<int>{2});
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(values[0], 0);
  EXPECT_EQ(values[2], 0);
  EXPECT_EQ(values[3], -1);
  // x1, x2 false: x3 true (the clause). With x1 false, two of x4..x6 hold;
  // x4 and x5 true force x6 false through the counter.
  values = Propagate(cnf.cnf(), std::vector<int>{-1, -2, 4, 5});
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(values[2], 1);
  EXPECT_EQ(values[5], 0);
  // x4, x5 false with x1 false leave one of two: x6 must hold but cannot
  // reach two, a conflict.
  EXPECT_TRUE(Propagate(cnf.cnf(), std::vector<int>{-1, -4, -5}).empty());
}

}  // namespace
}  // namespace qs
