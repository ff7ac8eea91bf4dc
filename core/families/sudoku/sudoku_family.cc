// The Sudoku family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/sudoku/sudoku.h"

namespace qs {

// Defined in sudoku_rules.cc and sudoku_generator.cc.
std::unique_ptr<RulesEncoder> NewSudokuEncoder();
std::unique_ptr<PuzzleGenerator> NewSudokuGenerator();

Family NewSudokuFamily() {
  Family family;
  family.name = "sudoku";
  family.text_kinds = {"sudoku"};
  family.compiler = NewSudokuCompiler();
  family.rules = NewSudokuEncoder();
  family.generators.push_back(NewSudokuGenerator());
  return family;
}

}  // namespace qs
