// The Takuzu / Tango family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/takuzu/takuzu.h"

namespace qs {

// Defined in takuzu_rules.cc and takuzu_generator.cc.
std::unique_ptr<RulesEncoder> NewTakuzuEncoder();
std::unique_ptr<PuzzleGenerator> NewTakuzuGenerator();
std::unique_ptr<PuzzleGenerator> NewTangoGenerator();

// Defined in takuzu_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawTakuzu(const v1::PuzzleSpec& spec,
                                            const v1::PuzzleSolution* solution);

Family NewTakuzuFamily() {
  Family family;
  family.name = "takuzu";
  family.text_kinds = {"takuzu", "tango"};
  family.draw = &DrawTakuzu;
  family.compiler = NewTakuzuCompiler();
  family.rules = NewTakuzuEncoder();
  family.generators.push_back(NewTakuzuGenerator());
  family.generators.push_back(NewTangoGenerator());
  return family;
}

}  // namespace qs
