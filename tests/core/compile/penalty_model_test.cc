// The constraint-to-penalty layer, checked by enumeration on small models: at
// every assignment of the caller's bits, the least energy over the slack and
// auxiliary bits is the objective where every constraint holds and more where
// one is broken, so the QUBO's minimum is the constrained optimum; completed
// assignments score their objective exactly; high-degree terms are reduced
// honestly; and the weights follow the stated rule.
#include "core/compile/penalty_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool Holds(const PenaltyInput& input, std::span<const uint8_t> x) {
  for (const PenaltyConstraint& c : input.constraints) {
    const double lhs = c.lhs.Evaluate(x);
    if (c.sense == v1::CONSTRAINT_EQUAL && std::abs(lhs - c.rhs) > 1e-9)
      return false;
    if (c.sense == v1::CONSTRAINT_LESS_EQUAL && lhs > c.rhs + 1e-9)
      return false;
    if (c.sense == v1::CONSTRAINT_GREATER_EQUAL && lhs < c.rhs - 1e-9)
      return false;
  }
  for (const PenaltyGroup& g : input.groups) {
    int set = 0;
    for (int32_t b : g.bits) set += x[b];
    if (set > 1 || (!g.at_most_one && set != 1)) return false;
  }
  for (const PenaltyTerms& t : input.penalty_terms)
    if (t.terms.Evaluate(x) > 1e-9) return false;
  return true;
}

// The least energy over the QUBO's extra bits at each assignment of the
// caller's bits (index: the assignment's bits, bit k of the index = bit k).
std::vector<double> LeastEnergies(const PenaltyQubo& qubo) {
  const int n = qubo.model.num_variables();
  const int caller = qubo.num_bits;
  std::vector<double> least(size_t{1} << caller, kInf);
  std::vector<uint8_t> x(n);
  for (uint64_t s = 0; s < (uint64_t{1} << n); ++s) {
    for (int k = 0; k < n; ++k) x[k] = (s >> k) & 1;
    const uint64_t index = s & ((uint64_t{1} << caller) - 1);
    least[index] = std::min(least[index], qubo.model.Energy(x));
  }
  return least;
}

// Checks the layer's promise on `input`: feasible assignments at their
// objective (and CompletePenaltyBits reaching it), infeasible ones above it,
// and the minimum at the constrained optimum.
void ExpectExact(const PenaltyInput& input, const PenaltyOptions& options) {
  const absl::StatusOr<PenaltyQubo> compiled = CompilePenalties(input, options);
  ASSERT_OK(compiled.status());
  const PenaltyQubo& qubo = *compiled;
  ASSERT_LE(qubo.model.num_variables(), 22);
  const std::vector<double> least = LeastEnergies(qubo);
  double optimum = kInf, minimum = kInf;
  std::vector<uint8_t> x(input.num_bits);
  for (uint64_t s = 0; s < least.size(); ++s) {
    for (int k = 0; k < input.num_bits; ++k) x[k] = (s >> k) & 1;
    const double objective = input.objective.Evaluate(x);
    minimum = std::min(minimum, least[s]);
    if (Holds(input, x)) {
      EXPECT_NEAR(least[s], objective, 1e-9) << "feasible assignment " << s;
      const std::vector<uint8_t> full = CompletePenaltyBits(qubo, x);
      EXPECT_NEAR(qubo.model.Energy(full), objective, 1e-9)
          << "completed assignment " << s;
      optimum = std::min(optimum, objective);
    } else {
      EXPECT_GT(least[s], objective + 1e-9) << "infeasible assignment " << s;
    }
  }
  EXPECT_NEAR(minimum, optimum, 1e-9);
}

BinaryPolynomial Linear(std::vector<std::pair<int32_t, double>> terms,
                        double constant = 0) {
  BinaryPolynomial p;
  p.AddConstant(constant);
  for (const auto& [v, c] : terms) p.AddLinear(v, c);
  return p;
}

