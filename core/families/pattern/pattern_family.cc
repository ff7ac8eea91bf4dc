// The Nonogram family (Simon Tatham's "Pattern", docs/pattern.md): its parts,
// registered by one line of core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/pattern/pattern.h"

namespace qs {

// Defined in pattern_rules.cc and pattern_generator.cc.
std::unique_ptr<RulesEncoder> NewPatternEncoder();
std::unique_ptr<PuzzleGenerator> NewPatternGenerator();

// Defined in pattern_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawPattern(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution);

Family NewPatternFamily() {
  Family family;
  family.name = "pattern";
  family.text_kinds = {"pattern"};
  family.draw = &DrawPattern;
  family.compiler = NewPatternCompiler();
  family.rules = NewPatternEncoder();
  family.generators.push_back(NewPatternGenerator());
  return family;
}

}  // namespace qs
