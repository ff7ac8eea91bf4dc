// The Towers (Skyscrapers) family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/towers/towers.h"

namespace qs {

// Defined in towers_rules.cc and towers_generator.cc.
std::unique_ptr<RulesEncoder> NewTowersEncoder();
std::unique_ptr<PuzzleGenerator> NewTowersGenerator();

// Defined in towers_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawTowers(const v1::PuzzleSpec& spec,
                                            const v1::PuzzleSolution* solution);

Family NewTowersFamily() {
  Family family;
  family.name = "towers";
  family.text_kinds = {"towers"};
  family.draw = &DrawTowers;
  family.compiler = NewTowersCompiler();
  family.rules = NewTowersEncoder();
  family.generators.push_back(NewTowersGenerator());
  return family;
}

}  // namespace qs
