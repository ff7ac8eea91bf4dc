// The generators through the solve engine (core/generate, [Mücke 2024] §4): the
// difficulty knob (unit propagation decides every open cell of an easy
// puzzle, at least half of a medium one), the clue target, determinism for a
// seed, and the checks of a GenerateRequest naming its fields. Uniqueness of
// every puzzle is proven again here with CaDiCaL, independently of the
// generator's own incremental solver.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

class GeneratorTest : public ::testing::Test {
 protected:
  GeneratorTest() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_OK(RegisterBuiltinBackends(samplers_, options));
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &samplers_,
                                            SolveLimits());
  }

  std::vector<v1::GeneratedPuzzle> Generate(
      const v1::GenerateRequest& request) {
    std::vector<v1::GeneratedPuzzle> out;
    Interrupter interrupter;
    EXPECT_OK(engine_->Generate(
        request, interrupter,
        [&](v1::GeneratedPuzzle&& p) { out.push_back(std::move(p)); }));
    return out;
  }

  static v1::GenerateRequest Request(const std::string& family, int rows,
                                     v1::Difficulty difficulty, int count) {
    v1::GenerateRequest request;
    request.set_family(family);
    request.set_rows(rows);
    request.set_difficulty(difficulty);
    request.set_count(count);
    request.set_seed(77);
    return request;
  }

  static void ExpectUnique(const v1::PuzzleSpec& spec) {
    auto compiler = BuiltinCompilers().ForSpec(spec);
    ASSERT_OK(compiler);
    auto encoder = BuiltinEncoders().ForSpec(spec);
    ASSERT_OK(encoder);
    auto count = CountRuleSolutions(
        **encoder, spec, static_cast<int>((*compiler)->ModelVariables(spec)),
        /*limit=*/2, CountMethod::kSat, nullptr);
    ASSERT_OK(count);
    EXPECT_EQ(count->count, 1u);
    EXPECT_TRUE(count->complete);
  }

  WorkerPool pool_;
  BackendRegistry samplers_;
  std::unique_ptr<SolveEngine> engine_;
};

TEST_F(GeneratorTest, DifficultyBoundsWhatPropagationLeavesOpen) {
  for (const std::string family : {"sudoku", "takuzu", "tango", "queens"}) {
    SCOPED_TRACE(family);
    const int rows = family == "sudoku" ? 9 : 6;
    double hard_clues = 0, easy_clues = 0;
    for (v1::Difficulty difficulty :
         {v1::DIFFICULTY_EASY, v1::DIFFICULTY_MEDIUM, v1::DIFFICULTY_HARD}) {
      for (const v1::GeneratedPuzzle& p :
           Generate(Request(family, rows, difficulty, 4))) {
        ExpectUnique(p.puzzle());
        EXPECT_TRUE(p.unique());
        EXPECT_LE(p.clues(), p.clues_at_start());
        if (difficulty == v1::DIFFICULTY_EASY) {
          EXPECT_DOUBLE_EQ(p.propagation_decided(), 1.0);
          easy_clues += p.clues();
        }
        if (difficulty == v1::DIFFICULTY_MEDIUM) {
          EXPECT_GE(p.propagation_decided(), 0.5);
        }
        if (difficulty == v1::DIFFICULTY_HARD) hard_clues += p.clues();
      }
    }
    // Keeping propagation strong never takes away more clues.
    EXPECT_LE(hard_clues, easy_clues);
  }
}

TEST_F(GeneratorTest, StopsAtTheClueTarget) {
  v1::GenerateRequest request = Request("sudoku", 9, v1::DIFFICULTY_HARD, 3);
  request.set_target_clues(40);
  for (const v1::GeneratedPuzzle& p : Generate(request)) {
    EXPECT_EQ(p.clues(), 40u);
    int givens = 0;
    for (uint32_t d : p.puzzle().sudoku().cells()) givens += d != 0;
    EXPECT_EQ(givens, 40);
    ExpectUnique(p.puzzle());
  }
}

