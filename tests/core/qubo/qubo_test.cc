// Tests of the QUBO model: builder merging and checks, energies, statistics,
// and the exact QUBO <-> Ising round trip.
#include "core/qubo/qubo.h"

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "core/qubo/qubo_proto.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

Qubo RandomQubo(int n, double density, std::mt19937_64& rng,
                bool integer_weights) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::uniform_int_distribution<int> small(-4, 4);
  auto weight = [&] { return integer_weights ? small(rng) : uniform(rng); };
  QuboBuilder builder(n);
  builder.AddOffset(weight());
  for (int i = 0; i < n; ++i) builder.AddLinear(i, weight());
  std::bernoulli_distribution keep(density);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (keep(rng)) builder.AddQuadratic(i, j, weight());
    }
  }
  auto qubo = std::move(builder).Build();
  EXPECT_TRUE(qubo.ok());
  return *std::move(qubo);
}

std::vector<uint8_t> Bits(uint64_t mask, int n) {
  std::vector<uint8_t> x(n);
  for (int i = 0; i < n; ++i) x[i] = (mask >> i) & 1;
  return x;
}

TEST(QuboTest, BuilderSumsDuplicatesAndFoldsDiagonal) {
  QuboBuilder builder(3);
  builder.AddQuadratic(0, 1, 2);
  builder.AddQuadratic(1, 0, 3);   // same pair, other order
  builder.AddQuadratic(2, 2, -1);  // x^2 = x
  builder.AddLinear(2, 0.5);
  builder.AddQuadratic(1, 2, 4);
  builder.AddQuadratic(1, 2, -4);  // cancels: dropped
  builder.AddOffset(7);
  auto qubo = std::move(builder).Build();
  ASSERT_OK(qubo);
  EXPECT_EQ(qubo->num_couplers(), 1);
  EXPECT_EQ(qubo->linear(2), -0.5);
  ASSERT_EQ(qubo->neighbors(0).size(), 1u);
  EXPECT_EQ(qubo->neighbors(0)[0].j, 1);
  EXPECT_EQ(qubo->neighbors(0)[0].w, 5);
  EXPECT_EQ(qubo->Energy(Bits(0b011, 3)), 7 + 5);
  EXPECT_EQ(qubo->Energy(Bits(0b111, 3)), 7 + 5 - 0.5);
  const QuboStats stats = qubo->Stats();
  EXPECT_EQ(stats.num_variables, 3);
  EXPECT_EQ(stats.num_couplers, 1);
  EXPECT_EQ(stats.num_linear_terms, 1);
  EXPECT_DOUBLE_EQ(stats.density, 1.0 / 3);
}

TEST(QuboTest, BuilderSortsAndMergesTermsGivenInAnyOrder) {
  constexpr int kN = 40;
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> index(0, kN - 1);
  std::uniform_int_distribution<int> weight(-3, 3);
  std::map<std::pair<int, int>, double> expected;
  QuboBuilder builder(kN);
  for (int k = 0; k < 3000; ++k) {
    const int i = index(rng), j = index(rng);
    const double w = weight(rng);
    builder.AddQuadratic(i, j, w);
    if (i != j) expected[{std::min(i, j), std::max(i, j)}] += w;
  }
  auto qubo = std::move(builder).Build();
  ASSERT_OK(qubo);
  int64_t couplers = 0;
  for (const auto& [pair, w] : expected) couplers += w != 0;
  EXPECT_EQ(qubo->num_couplers(), couplers);
  for (int i = 0; i < kN; ++i) {
    int previous = -1;
    for (const Neighbor& neighbor : qubo->neighbors(i)) {
      EXPECT_GT(neighbor.j, previous) << "row " << i << " not sorted";
      previous = neighbor.j;
      const auto it =
          expected.find({std::min(i, neighbor.j), std::max(i, neighbor.j)});
      ASSERT_NE(it, expected.end());
      EXPECT_EQ(neighbor.w, it->second);
    }
  }
}

