// The Keen (KenKen) family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/keen/keen.h"

namespace qs {

// Defined in keen_rules.cc and keen_generator.cc.
std::unique_ptr<RulesEncoder> NewKeenEncoder();
std::unique_ptr<PuzzleGenerator> NewKeenGenerator();

// Defined in keen_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawKeen(const v1::PuzzleSpec& spec,
                                          const v1::PuzzleSolution* solution);

Family NewKeenFamily() {
  Family family;
  family.name = "keen";
  family.text_kinds = {"keen"};
  family.draw = &DrawKeen;
  family.compiler = NewKeenCompiler();
  family.rules = NewKeenEncoder();
  family.generators.push_back(NewKeenGenerator());
  return family;
}

}  // namespace qs