TEST(PenaltyModelTest, KnapsackWithSlackIsExact) {
  PenaltyInput input;
  input.num_bits = 5;
  input.objective = Linear({{0, -5}, {1, -4}, {2, -3}, {3, -7}, {4, -1}});
  input.objective.AddPair(0, 3, 2);
  input.constraints.push_back({"weight",
                               Linear({{0, 4}, {1, 3}, {2, 2}, {3, 5}, {4, 1}}),
                               v1::CONSTRAINT_LESS_EQUAL, 8, std::nullopt});
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, EqualitiesGreaterEqualAndGroupsAreExact) {
  PenaltyInput input;
  input.num_bits = 7;
  input.objective =
      Linear({{0, 3}, {1, -2}, {2, 1}, {3, -1}, {5, 2}, {6, -3}}, 4);
  input.objective.AddPair(1, 2, -2);
  input.objective.AddPair(4, 6, 3);
  input.constraints.push_back({"sum", Linear({{0, 1}, {1, 2}, {2, -1}}),
                               v1::CONSTRAINT_EQUAL, 1, std::nullopt});
  input.constraints.push_back({"cover", Linear({{3, 2}, {4, 3}, {5, 1}}),
                               v1::CONSTRAINT_GREATER_EQUAL, 3, std::nullopt});
  input.groups.push_back({"pick", {4, 5, 6}, false, std::nullopt});
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, AtMostOneAndNonnegativeTermsAreExact) {
  PenaltyInput input;
  input.num_bits = 6;
  input.objective =
      Linear({{0, -2}, {1, -2}, {2, -3}, {3, -1}, {4, -1}, {5, -2}});
  // x0 + x1 + x2 <= 1 (unit terms), x3 x4 + x4 x5 <= 0 (conflicts), an
  // at-most-one group.
  input.constraints.push_back({"one", Linear({{0, 1}, {1, 1}, {2, 1}}),
                               v1::CONSTRAINT_LESS_EQUAL, 1, std::nullopt});
  BinaryPolynomial conflicts;
  conflicts.AddPair(3, 4, 1);
  conflicts.AddPair(4, 5, 2);
  input.constraints.push_back(
      {"conflicts", conflicts, v1::CONSTRAINT_LESS_EQUAL, 0, std::nullopt});
  input.groups.push_back({"amo", {0, 5}, true, std::nullopt});
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, ClausesAndGreaterEqualGroupsNeedNoSlack) {
  PenaltyInput input;
  input.num_bits = 6;
  input.objective = Linear({{0, 2}, {1, -3}, {2, 1}, {3, -2}, {4, -2}, {5, 1}});
  // As OPB writes them: x0 - x1 + x2 >= 0 (x0 or not x1 or x2), -x3 - x4 >=
  // -1 (at most one), x5 - x0 >= 0 (x0 implies x5).
  input.constraints.push_back({"clause", Linear({{0, 1}, {1, -1}, {2, 1}}),
                               v1::CONSTRAINT_GREATER_EQUAL, 0, std::nullopt});
  input.constraints.push_back({"amo", Linear({{3, -1}, {4, -1}}),
                               v1::CONSTRAINT_GREATER_EQUAL, -1, std::nullopt});
  input.constraints.push_back({"implies", Linear({{5, 1}, {0, -1}}),
                               v1::CONSTRAINT_GREATER_EQUAL, 0, std::nullopt});
  const absl::StatusOr<PenaltyQubo> compiled = CompilePenalties(input, {});
  ASSERT_OK(compiled.status());
  EXPECT_EQ(compiled->slack_bits, 0);
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, QuadraticConstraintsAreExact) {
  PenaltyInput input;
  input.num_bits = 5;
  input.objective = Linear({{0, -1}, {1, -2}, {2, -1}, {3, -3}, {4, 1}});
  BinaryPolynomial lhs = Linear({{0, 2}, {4, -1}});
  lhs.AddPair(1, 2, 3);
  lhs.AddPair(2, 3, 2);
  input.constraints.push_back(
      {"quadratic", lhs, v1::CONSTRAINT_LESS_EQUAL, 3, std::nullopt});
  BinaryPolynomial eq;
  eq.AddPair(0, 3, 1);
  eq.AddLinear(1, 1);
  input.constraints.push_back(
      {"product", eq, v1::CONSTRAINT_EQUAL, 1, std::nullopt});
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, HigherDegreeObjectiveIsReducedHonestly) {
  PenaltyInput input;
  input.num_bits = 5;
  const int32_t cubic[] = {0, 1, 2};
  const int32_t quartic[] = {1, 2, 3, 4};
  input.objective = Linear({{0, 1}, {3, -1}});
  input.objective.AddTerm(cubic, -4);
  input.objective.AddTerm(quartic, 3);
  const absl::StatusOr<PenaltyQubo> compiled =
      CompilePenalties(input, PenaltyOptions());
  ASSERT_OK(compiled.status());
  const PenaltyQubo& qubo = *compiled;
  EXPECT_GT(qubo.auxiliary_bits, 0);
  // No constraints: every assignment is feasible and scores its objective.
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, DecimalCoefficientsAreScaledToIntegerSlack) {
  PenaltyInput input;
  input.num_bits = 4;
  input.objective = Linear({{0, -1.5}, {1, -2.25}, {2, -0.5}, {3, -1}});
  input.constraints.push_back({"budget",
                               Linear({{0, 0.5}, {1, 1.2}, {2, 0.3}, {3, 0.7}}),
                               v1::CONSTRAINT_LESS_EQUAL, 1.5, std::nullopt});
  ExpectExact(input, {});
}