TEST_F(GeneratorTest, SameSeedSamePuzzles) {
  for (const std::string family : {"sudoku", "queens", "tango", "tents"}) {
    const int size = family == "sudoku" ? 4 : family == "tents" ? 8 : 6;
    const v1::GenerateRequest request =
        Request(family, size, v1::DIFFICULTY_HARD, 3);
    const std::vector<v1::GeneratedPuzzle> a = Generate(request);
    const std::vector<v1::GeneratedPuzzle> b = Generate(request);
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(b.size(), 3u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(a[i].puzzle().SerializeAsString(),
                b[i].puzzle().SerializeAsString())
          << family << " " << i;
    }
  }
}

TEST_F(GeneratorTest, RequestChecksNameTheField) {
  EXPECT_THAT(engine_->CheckGenerateRequest(
                  Request("sudoku", 5, v1::DIFFICULTY_HARD, 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  EXPECT_THAT(engine_->CheckGenerateRequest(
                  Request("takuzu", 7, v1::DIFFICULTY_HARD, 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  EXPECT_THAT(
      engine_->CheckGenerateRequest(
          Request("mahjong", 6, v1::DIFFICULTY_HARD, 1)),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sudoku")));
  v1::GenerateRequest sat = Request("sudoku", 4, v1::DIFFICULTY_HARD, 1);
  sat.mutable_sampling()->set_backend("sat");
  EXPECT_THAT(engine_->CheckGenerateRequest(sat),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("sampling.backend")));
}

TEST_F(GeneratorTest, TentsBoardsAreUniqueValidAndGraded) {
  auto compiler = BuiltinCompilers().ForSpec([] {
    v1::PuzzleSpec spec;
    spec.mutable_tents();
    return spec;
  }());
  ASSERT_OK(compiler);
  for (int rows : {6, 8}) {
    for (v1::Difficulty difficulty :
         {v1::DIFFICULTY_EASY, v1::DIFFICULTY_MEDIUM, v1::DIFFICULTY_HARD}) {
      SCOPED_TRACE(absl::StrCat(rows, "x", rows, " difficulty ", difficulty));
      const absl::Time start = absl::Now();
      const std::vector<v1::GeneratedPuzzle> made =
          Generate(Request("tents", rows, difficulty, 5));
      ASSERT_EQ(made.size(), 5u);
      std::printf("tents %dx%d %s: 5 puzzles in %.3f s\n", rows, rows,
                  v1::Difficulty_Name(difficulty).c_str(),
                  absl::ToDoubleSeconds(absl::Now() - start));
      for (const v1::GeneratedPuzzle& p : made) {
        ExpectUnique(p.puzzle());
        const v1::TentsPuzzle& t = p.puzzle().tents();
        EXPECT_EQ(p.puzzle_kind(), "tents");
        EXPECT_EQ(p.clues(), static_cast<uint32_t>(t.trees_size()));
        // About one cell in five holds a tree.
        EXPECT_GE(t.trees_size(), rows * rows / 5 - 2);
        auto report = (*compiler)->Validate(p.puzzle(), p.solution());
        ASSERT_OK(report);
        EXPECT_TRUE(report->valid()) << report->ShortDebugString();
        if (difficulty == v1::DIFFICULTY_EASY) {
          EXPECT_DOUBLE_EQ(p.propagation_decided(), 1.0);
        }
        if (difficulty == v1::DIFFICULTY_MEDIUM) {
          EXPECT_GE(p.propagation_decided(), 0.5);
        }
        if (difficulty == v1::DIFFICULTY_HARD) {
          EXPECT_LT(p.propagation_decided(), 1.0);
        }
      }
    }
  }
  EXPECT_THAT(engine_->CheckGenerateRequest(
                  Request("tents", 3, v1::DIFFICULTY_HARD, 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  v1::GenerateRequest clues = Request("tents", 8, v1::DIFFICULTY_HARD, 1);
  clues.set_target_clues(5);
  EXPECT_THAT(
      engine_->CheckGenerateRequest(clues),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target_clues")));
}

}  // namespace
}  // namespace qs
