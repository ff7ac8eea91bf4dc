// The Patches family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/patches/patches.h"

namespace qs {

// Defined in patches_rules.cc, patches_generator.cc and patches_drawing.cc.
std::unique_ptr<RulesEncoder> NewPatchesEncoder();
std::unique_ptr<PuzzleGenerator> NewPatchesGenerator();
absl::StatusOr<v1::BoardPicture> DrawPatches(
    const v1::PuzzleSpec& puzzle, const v1::PuzzleSolution* solution);

Family NewPatchesFamily() {
  Family family;
  family.name = "patches";
  family.text_kinds = {"patches"};
  family.draw = &DrawPatches;
  family.compiler = NewPatchesCompiler();
  family.rules = NewPatchesEncoder();
  family.generators.push_back(NewPatchesGenerator());
  return family;
}

}  // namespace qs
