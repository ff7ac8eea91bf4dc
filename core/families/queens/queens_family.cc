// The queens family (N-queens and LinkedIn Queens): its parts, registered by
// one line of core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/queens/queens.h"

namespace qs {

// Defined in queens_rules.cc and queens_generator.cc.
std::unique_ptr<RulesEncoder> NewQueensEncoder();
std::unique_ptr<PuzzleGenerator> NewQueensGenerator();

// Defined in queens_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawQueens(const v1::PuzzleSpec& spec,
                                            const v1::PuzzleSolution* solution);

Family NewQueensFamily() {
  Family family;
  family.name = "queens";
  family.text_kinds = {"nqueens", "queens"};
  family.draw = &DrawQueens;
  family.compiler = NewQueensCompiler();
  family.rules = NewQueensEncoder();
  family.generators.push_back(NewQueensGenerator());
  return family;
}

}  // namespace qs
