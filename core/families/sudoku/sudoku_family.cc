// The Sudoku family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/sudoku/sudoku.h"

namespace qs {

// Defined in sudoku_rules.cc, sudoku_generator.cc and sudoku_drawing.cc.
std::unique_ptr<RulesEncoder> NewSudokuEncoder();
std::unique_ptr<PuzzleGenerator> NewSudokuGenerator();
absl::StatusOr<v1::BoardPicture> DrawSudoku(const v1::PuzzleSpec& puzzle,
                                            const v1::PuzzleSolution* solution);

Family NewSudokuFamily() {
  Family family;
  family.name = "sudoku";
  family.text_kinds = {"sudoku"};
  family.draw = &DrawSudoku;
  family.compiler = NewSudokuCompiler();
  family.rules = NewSudokuEncoder();
  family.generators.push_back(NewSudokuGenerator());
  return family;
}

}  // namespace qs