TEST(PenaltyModelTest, UnbalancedPenaltyHasNoSlackAndCostsNothingAtTheBound) {
  PenaltyInput input;
  input.num_bits = 3;
  input.objective = Linear({{0, -1}, {1, -1}, {2, -1}});
  input.constraints.push_back({"cap", Linear({{0, 1}, {1, 1}, {2, 2}}),
                               v1::CONSTRAINT_LESS_EQUAL, 2, std::nullopt});
  PenaltyOptions options;
  options.inequality = v1::INEQUALITY_UNBALANCED;
  const absl::StatusOr<PenaltyQubo> compiled = CompilePenalties(input, options);
  ASSERT_OK(compiled.status());
  const PenaltyQubo& qubo = *compiled;
  EXPECT_EQ(qubo.slack_bits, 0);
  EXPECT_EQ(qubo.model.num_variables(), 3);
  // h = 2 - L: zero penalty at h = 0 and h = 1, more the further it is missed.
  const std::vector<uint8_t> tight = {1, 1, 0}, loose = {1, 0, 0},
                             over = {1, 1, 1};
  EXPECT_NEAR(qubo.model.Energy(tight), -2, 1e-9);
  EXPECT_NEAR(qubo.model.Energy(loose), -1, 1e-9);
  EXPECT_GT(qubo.model.Energy(over), qubo.model.Energy(tight) + 1);
}

TEST(PenaltyModelTest, WeightsFollowTheRuleAndGivenOnesOverride) {
  PenaltyInput input;
  input.num_bits = 4;
  // The largest move: bit 1 changes the objective by |2| + |3| = 5; inside
  // the group {2, 3} a neighbour counts with its largest coupling only.
  input.objective = Linear({{0, 1}, {1, 2}});
  input.objective.AddPair(1, 2, 3);
  input.objective.AddPair(1, 3, -1);
  input.groups.push_back({"g", {2, 3}, false, std::nullopt});
  input.constraints.push_back(
      {"given", Linear({{0, 1}, {1, 1}}), v1::CONSTRAINT_EQUAL, 1, 7.5});
  const absl::StatusOr<PenaltyQubo> compiled =
      CompilePenalties(input, PenaltyOptions());
  ASSERT_OK(compiled.status());
  const PenaltyQubo& qubo = *compiled;
  ASSERT_EQ(qubo.penalties.size(), 2u);
  EXPECT_EQ(qubo.penalties[0].constraint(), "given");
  EXPECT_EQ(qubo.penalties[0].weight(), 7.5);
  EXPECT_EQ(qubo.penalties[0].rule(), "given");
  EXPECT_EQ(qubo.penalties[1].constraint(), "g");
  EXPECT_EQ(qubo.penalties[1].weight(), 6);  // 5, plus one integer unit
  EXPECT_EQ(qubo.penalties[1].rule(), "bound");
  // x0 + x1 == 1 is an exactly-one group too.
  ASSERT_EQ(qubo.one_hot_groups.size(), 2u);
  EXPECT_EQ(qubo.one_hot_groups[0], (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(qubo.one_hot_groups[1], (std::vector<int32_t>{2, 3}));
}

TEST(PenaltyModelTest, RedundantConstraintsAddNothing) {
  PenaltyInput input;
  input.num_bits = 3;
  input.objective = Linear({{0, 1}});
  input.constraints.push_back({"loose", Linear({{0, 1}, {1, 1}, {2, 1}}),
                               v1::CONSTRAINT_LESS_EQUAL, 3, std::nullopt});
  const absl::StatusOr<PenaltyQubo> compiled =
      CompilePenalties(input, PenaltyOptions());
  ASSERT_OK(compiled.status());
  const PenaltyQubo& qubo = *compiled;
  EXPECT_EQ(qubo.redundant, 1);
  EXPECT_EQ(qubo.model.num_couplers(), 0);
}

TEST(PenaltyModelTest, RefusesBadInput) {
  PenaltyInput input;
  input.num_bits = 2;
  input.constraints.push_back(
      {"far", Linear({{0, 1}, {5, 1}}), v1::CONSTRAINT_EQUAL, 1, std::nullopt});
  EXPECT_THAT(CompilePenalties(input, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("constraint far: bit 5")));
  input.constraints[0] = {"negative", Linear({{0, 1}, {1, 1}}),
                          v1::CONSTRAINT_EQUAL, 1, -2.0};
  EXPECT_THAT(CompilePenalties(input, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("penalty -2")));
  input.constraints[0].penalty.reset();
  input.constraints[0].sense = v1::CONSTRAINT_SENSE_UNSPECIFIED;
  EXPECT_THAT(CompilePenalties(input, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("no sense")));
}

}  // namespace
}  // namespace qs
