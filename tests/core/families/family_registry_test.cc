// The family registry (core/families/): every built-in family brings a
// compiler of its own name and text kinds that the text formats know, whose
// examples parse to puzzles its compiler takes; the engines' registries are
// filled from it; Register refuses an incomplete or clashing family; and
// ListFamilies describes every text kind of every family, in the registry's
// order.
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/families/family.h"
#include "core/families/sudoku/sudoku.h"
#include "core/families/tents/tents.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

TEST(FamilyRegistryTest, EveryFamilyParsesItsExamplesToItsOwnCompiler) {
  std::set<std::string> text_kinds;
  for (const FamilyInfo* family : BuiltinFamilies().All()) {
    SCOPED_TRACE(family->name);
    ASSERT_NE(family->compiler, nullptr);
    EXPECT_EQ(family->compiler->kind(), family->name);
    EXPECT_FALSE(family->text_kinds.empty());
    if (family->rules != nullptr) {
      EXPECT_EQ(family->rules->kind(), family->name);
    }
    for (const PuzzleGenerator* generator : family->generators) {
      EXPECT_EQ(*BuiltinGenerators().Get(generator->family()), generator);
    }
    for (const std::string& kind : family->text_kinds) {
      SCOPED_TRACE(kind);
      EXPECT_TRUE(text_kinds.insert(kind).second);
      std::string example;
      for (const formats::TextKind& text : formats::TextKinds()) {
        if (text.kind == kind) example = text.example;
      }
      ASSERT_FALSE(example.empty()) << "no text format for this kind";
      const absl::StatusOr<v1::PuzzleSpec> spec =
          formats::ParsePuzzleText(kind, example);
      ASSERT_TRUE(spec.ok()) << spec.status();
      const absl::StatusOr<const PuzzleCompiler*> compiler =
          BuiltinCompilers().ForSpec(*spec);
      ASSERT_TRUE(compiler.ok()) << compiler.status();
      EXPECT_EQ(*compiler, family->compiler);
      const absl::StatusOr<const RulesEncoder*> rules =
          BuiltinEncoders().ForSpec(*spec);
      EXPECT_EQ(rules.ok() ? *rules : nullptr, family->rules);
    }
  }
  // Every text format belongs to a family: the formats' list and the
  // families' cannot drift apart.
  const std::vector<std::string> kinds = formats::PuzzleKinds();
  EXPECT_EQ(text_kinds, std::set<std::string>(kinds.begin(), kinds.end()));
  EXPECT_EQ(BuiltinCompilers().Kinds().size(), BuiltinFamilies().All().size());
}

Family SudokuFamily(std::string name = "sudoku") {
  Family family;
  family.name = std::move(name);
  family.text_kinds = {"sudoku"};
  family.compiler = NewSudokuCompiler();
  return family;
}

TEST(FamilyRegistryTest, RefusesAnIncompleteOrClashingFamily) {
  FamilyRegistry registry;
  Family no_compiler = SudokuFamily();
  no_compiler.compiler = nullptr;
  EXPECT_EQ(registry.Register(std::move(no_compiler)).code(),
            absl::StatusCode::kInvalidArgument);
  Family no_text = SudokuFamily();
  no_text.text_kinds.clear();
  EXPECT_EQ(registry.Register(std::move(no_text)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.Register(SudokuFamily("sudoku2")).code(),
            absl::StatusCode::kInvalidArgument);  // a compiler of "sudoku"
  ASSERT_TRUE(registry.Register(SudokuFamily()).ok());
  EXPECT_EQ(registry.Register(SudokuFamily()).code(),
            absl::StatusCode::kAlreadyExists);
  Family same_text;
  same_text.name = "tents";
  same_text.text_kinds = {"sudoku"};
  same_text.compiler = NewTentsCompiler();
  EXPECT_EQ(registry.Register(std::move(same_text)).code(),
            absl::StatusCode::kAlreadyExists);

  ASSERT_EQ(registry.All().size(), 1u);
  EXPECT_EQ(registry.Find("sudoku"), registry.All()[0]);
  EXPECT_EQ(registry.compilers().Kinds(), std::vector<std::string>{"sudoku"});
  EXPECT_TRUE(registry.encoders().Kinds().empty());
  EXPECT_TRUE(registry.generators().Families().empty());
}

TEST(FamilyRegistryTest, ListFamiliesDescribesEveryTextKindOfEveryFamily) {
  WorkerPool pool(1);
  BackendRegistry backends;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_TRUE(RegisterBuiltinBackends(backends, options).ok());
  const SolveEngine engine(&BuiltinCompilers(), &backends, SolveLimits());
  const v1::ListFamiliesResponse response = engine.ListFamilies();
  std::vector<std::string> listed;
  for (const v1::FamilyDescription& family : response.families()) {
    listed.push_back(family.kind());
  }
  std::vector<std::string> expected;
  for (const FamilyInfo* family : BuiltinFamilies().All()) {
    for (const std::string& kind : family->text_kinds) {
      expected.push_back(kind);
      const auto it = std::find(listed.begin(), listed.end(), kind);
      ASSERT_NE(it, listed.end()) << kind;
      const v1::FamilyDescription& description =
          response.families(static_cast<int>(it - listed.begin()));
      EXPECT_EQ(description.board(), family->board) << kind;
      EXPECT_EQ(description.rules(), family->rules != nullptr) << kind;
      EXPECT_FALSE(description.example().empty()) << kind;
      EXPECT_FALSE(description.puzzle_field().empty()) << kind;
    }
  }
  EXPECT_EQ(listed, expected);
  EXPECT_EQ(listed.front(), "sudoku");
  EXPECT_EQ(listed.size(), formats::PuzzleKinds().size());
}

}  // namespace
}  // namespace qs
