// The text kinds as clients are offered them (formats::TextKinds, served by
// ListFamilies): every kind is listed once, with a description, and its
// example parses as a puzzle of that kind.
#include <set>
#include <string>

#include "formats/puzzle_text.h"
#include "gtest/gtest.h"

namespace qs::formats {
namespace {

TEST(TextKindsTest, EveryKindHasADescriptionAndAnExampleThatParses) {
  std::set<std::string> seen;
  for (const TextKind& kind : TextKinds()) {
    SCOPED_TRACE(kind.kind);
    EXPECT_TRUE(seen.insert(kind.kind).second);
    EXPECT_FALSE(kind.description.empty());
    const absl::StatusOr<v1::PuzzleSpec> spec =
        ParsePuzzleText(kind.kind, kind.example);
    ASSERT_TRUE(spec.ok()) << spec.status();
    EXPECT_NE(spec->puzzle_case(), v1::PuzzleSpec::PUZZLE_NOT_SET);
    EXPECT_EQ(kind.writer, FormatPuzzleText(kind.kind, *spec).ok());
  }
  const std::vector<std::string> kinds = PuzzleKinds();
  EXPECT_EQ(seen, std::set<std::string>(kinds.begin(), kinds.end()));
}

}  // namespace
}  // namespace qs::formats
