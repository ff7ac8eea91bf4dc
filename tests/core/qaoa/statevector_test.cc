// The simulator against the gate-by-gate reference (qaoa_reference.h): <C> at
// given angles to 1e-9 for QUBOs and Hubos of up to 12 qubits, with the X and
// the XY mixer, on one thread and on a pool; the phase polynomial equals the
// model's energies; sampling is seeded.
#include "core/qaoa/statevector.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/qaoa/phase_polynomial.h"
#include "gtest/gtest.h"
#include "tests/core/qaoa/qaoa_reference.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::BitsOf;
using ::qs::testing::ReferenceState;

// A random QUBO with real weights in [-2, 2] and an offset.
Qubo RandomQubo(int n, uint64_t seed) {
  Xoshiro256 rng(seed);
  QuboBuilder b(n);
  b.AddOffset(0.75);
  for (int i = 0; i < n; ++i) {
    b.AddLinear(i, 4 * rng.NextDouble() - 2);
    for (int j = i + 1; j < n; ++j) {
      if (rng.NextBelow(3) == 0) b.AddQuadratic(i, j, 4 * rng.NextDouble() - 2);
    }
  }
  return *std::move(b).Build();
}

// A random Hubo with terms of order one to four, integer weights.
Hubo RandomHubo(int n, uint64_t seed) {
  Xoshiro256 rng(seed);
  Hubo h;
  h.num_variables = n;
  h.offset = -1.5;
  for (int t = 0; t < 3 * n; ++t) {
    const int order = 1 + static_cast<int>(rng.NextBelow(4));
    uint64_t mask = 0;
    while (std::popcount(mask) < std::min(order, n))
      mask |= uint64_t{1} << rng.NextBelow(n);
    HuboTerm term;
    for (int v = 0; v < n; ++v)
      if (mask >> v & 1) term.variables.push_back(v);
    term.w = static_cast<double>(static_cast<int>(rng.NextBelow(9)) - 4);
    h.terms.push_back(term);
  }
  return h;
}

// <C> of the reference after the QAOA circuit with the X mixer.
double ReferenceExpectation(int n, const std::function<double(uint64_t)>& e,
                            const std::vector<double>& gammas,
                            const std::vector<double>& betas) {
  ReferenceState ref(n);
  for (int q = 0; q < n; ++q) ref.H(q);
  for (size_t k = 0; k < gammas.size(); ++k) {
    ref.Phase(gammas[k], e);
    for (int q = 0; q < n; ++q) ref.Rx(2 * betas[k], q);
  }
  return ref.Expectation(e);
}

double Simulated(const PhasePolynomial& cost, const std::vector<double>& gammas,
                 const std::vector<double>& betas, WorkerPool* pool,
                 QaoaMixerSpec mixer = {}) {
  auto sim = QaoaStatevector::Create(cost, std::move(mixer), pool);
  EXPECT_OK(sim.status());
  EXPECT_TRUE((*sim)->Run(gammas, betas, nullptr));
  return (*sim)->Expectation();
}

TEST(PhasePolynomialTest, EqualsTheModelsEnergyOnEveryState) {
  const Qubo q = RandomQubo(7, 3);
  auto cost = PhasePolynomialFromQubo(q);
  ASSERT_OK(cost.status());
  for (uint64_t z = 0; z < 128; ++z)
    EXPECT_NEAR(cost->Value(z), q.Energy(BitsOf(z, 7)), 1e-12);
  const Hubo h = RandomHubo(6, 4);
  auto hcost = PhasePolynomialFromHubo(h);
  ASSERT_OK(hcost.status());
  EXPECT_GE(hcost->max_order(), 3);
  for (uint64_t z = 0; z < 64; ++z)
    EXPECT_NEAR(hcost->Value(z), h.Energy(BitsOf(z, 6)), 1e-12);
}

