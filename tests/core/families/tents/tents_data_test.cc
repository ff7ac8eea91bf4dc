// The 20 stored Tents puzzles of tests/data/tents (sgt-tents, 8x8 and 10x10):
// each stored solution is the puzzle's only one, is valid and scores the ground
// energy N_T / 4 of eq. 22 ([Mata Ali & Mencia 2024] §2.5), and the CPU
// annealer at the service's default settings (100 reads, 1000 sweeps, seeded)
// finds it.
#include "tests/testing/tents_data.h"

#include <mutex>
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/tents/tents.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/tents_oracle.h"

namespace qs {
namespace {

class CollectingSink : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    std::lock_guard<std::mutex> lock(mu_);
    samples_.push_back(std::move(sample));
  }
  std::vector<Sample> samples() const { return samples_; }

 private:
  std::mutex mu_;
  std::vector<Sample> samples_;
};

TEST(TentsDataTest, TwentyPuzzlesOfBothSizes) {
  const auto puzzles = testing::ReadStoredTentsPuzzles();
  ASSERT_EQ(puzzles.size(), 20u) << testing::TentsDataPath();
  int eights = 0, tens = 0;
  for (const auto& p : puzzles) {
    eights += p.id.rfind("8x8:", 0) == 0;
    tens += p.id.rfind("10x10:", 0) == 0;
  }
  EXPECT_EQ(eights, 10);
  EXPECT_EQ(tens, 10);
}

TEST(TentsDataTest, StoredSolutionsAreUniqueValidAndScoreTheGroundEnergy) {
  auto compiler = NewTentsCompiler();
  for (const auto& p : testing::ReadStoredTentsPuzzles()) {
    SCOPED_TRACE(p.id);
    std::vector<uint8_t> tents;
    const testing::TentsGame game =
        testing::GameFromSolvedBoard(p.solution, &tents);
    ASSERT_TRUE(testing::IsValidTentsBoard(game, tents));
    const auto solutions = testing::SolveTents(game, 2);
    ASSERT_EQ(solutions.size(), 1u);
    EXPECT_EQ(solutions[0], tents);
    const v1::PuzzleSpec spec = testing::TentsSpec(game);
    auto problem = compiler->Compile(spec, v1::CompileOptions());
    ASSERT_OK(problem);
    ASSERT_TRUE(problem->ground_energy.has_value());
    EXPECT_EQ(*problem->ground_energy, game.NumTrees() / 4.0);
    v1::PuzzleSolution board;
    for (uint8_t t : tents) board.add_cells(t);
    auto bits = compiler->Encode(spec, *problem, board);
    ASSERT_OK(bits);
    EXPECT_EQ(problem->full_model.Energy(*bits), *problem->ground_energy);
    EXPECT_TRUE(problem->variables.IsConsistent(*bits));
    EXPECT_EQ(problem->model.Energy(problem->variables.Restrict(*bits)),
              *problem->ground_energy);
    auto report =
        compiler->Validate(spec, compiler->Decode(spec, *problem, *bits));
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
  }
}

TEST(TentsDataTest, AnnealerSolvesEveryPuzzleAtDefaultSettings) {
  WorkerPool pool(2);
  auto sampler = NewCpuSaSampler(&pool);
  auto compiler = NewTentsCompiler();
  for (const auto& p : testing::ReadStoredTentsPuzzles()) {
    SCOPED_TRACE(p.id);
    std::vector<uint8_t> tents;
    const testing::TentsGame game =
        testing::GameFromSolvedBoard(p.solution, &tents);
    const v1::PuzzleSpec spec = testing::TentsSpec(game);
    auto problem = compiler->Compile(spec, v1::CompileOptions());
    ASSERT_OK(problem);
    SampleParams params;  // 100 reads of 1000 sweeps, beta range from the model
    params.seed = 20240108;
    CollectingSink sink;
    Interrupter interrupter;
    auto stats = sampler->Sample(problem->model, params, sink, interrupter);
    ASSERT_OK(stats);
    int valid = 0;
    for (const Sample& s : sink.samples()) {
      const std::vector<uint8_t> full = problem->variables.Expand(s.bits);
      auto report =
          compiler->Validate(spec, compiler->Decode(spec, *problem, full));
      ASSERT_OK(report);
      if (report->valid()) {
        ++valid;
        EXPECT_EQ(full, tents);  // the solution is unique
        EXPECT_DOUBLE_EQ(s.energy, *problem->ground_energy);
      }
    }
    EXPECT_GE(valid, 1);
    // 4 stages: model, trees, outside_regions, zero_lines.
    EXPECT_EQ(problem->stages.size(), 4u);
  }
}

}  // namespace
}  // namespace qs
