// The 16 stored Light Up puzzles of tests/data/lightup (sgt-lightup, 7x7 to
// 14x14, every grade): each parses, the exact rules give exactly one
// solution (CaDiCaL's enumeration and the BDD count agree), the validator
// and the ray-casting oracle accept it, and it scores the ground energy 0 in
// the full and the reduced model, whose exactly-one groups it keeps; the CPU
// annealer at the service's default settings finds it on the 7x7 and 10x10
// ones. And the family's own generator makes unique puzzles.
#include <mutex>
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/lightup/lightup.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/lightup/lightup_oracle.h"
#include "tests/testing/no_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NoSampler;

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

// The oracle's game of a parsed spec.
testing::LightupGame GameOf(const v1::PuzzleSpec& spec) {
  testing::LightupGame g;
  g.rows = static_cast<int>(spec.lightup().rows());
  g.cols = static_cast<int>(spec.lightup().cols());
  g.cells.assign(g.size(), '.');
  for (const v1::LightupBlack& b : spec.lightup().blacks())
    g.cells[b.cell()] =
        b.has_lights() ? static_cast<char>('0' + b.lights()) : '#';
  return g;
}

// The only solution of `spec` by the exact rules; empty when there is not
// exactly one.
std::vector<uint8_t> OnlySolution(const v1::PuzzleSpec& spec) {
  auto encoder = BuiltinEncoders().ForSpec(spec);
  EXPECT_OK(encoder);
  const int n = static_cast<int>(spec.lightup().rows() * spec.lightup().cols());
  std::vector<std::vector<uint8_t>> found;
  auto solved = SolveRules(**encoder, spec, n, 2, [&](std::vector<uint8_t> s) {
    found.push_back(std::move(s));
  });
  EXPECT_OK(solved);
  if (!solved.ok() || !solved->enumeration.complete || found.size() != 1)
    return {};
  auto count =
      CountRuleSolutions(**encoder, spec, n, 10, CountMethod::kAuto, nullptr);
  EXPECT_OK(count);
  EXPECT_TRUE(count->complete);
  EXPECT_EQ(count->count, 1u);
  return found[0];
}

TEST(LightupDataTest, SixteenPuzzlesOfEverySize) {
  const auto ids = testing::ReadStoredLightupIds();
  ASSERT_EQ(ids.size(), 16u);
  int sevens = 0, tens = 0, fourteens = 0;
  for (const std::string& id : ids) {
    sevens += id.rfind("7x7:", 0) == 0;
    tens += id.rfind("10x10:", 0) == 0;
    fourteens += id.rfind("14x14:", 0) == 0;
  }
  EXPECT_EQ(sevens, 6);
  EXPECT_EQ(tens, 6);
  EXPECT_EQ(fourteens, 3);
}

TEST(LightupDataTest, EachHasOneSolutionAtTheGroundEnergy) {
  auto compiler = NewLightupCompiler();
  for (const std::string& id : testing::ReadStoredLightupIds()) {
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("lightup", id);
    ASSERT_OK(spec);
    const std::vector<uint8_t> lights = OnlySolution(*spec);
    ASSERT_FALSE(lights.empty());
    EXPECT_TRUE(testing::OracleValid(GameOf(*spec), lights));
    auto problem = compiler->Compile(*spec, v1::CompileOptions());
    ASSERT_OK(problem);
    ASSERT_TRUE(problem->ground_energy.has_value());
    EXPECT_EQ(*problem->ground_energy, 0.0);
    EXPECT_EQ(problem->full_model.Energy(lights), 0.0);
    EXPECT_TRUE(problem->variables.IsConsistent(lights));
    const std::vector<uint8_t> reduced = problem->variables.Restrict(lights);
    EXPECT_EQ(problem->model.Energy(reduced), 0.0);
    for (const auto& group : problem->one_hot_groups) {
      int ones = 0;
      for (int32_t v : group) ones += reduced[v];
      EXPECT_EQ(ones, 1);
    }
    auto report =
        compiler->Validate(*spec, compiler->Decode(*spec, *problem, lights));
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
  }
}

TEST(LightupDataTest, AnnealerSolvesTheSmallerPuzzlesAtDefaultSettings) {
  WorkerPool pool(2);
  auto sampler = NewCpuSaSampler(&pool);
  auto compiler = NewLightupCompiler();
  for (const std::string& id : testing::ReadStoredLightupIds()) {
    if (id.rfind("14x14:", 0) == 0 || id.rfind("12x8:", 0) == 0) continue;
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("lightup", id);
    ASSERT_OK(spec);
    auto problem = compiler->Compile(*spec, v1::CompileOptions());
    ASSERT_OK(problem);
    if (problem->model.num_variables() == 0) continue;  // solved by reduction
    SampleParams params;  // 100 reads of 1000 sweeps
    params.seed = 20261129;
    CollectingSink sink;
    Interrupter interrupter;
    ASSERT_OK(sampler->Sample(problem->model, params, sink, interrupter));
    int valid = 0;
    for (const Sample& s : sink.samples()) {
      const std::vector<uint8_t> full = problem->variables.Expand(s.bits);
      auto report =
          compiler->Validate(*spec, compiler->Decode(*spec, *problem, full));
      ASSERT_OK(report);
      if (!report->valid()) continue;
      ++valid;
      EXPECT_DOUBLE_EQ(s.energy, 0.0);
    }
    EXPECT_GE(valid, 1);
  }
}

TEST(LightupGeneratorTest, MakesUniquePuzzlesAtEveryDifficulty) {
  auto generator = BuiltinGenerators().Get("lightup");
  ASSERT_OK(generator);
  NoSampler sampler;
  Interrupter interrupter;
  auto compiler = NewLightupCompiler();
  for (v1::Difficulty difficulty :
       {v1::DIFFICULTY_EASY, v1::DIFFICULTY_MEDIUM, v1::DIFFICULTY_HARD}) {
    SCOPED_TRACE(v1::Difficulty_Name(difficulty));
    GenerateOptions options;
    options.rows = 7;
    options.cols = 8;
    options.difficulty = difficulty;
    ASSERT_OK((*generator)->Check(options));
    auto made = (*generator)->Generate(options, 7, sampler, interrupter);
    ASSERT_OK(made);
    EXPECT_EQ(made->puzzle_kind, "lightup");
    EXPECT_EQ(OnlySolution(made->puzzle), made->solution);
    EXPECT_TRUE(testing::OracleValid(GameOf(made->puzzle), made->solution));
    EXPECT_LE(made->clues, made->clues_at_start);
    EXPECT_GE(made->propagation_decided, RequiredPropagation(difficulty));
    auto text = formats::FormatPuzzleText("lightup", made->puzzle);
    ASSERT_OK(text);
    EXPECT_THAT(*text, ::testing::StartsWith("8x7:"));
  }
  GenerateOptions tiny;
  tiny.rows = tiny.cols = 2;
  EXPECT_FALSE((*generator)->Check(tiny).ok());
}

}  // namespace
}  // namespace qs