TEST(PhasePolynomialTest, RefusesTooManyQubitsAndBadTerms) {
  EXPECT_THAT(PhasePolynomialFromQubo(RandomQubo(63, 1)).status(),
              ::qs::testing::StatusIs(absl::StatusCode::kResourceExhausted,
                                      ::testing::HasSubstr("62")));
  Hubo h;
  h.num_variables = 3;
  h.terms.push_back({{0, 5}, 1.0});
  EXPECT_THAT(PhasePolynomialFromHubo(h).status(),
              ::qs::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                      ::testing::HasSubstr("terms[0]")));
}

TEST(QaoaStatevectorTest, QuboExpectationMatchesTheReference) {
  WorkerPool pool(2);
  // Up to 15 qubits one block; 16 and 18 also take the tiles of the high
  // qubits (one, then three: pairs and octets of rows). Mixer angles with
  // |tan beta| below and above 1 take both forms of the rotation.
  const std::vector<double> gammas = {0.21, -0.4, 0.77};
  for (const std::vector<double>& betas :
       {std::vector<double>{0.6, 0.35, -0.12},
        std::vector<double>{1.1, -2.3, 0.9}}) {
    for (int n : {1, 2, 3, 8, 12, 15, 16, 18}) {
      const Qubo q = RandomQubo(n, 10 + n);
      auto cost = PhasePolynomialFromQubo(q);
      ASSERT_OK(cost.status());
      const double want = ReferenceExpectation(
          n, [&](uint64_t z) { return q.Energy(BitsOf(z, n)); }, gammas, betas);
      EXPECT_NEAR(Simulated(*cost, gammas, betas, nullptr), want, 1e-9)
          << n << " " << betas[0];
      EXPECT_NEAR(Simulated(*cost, gammas, betas, &pool), want, 1e-9)
          << n << " " << betas[0];
    }
  }
}

TEST(QaoaStatevectorTest, IndexedPhasesMatchTheReferenceOnManyQubits) {
  WorkerPool pool(2);
  const Hubo h = RandomHubo(16, 3);
  auto cost = PhasePolynomialFromHubo(h);
  ASSERT_OK(cost.status());
  const std::vector<double> gammas = {0.05, 0.12};
  const std::vector<double> betas = {0.4, 0.2};
  auto sim = QaoaStatevector::Create(*cost, {}, &pool);
  ASSERT_OK(sim.status());
  EXPECT_GT((*sim)->num_levels(), 0);
  ASSERT_TRUE((*sim)->Run(gammas, betas, nullptr));
  const double want = ReferenceExpectation(
      16, [&](uint64_t z) { return h.Energy(BitsOf(z, 16)); }, gammas, betas);
  EXPECT_NEAR((*sim)->Expectation(), want, 1e-9);
}

TEST(QaoaStatevectorTest, HuboExpectationMatchesTheReference) {
  for (int n : {4, 9, 12}) {
    const Hubo h = RandomHubo(n, 20 + n);
    auto cost = PhasePolynomialFromHubo(h);
    ASSERT_OK(cost.status());
    const std::vector<double> gammas = {0.3, 0.1};
    const std::vector<double> betas = {0.5, 0.25};
    const double want = ReferenceExpectation(
        n, [&](uint64_t z) { return h.Energy(BitsOf(z, n)); }, gammas, betas);
    auto sim = QaoaStatevector::Create(*cost, {}, nullptr);
    ASSERT_OK(sim.status());
    // Integer weights: the phases come from the table of distinct values.
    EXPECT_GT((*sim)->num_levels(), 0);
    ASSERT_TRUE((*sim)->Run(gammas, betas, nullptr));
    EXPECT_NEAR((*sim)->Expectation(), want, 1e-9) << n;
  }
}

