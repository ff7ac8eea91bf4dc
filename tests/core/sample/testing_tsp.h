// A random TSP as a QUBO with its exactly-one groups, the way the model kind
// writes one, reads that start inside its groups, its optimum by enumeration
// and a sampler's run on it: the test model of the moves that keep the groups
// (core/sample/pt/group_moves.h and the samplers that run them).
#ifndef QS_TESTS_CORE_SAMPLE_TESTING_TSP_H_
#define QS_TESTS_CORE_SAMPLE_TESTING_TSP_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/base/rng.h"
#include "core/qubo/qubo.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/group_structure.h"
#include "core/sample/pt/group_moves.h"
#include "core/sample/sampler.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sampler.h"
#include "tests/core/sample/testing_sink.h"

namespace qs::testing {

inline constexpr double kTspPenalty = 60;

// A TSP of n cities as a QUBO the way the model kind writes one: x(c, t) =
// variable c * n + t, one-hot rows and columns at penalty kTspPenalty, random
// integer distances 1..20 between consecutive positions, plus `free` extra
// variables with random couplings to the rest.
struct Tsp {
  Qubo model;
  std::vector<std::vector<int32_t>> groups;
};

inline Tsp MakeTsp(int n, int free, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> distance(1, 20);
  const int vars = n * n + free;
  QuboBuilder builder(vars);
  Tsp tsp;
  auto one_hot = [&](const std::vector<int32_t>& group) {
    builder.AddOffset(kTspPenalty);
    for (size_t a = 0; a < group.size(); ++a) {
      builder.AddLinear(group[a], -kTspPenalty);
      for (size_t b = a + 1; b < group.size(); ++b)
        builder.AddQuadratic(group[a], group[b], 2 * kTspPenalty);
    }
    tsp.groups.push_back(group);
  };
  for (int c = 0; c < n; ++c) {
    std::vector<int32_t> row;
    for (int t = 0; t < n; ++t) row.push_back(c * n + t);
    one_hot(row);
  }
  for (int t = 0; t < n; ++t) {
    std::vector<int32_t> col;
    for (int c = 0; c < n; ++c) col.push_back(c * n + t);
    one_hot(col);
  }
  for (int c = 0; c < n; ++c) {
    for (int d = c + 1; d < n; ++d) {
      const int w = distance(gen);
      for (int t = 0; t < n; ++t) {
        builder.AddQuadratic(c * n + t, d * n + (t + 1) % n, w);
        builder.AddQuadratic(d * n + t, c * n + (t + 1) % n, w);
      }
    }
  }
  std::uniform_int_distribution<int> weight(-3, 3);
  for (int f = n * n; f < vars; ++f) {
    builder.AddLinear(f, weight(gen));
    builder.AddQuadratic(f, static_cast<int>(gen() % (n * n)), weight(gen));
  }
  tsp.model = *std::move(builder).Build();
  return tsp;
}

// `count` kernel reads starting inside `structure` (GroupRespectingState),
// read r from stream DeriveSeed(seed, r).
inline std::vector<KernelRead> ReadsInGroups(const GroupStructure& structure,
                                             int vars, int count,
                                             uint64_t seed) {
  std::vector<KernelRead> reads(count);
  for (int r = 0; r < count; ++r) {
    Xoshiro256 rng(DeriveSeed(seed, r));
    GroupRespectingState(structure, vars, rng, reads[r].state);
    reads[r].rng_seed = rng.Next();
  }
  return reads;
}

// The optimum of an n-city Tsp without free variables, by scoring every
// permutation.
inline double OptimumByEnumeration(const Tsp& tsp, int n) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  std::vector<uint8_t> state(tsp.model.num_variables());
  do {
    std::fill(state.begin(), state.end(), 0);
    for (int t = 0; t < n; ++t) state[order[t] * n + t] = 1;
    best = std::min(best, tsp.model.Energy(state));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

// 16 reads of 1000 sweeps, seed 5, the Tsp's groups and the request `wire`
// (may be null).
inline SampleParams TspParams(const Tsp& tsp, const v1::SolveParams* wire) {
  SampleParams params;
  params.num_reads = 16;
  params.num_sweeps = 1000;
  params.seed = 5;
  params.one_hot_groups = &tsp.groups;
  params.wire = wire;
  return params;
}

struct TspRun {
  std::vector<Sample> samples;  // by read
  std::string moves;            // what the summary's BackendInfo.moves says
};

// make(pool)->Sample of the Tsp on a pool of two threads.
inline TspRun SampleTsp(SamplerFactory make, const Tsp& tsp,
                        const SampleParams& params) {
  CollectingSink sink;
  const absl::StatusOr<SampleStats> stats =
      SampleOnPool(make, tsp.model, params, sink);
  EXPECT_TRUE(stats.ok()) << stats.status();
  if (!stats.ok()) return {};
  return {sink.SortedByRead(), stats->info.moves()};
}

// Checks that every sample keeps the Tsp's groups and is scored exactly;
// returns the lowest energy.
inline double BestKeepingTheGroups(const Tsp& tsp, const TspRun& run) {
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  double best = std::numeric_limits<double>::infinity();
  for (const Sample& s : run.samples) {
    EXPECT_TRUE(KeepsGroups(structure, s.bits)) << "read " << s.read_index;
    EXPECT_DOUBLE_EQ(s.energy, tsp.model.Energy(s.bits));
    best = std::min(best, s.energy);
  }
  return best;
}

inline void ExpectSameSamples(const TspRun& a, const TspRun& b) {
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (size_t r = 0; r < a.samples.size(); ++r)
    EXPECT_EQ(a.samples[r].bits, b.samples[r].bits) << "read " << r;
}

// The rule of a sampler's `group_moves` field (WantsGroupMoves), on a 5-city
// Tsp with free variables and `params`' reads and sweeps: off when the
// request says so, on by default where no ground energy is known, by default
// on a puzzle's as `unset` says, on when the request says so, off without
// groups. `field` sets the sampler's field in a request.
inline void ExpectTheGroupMovesRule(SamplerFactory make, SampleParams params,
                                    void (*field)(v1::SolveParams&,
                                                  v1::GroupMoves),
                                    GroupMovesDefault unset) {
  const std::string kept = "single-flip+two-way-exchange";
  const Tsp tsp = MakeTsp(5, 2, 15);
  v1::SolveParams off, on;
  field(off, v1::GROUP_MOVES_OFF);
  field(on, v1::GROUP_MOVES_ON);
  params.one_hot_groups = &tsp.groups;
  params.wire = &off;
  EXPECT_EQ(SampleTsp(make, tsp, params).moves, "single-flip");
  params.wire = nullptr;
  EXPECT_EQ(SampleTsp(make, tsp, params).moves, kept);
  params.known_ground_energy = -1e9;  // a puzzle's: never reached
  EXPECT_EQ(SampleTsp(make, tsp, params).moves,
            unset == GroupMovesDefault::kEverywhere ? kept : "single-flip");
  params.wire = &on;
  EXPECT_EQ(SampleTsp(make, tsp, params).moves, kept);
  params.one_hot_groups = nullptr;
  EXPECT_EQ(SampleTsp(make, tsp, params).moves, "single-flip");
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_SAMPLE_TESTING_TSP_H_