TEST(QuboTest, BuilderRejectsBadTerms) {
  QuboBuilder out_of_range(2);
  out_of_range.AddQuadratic(0, 2, 1);
  EXPECT_THAT(
      std::move(out_of_range).Build(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("(0, 2)")));
  QuboBuilder not_finite(2);
  not_finite.AddLinear(1, std::nan(""));
  EXPECT_THAT(
      std::move(not_finite).Build(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finite")));
}

TEST(QuboTest, FlipDeltaMatchesEnergyDifference) {
  std::mt19937_64 rng(1);
  const Qubo qubo = RandomQubo(12, 0.5, rng, false);
  for (uint64_t mask = 0; mask < 64; ++mask) {
    std::vector<uint8_t> x = Bits(mask * 37, 12);
    for (int i = 0; i < 12; ++i) {
      std::vector<uint8_t> y = x;
      y[i] ^= 1;
      EXPECT_NEAR(qubo.FlipDelta(x, i), qubo.Energy(y) - qubo.Energy(x), 1e-12);
    }
  }
}

TEST(QuboTest, IsingRoundTripKeepsEveryEnergy) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    const bool integer = trial % 2 == 0;
    const Qubo qubo = RandomQubo(10, 0.4, rng, integer);
    const IsingModel ising = ToIsing(qubo);
    auto back = FromIsing(ising);
    ASSERT_OK(back);
    for (uint64_t mask = 0; mask < 1024; ++mask) {
      const std::vector<uint8_t> x = Bits(mask, 10);
      std::vector<int8_t> s(10);
      for (int i = 0; i < 10; ++i) s[i] = x[i] ? 1 : -1;
      if (integer) {
        // Dyadic coefficients: the conversions are exact.
        EXPECT_EQ(ising.Energy(s), qubo.Energy(x));
        EXPECT_EQ(back->Energy(x), qubo.Energy(x));
      } else {
        EXPECT_NEAR(ising.Energy(s), qubo.Energy(x), 1e-12);
        EXPECT_NEAR(back->Energy(x), qubo.Energy(x), 1e-12);
      }
    }
  }
}

TEST(QuboProtoTest, RoundTripAndSpinInput) {
  std::mt19937_64 rng(3);
  const Qubo qubo = RandomQubo(8, 0.5, rng, true);
  v1::QuboModel model = QuboToProto(qubo);
  auto back = QuboFromProto(model);
  ASSERT_OK(back);
  for (uint64_t mask = 0; mask < 256; ++mask)
    EXPECT_EQ(back->Energy(Bits(mask, 8)), qubo.Energy(Bits(mask, 8)));

  v1::QuboModel spin;  // E = 1 + s0 - 2 s0 s1
  spin.set_vartype(v1::SPIN);
  spin.set_num_variables(2);
  spin.set_offset(1);
  spin.add_i(0), spin.add_j(0), spin.add_w(1);
  spin.add_i(1), spin.add_j(0), spin.add_w(-2);
  auto from_spin = QuboFromProto(spin);
  ASSERT_OK(from_spin);
  EXPECT_EQ(from_spin->Energy(Bits(0b00, 2)), 1 - 1 - 2);
  EXPECT_EQ(from_spin->Energy(Bits(0b01, 2)), 1 + 1 + 2);
  EXPECT_EQ(from_spin->Energy(Bits(0b11, 2)), 1 + 1 - 2);
}

TEST(QuboProtoTest, ErrorsNameTheField) {
  v1::QuboModel model;
  model.set_num_variables(3);
  model.add_i(0), model.add_j(5), model.add_w(1);
  EXPECT_THAT(QuboFromProto(model, "puzzle.qubo"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("puzzle.qubo.j[0]")));
  model.add_i(1);
  EXPECT_THAT(QuboFromProto(model), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("same length")));
  v1::QuboModel labels;
  labels.set_num_variables(2);
  labels.add_labels("a");
  EXPECT_THAT(
      QuboFromProto(labels),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("labels")));
}

}  // namespace
}  // namespace qs
