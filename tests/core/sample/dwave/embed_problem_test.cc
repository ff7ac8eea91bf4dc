// Chain strength, bias spreading and unembedding (docs/dwave-protocol.md
// §3.6): the docstring value of uniform torque compensation, physical energies
// of intact chains equal the logical Ising energies, broken chains cost chain
// strength, and majority vote with its tie rule and the chain-break count.
#include "core/sample/dwave/embed_problem.h"

#include <cmath>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::dwave {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Qubo CliqueQubo(int n, double w) {
  QuboBuilder b(n);
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) b.AddQuadratic(i, j, w);
  }
  return *std::move(b).Build();
}

TEST(ChainStrengthTest, UniformTorqueCompensationMatchesTheDocstringExample) {
  // K5 with all Q = 1: J = 0.25, average degree 4, prefactor 3 -> 1.5.
  EXPECT_DOUBLE_EQ(UniformTorqueCompensation(ToIsing(CliqueQubo(5, 1.0)), 3.0),
                   1.5);
  EXPECT_DOUBLE_EQ(
      UniformTorqueCompensation(ToIsing(CliqueQubo(5, 1.0)), 1.414),
      0.5 * 1.414);
  QuboBuilder lonely(3);
  lonely.AddLinear(0, 1);
  EXPECT_EQ(
      UniformTorqueCompensation(ToIsing(*std::move(lonely).Build()), 1.414),
      1.0);
}

double PhysicalEnergy(const EmbeddedProblem& p,
                      const std::map<int, int>& spins) {
  double e = p.offset;
  for (const auto& [q, h] : p.ising.linear) e += h * spins.at(q);
  for (const auto& [edge, j] : p.ising.quadratic)
    e += j * spins.at(edge.first) * spins.at(edge.second);
  return e;
}

TEST(EmbedIsingTest,
     IntactChainsKeepTheLogicalEnergyAndBrokenOnesCostChainStrength) {
  // A triangle QUBO with linear terms, on a 6-cycle target with chains of two
  // qubits each.
  QuboBuilder b(3);
  b.AddLinear(0, -1);
  b.AddLinear(1, 0.5);
  b.AddQuadratic(0, 1, 2);
  b.AddQuadratic(1, 2, -1.5);
  b.AddQuadratic(0, 2, 0.75);
  b.AddOffset(3);
  const Qubo model = *std::move(b).Build();
  auto target = HardwareGraph::Create(
      {0, 1, 2, 3, 4, 5},
      {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}});
  ASSERT_OK(target);
  const Embedding embedding{{{0, 1}, {2, 3}, {4, 5}}};
  ASSERT_OK(ValidateEmbedding(ProblemGraphOf(model), *target, embedding));
  const IsingModel ising = ToIsing(model);
  auto physical = EmbedIsing(ising, embedding, *target, 2.0);
  ASSERT_OK(physical);
  EXPECT_EQ(physical->chain_couplers, 3);
  // Logical edge (0,1) has two couplers between chains {0,1} and {2,3}: [1,2]
  // and [0,3]; J splits in half.
  const double j01 = ising.couplings[0].w;
  for (const auto& [edge, j] : physical->ising.quadratic) {
    if (edge == std::pair<int, int>(1, 2) ||
        edge == std::pair<int, int>(0, 3)) {
      EXPECT_DOUBLE_EQ(j, j01 / 2);
    }
    if (edge == std::pair<int, int>(0, 1)) {
      EXPECT_DOUBLE_EQ(j, -2.0);
    }
  }
  for (int x = 0; x < 8; ++x) {
    const std::vector<uint8_t> bits = {static_cast<uint8_t>(x & 1),
                                       static_cast<uint8_t>((x >> 1) & 1),
                                       static_cast<uint8_t>((x >> 2) & 1)};
    std::map<int, int> spins;
    for (int v = 0; v < 3; ++v) {
      for (int q : embedding.chains[v]) spins[q] = bits[v] ? 1 : -1;
    }
    EXPECT_NEAR(PhysicalEnergy(*physical, spins), model.Energy(bits), 1e-12);
    // Breaking chain 2 (qubits 4, 5) costs 2 * chain strength minus what the
    // split biases give back.
    spins[5] = -spins[5];
    EXPECT_GT(
        PhysicalEnergy(*physical, spins),
        model.Energy(bits) + 2 * 2.0 - 2 * (std::abs(ising.h[2]) / 2 + 1.0));
  }
}

TEST(EmbedIsingTest, RejectsEdgesWithoutCoupler) {
  const Qubo model = CliqueQubo(2, 1.0);
  auto target = HardwareGraph::Create({0, 1, 2}, {{0, 1}});
  ASSERT_OK(target);
  EXPECT_THAT(
      EmbedIsing(ToIsing(model), {{{0}, {2}}}, *target, 1.0),
      StatusIs(
          absl::StatusCode::kInvalidArgument,
          HasSubstr("no coupler between the chains of variables 0 and 1")));
}

TEST(ChainReaderTest, MajorityVoteWithTiesToOneAndBrokenChainCount) {
  const Embedding embedding{{{10, 11, 12}, {20, 21}, {30}}};
  auto reader = ChainReader::Create(embedding, {30, 21, 20, 12, 11, 10});
  ASSERT_OK(reader);
  int broken = -1;
  // positions: 30 21 20 12 11 10
  EXPECT_THAT(reader->Read(std::vector<int8_t>{-1, 1, 1, 1, -1, 1}, &broken),
              ElementsAre(1, 1, 0));
  EXPECT_EQ(broken, 1);
  EXPECT_THAT(reader->Read(std::vector<int8_t>{1, -1, 1, -1, -1, 1}, &broken),
              ElementsAre(0, 1, 1));  // tie -> 1
  EXPECT_EQ(broken, 2);
  EXPECT_THAT(reader->Read(std::vector<int8_t>{1, -1, -1, -1, -1, -1}, &broken),
              ElementsAre(0, 0, 1));
  EXPECT_EQ(broken, 0);
  EXPECT_THAT(
      ChainReader::Create(embedding, {30, 21, 20}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("qubit 10")));
}

}  // namespace
}  // namespace qs::dwave
