// Tests of the window optimizer (core/sample/lns/window_dp.h): on random
// models and windows in random orders it finds the least energy over the
// window with the rest held, reports the change, keeps a state that is
// already best, and leaves a window whose frontier is too wide untouched.
#include "core/sample/lns/window_dp.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "core/base/rng.h"
#include "core/qubo/qubo.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

// Weights in [-2, 2): integers (the optimizer's int32 table) or reals.
Qubo RandomModel(int n, double density, uint64_t seed, bool integer = false) {
  QuboBuilder builder(n);
  Xoshiro256 rng(seed);
  auto weight = [&] {
    const double w = ((rng.Next() >> 11) * 0x1p-53) * 4 - 2;
    return integer ? std::floor(w) : w;
  };
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, weight());
    for (int j = i + 1; j < n; ++j)
      if ((rng.Next() >> 11) * 0x1p-53 < density)
        builder.AddQuadratic(i, j, weight());
  }
  return *std::move(builder).Build();
}

// The least energy over the window's assignments, the rest as in `state`.
double BruteForceWindow(const Qubo& model, const std::vector<int32_t>& window,
                        std::vector<uint8_t> state) {
  double best = std::numeric_limits<double>::infinity();
  for (uint64_t a = 0; a < (uint64_t{1} << window.size()); ++a) {
    for (size_t k = 0; k < window.size(); ++k) state[window[k]] = (a >> k) & 1;
    best = std::min(best, model.Energy(state));
  }
  return best;
}

TEST(WindowOptimizerTest, FindsTheWindowsLeastEnergyInAnyOrder) {
  Xoshiro256 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 14;
    const Qubo model =
        RandomModel(n, trial % 2 ? 0.25 : 0.6, trial + 1, trial % 4 < 2);
    std::vector<uint8_t> state(n);
    for (uint8_t& x : state) x = rng.Next() & 1;
    std::vector<int32_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    for (int k = n - 1; k > 0; --k)
      std::swap(all[k], all[rng.NextBelow(k + 1)]);
    const std::vector<int32_t> window(all.begin(),
                                      all.begin() + 1 + rng.NextBelow(n));
    const double before = model.Energy(state);
    const double best = BruteForceWindow(model, window, state);
    WindowOptimizer optimizer(model);
    const double change = optimizer.Optimize(window, state);
    EXPECT_NEAR(model.Energy(state), best, 1e-9) << "trial " << trial;
    EXPECT_NEAR(change, model.Energy(state) - before, 1e-9);
  }
}

// A strip of a spin-glass torus walked column by column: the walk that
// rotates its table at every step.
TEST(WindowOptimizerTest, FindsTheLeastEnergyOfLatticeStrips) {
  for (bool integer : {true, false}) {
    QuboBuilder builder(5 * 5);
    Xoshiro256 rng(integer ? 3 : 4);
    auto weight = [&] {
      const double w = ((rng.Next() >> 11) * 0x1p-53) * 6 - 3;
      return integer ? std::floor(w) : w;
    };
    for (int r = 0; r < 5; ++r) {
      for (int c = 0; c < 5; ++c) {
        builder.AddLinear(r * 5 + c, weight());
        builder.AddQuadratic(r * 5 + c, r * 5 + (c + 1) % 5, weight());
        builder.AddQuadratic(r * 5 + c, ((r + 1) % 5) * 5 + c, weight());
      }
    }
    const Qubo model = *std::move(builder).Build();
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<uint8_t> state(25);
      for (uint8_t& x : state) x = rng.Next() & 1;
      // Rows 1-4 (row 0 held), columns 1-4 (column 0 held).
      std::vector<int32_t> window;
      for (int c = 1; c < 5; ++c)
        for (int r = 1; r < 5; ++r) window.push_back(r * 5 + c);
      const double best = BruteForceWindow(model, window, state);
      WindowOptimizer optimizer(model);
      optimizer.Optimize(window, state);
      EXPECT_NEAR(model.Energy(state), best, 1e-9) << integer << trial;
    }
  }
}

TEST(WindowOptimizerTest, AStateThatIsAlreadyBestStays) {
  const Qubo model = RandomModel(12, 0.5, 3);
  std::vector<int32_t> window(12);
  std::iota(window.begin(), window.end(), 0);
  std::vector<uint8_t> state(12, 0);
  WindowOptimizer optimizer(model);
  optimizer.Optimize(window, state);  // the ground state
  const std::vector<uint8_t> ground = state;
  std::reverse(window.begin(), window.end());
  EXPECT_NEAR(optimizer.Optimize(window, state), 0, 1e-12);
  EXPECT_EQ(state, ground);
  EXPECT_EQ(optimizer.changed(), 0);
}

TEST(WindowOptimizerTest, AWindowTooWideIsLeftAsItIs) {
  const int n = kMaxWindowFrontier + 2;
  const Qubo model = RandomModel(n, 1.0, 9);  // complete: frontier n - 1
  std::vector<int32_t> window(n);
  std::iota(window.begin(), window.end(), 0);
  EXPECT_GT(WindowFrontier(model, window), kMaxWindowFrontier);
  std::vector<uint8_t> state(n, 1);
  WindowOptimizer optimizer(model);
  EXPECT_EQ(optimizer.Optimize(window, state), 0);
  EXPECT_EQ(state, std::vector<uint8_t>(n, 1));
}

TEST(WindowFrontierTest, APathWalkedInOrderHoldsTwo) {
  QuboBuilder builder(6);
  for (int i = 0; i + 1 < 6; ++i) builder.AddQuadratic(i, i + 1, 1);
  const Qubo path = *std::move(builder).Build();
  const std::vector<int32_t> in_order = {0, 1, 2, 3, 4, 5};
  const std::vector<int32_t> ends_first = {0, 5, 1, 4, 2, 3};
  EXPECT_EQ(WindowFrontier(path, in_order), 2);
  EXPECT_EQ(WindowFrontier(path, ends_first), 3);
}

}  // namespace
}  // namespace qs