TEST(QaoaStatevectorTest, XyMixerMatchesTheReferenceAndKeepsGroupsOneHot) {
  const int n = 9;
  const Qubo q = RandomQubo(n, 5);
  auto cost = PhasePolynomialFromQubo(q);
  ASSERT_OK(cost.status());
  const std::vector<std::vector<int32_t>> groups = {
      {0, 1, 2}, {3, 5}, {6, 7, 8, 4}};
  const std::vector<double> gammas = {0.4, 0.2};
  const std::vector<double> betas = {0.3, 0.7};
  // Reference: a product of W-states, then phase and ring XY per layer.
  ReferenceState ref(n);
  std::vector<testing::Complex>& amp = ref.amplitudes();
  for (uint64_t z = 0; z < amp.size(); ++z) {
    bool one_hot = true;
    for (const auto& g : groups) {
      int ones = 0;
      for (int v : g) ones += z >> v & 1;
      one_hot = one_hot && ones == 1;
    }
    amp[z] = one_hot ? 1 / std::sqrt(3.0 * 2 * 4) : 0;
  }
  auto energy = [&](uint64_t z) { return q.Energy(BitsOf(z, n)); };
  for (size_t k = 0; k < gammas.size(); ++k) {
    ref.Phase(gammas[k], energy);
    for (const auto& g : groups) {
      const size_t edges = g.size() == 2 ? 1 : g.size();
      for (size_t e = 0; e < edges; ++e)
        ref.Xy(betas[k], g[e], g[(e + 1) % g.size()]);
    }
  }
  auto sim = QaoaStatevector::Create(*cost, {groups}, nullptr);
  ASSERT_OK(sim.status());
  ASSERT_TRUE((*sim)->Run(gammas, betas, nullptr));
  EXPECT_NEAR((*sim)->Expectation(), ref.Expectation(energy), 1e-9);
  double feasible = 0;
  for (uint64_t z = 0; z < amp.size(); ++z) {
    EXPECT_NEAR(std::abs((*sim)->amplitude(z) - amp[z]), 0, 1e-9) << z;
    if (std::abs(amp[z]) > 0) feasible += std::norm((*sim)->amplitude(z));
  }
  EXPECT_NEAR(feasible, 1, 1e-9);
}

TEST(QaoaStatevectorTest, RefusesOverlappingGroups) {
  auto cost = PhasePolynomialFromQubo(RandomQubo(4, 1));
  ASSERT_OK(cost.status());
  EXPECT_THAT(
      QaoaStatevector::Create(*cost, {{{0, 1}, {1, 2}}}, nullptr).status(),
      ::qs::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                              ::testing::HasSubstr("group 1")));
}

TEST(QaoaStatevectorTest, SamplesFollowTheSeed) {
  auto cost = PhasePolynomialFromQubo(RandomQubo(10, 2));
  ASSERT_OK(cost.status());
  auto sim = QaoaStatevector::Create(*cost, {}, nullptr);
  ASSERT_OK(sim.status());
  ASSERT_TRUE(
      (*sim)->Run(std::vector<double>{0.3}, std::vector<double>{0.4}, nullptr));
  const auto a = (*sim)->Sample(500, 9);
  EXPECT_EQ((*sim)->Sample(500, 9), a);
  EXPECT_NE((*sim)->Sample(500, 10), a);
  // The empirical frequency of the likeliest state follows |psi|^2.
  uint64_t top = 0;
  for (uint64_t z = 0; z < 1024; ++z)
    if (std::norm((*sim)->amplitude(z)) > std::norm((*sim)->amplitude(top)))
      top = z;
  const auto many = (*sim)->Sample(20000, 1);
  const double freq =
      static_cast<double>(std::count(many.begin(), many.end(), top)) / 20000;
  const double p = std::norm((*sim)->amplitude(top));
  EXPECT_NEAR(freq, p, 5 * std::sqrt(p * (1 - p) / 20000));
}

TEST(QaoaStatevectorTest, LimitsFollowTheMemory) {
  EXPECT_EQ(QaoaMaxQubits(kQaoaBytesPerAmplitude << 20), 20);
  EXPECT_EQ(QaoaMaxQubits((kQaoaBytesPerAmplitude << 20) - 1), 19);
}

}  // namespace
}  // namespace qs
