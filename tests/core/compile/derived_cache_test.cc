// DerivedCache: a value is made once and shared, failures are not kept, a
// copied or reassigned problem starts empty; and a family's ValidateDecoded
// (which keeps the parsed spec with the problem) reports exactly what
// Validate does; a bounded put stops at its bound.
#include "core/compile/derived_cache.h"

#include <memory>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/families/builtin.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

TEST(DerivedCacheTest, MakesOnceAndShares) {
  DerivedCache cache;
  int made = 0;
  auto make = [&] {
    ++made;
    return std::string("value");
  };
  auto a = cache.GetOrMake<std::string>("k", make);
  auto b = cache.GetOrMake<std::string>("k", make);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(*cache.Find<std::string>("k"), "value");
  EXPECT_EQ(cache.Find<std::string>("other"), nullptr);
}

TEST(DerivedCacheTest, KeepsNoFailureAndCopiesStartEmpty) {
  DerivedCache cache;
  auto failed = cache.GetOrTryMake<int>(
      "k", []() -> absl::StatusOr<int> { return absl::InternalError("no"); });
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(cache.Find<int>("k"), nullptr);
  EXPECT_EQ(
      **cache.GetOrTryMake<int>("k", []() -> absl::StatusOr<int> { return 7; }),
      7);
  DerivedCache copy(cache);
  EXPECT_EQ(copy.Find<int>("k"), nullptr);
  DerivedCache assigned;
  assigned.PutShared<int>("j", std::make_shared<const int>(1));
  assigned = cache;
  EXPECT_EQ(assigned.Find<int>("j"), nullptr);
}

TEST(DerivedCacheTest, ABoundedPutLeavesRoomForDerivedData) {
  DerivedCache cache;
  constexpr size_t kBound = DerivedCache::kMaxEntries / 2;
  for (size_t k = 0; k < DerivedCache::kMaxEntries; ++k) {
    cache.PutShared<int>("board/" + std::to_string(k),
                         std::make_shared<const int>(static_cast<int>(k)),
                         kBound);
  }
  EXPECT_NE(cache.Find<int>("board/0"), nullptr);
  EXPECT_NE(cache.Find<int>("board/" + std::to_string(kBound - 1)), nullptr);
  EXPECT_EQ(cache.Find<int>("board/" + std::to_string(kBound)), nullptr);
  int made = 0;
  auto make = [&] { return ++made; };
  cache.GetOrMake<int>("schedule", make);
  cache.GetOrMake<int>("schedule", make);
  EXPECT_EQ(made, 1);
}

// Random boards on LinkedIn-style and plain queens puzzles: the report of
// the sampling path equals Validate's.
TEST(ValidateDecodedTest, QueensReportsEqualValidates) {
  const CompilerRegistry& compilers = BuiltinCompilers();
  v1::PuzzleSpec linkedin;
  v1::QueensPuzzle& q = *linkedin.mutable_queens();
  q.set_rows(6);
  // Six regions: the rows, with the two halves of the last two swapped.
  for (int cell = 0; cell < 36; ++cell) {
    const int row = cell / 6;
    q.add_regions(row >= 4 && cell % 6 >= 3 ? 9 - row : row);
  }
  v1::PuzzleSpec plain;
  plain.mutable_queens()->set_rows(7);
  for (const v1::PuzzleSpec& spec : {linkedin, plain}) {
    const PuzzleCompiler* compiler = *compilers.ForSpec(spec);
    auto problem = compiler->Compile(spec, v1::CompileOptions());
    ASSERT_TRUE(problem.ok()) << problem.status();
    const int n = problem->full_model.num_variables();
    Xoshiro256 rng(3);
    for (int round = 0; round < 200; ++round) {
      std::vector<uint8_t> bits(n);
      for (auto& b : bits) b = rng.Next() % 6 == 0;
      const v1::PuzzleSolution board = compiler->Decode(spec, *problem, bits);
      auto direct = compiler->Validate(spec, board);
      auto decoded = compiler->ValidateDecoded(spec, *problem, board);
      ASSERT_TRUE(direct.ok() && decoded.ok());
      EXPECT_EQ(direct->SerializeAsString(), decoded->SerializeAsString());
    }
  }
}

}  // namespace
}  // namespace qs
