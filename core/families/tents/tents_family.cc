// The Tents & Trees family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/tents/tents.h"

namespace qs {

// Defined in tents_rules.cc and tents_generator.cc.
std::unique_ptr<RulesEncoder> NewTentsEncoder();
std::unique_ptr<PuzzleGenerator> NewTentsGenerator();

// Defined in tents_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawTents(const v1::PuzzleSpec& spec,
                                           const v1::PuzzleSolution* solution);

Family NewTentsFamily() {
  Family family;
  family.name = "tents";
  family.text_kinds = {"tents"};
  family.draw = &DrawTents;
  family.compiler = NewTentsCompiler();
  family.rules = NewTentsEncoder();
  family.generators.push_back(NewTentsGenerator());
  return family;
}

}  // namespace qs
