// The Futoshiki / Unequal family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/unequal/unequal.h"

namespace qs {

// Defined in unequal_rules.cc and unequal_generator.cc.
std::unique_ptr<RulesEncoder> NewUnequalEncoder();
std::unique_ptr<PuzzleGenerator> NewUnequalGenerator();

// Defined in unequal_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawUnequal(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution);

Family NewUnequalFamily() {
  Family family;
  family.name = "unequal";
  family.text_kinds = {"unequal"};
  family.draw = &DrawUnequal;
  family.compiler = NewUnequalCompiler();
  family.rules = NewUnequalEncoder();
  family.generators.push_back(NewUnequalGenerator());
  return family;
}

}  // namespace qs
