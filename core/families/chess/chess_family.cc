// The chess-piece placement family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/chess/chess.h"
#include "core/families/family.h"

namespace qs {

// Defined in chess_rules.cc.
std::unique_ptr<RulesEncoder> NewChessEncoder();

// Defined in chess_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawChess(const v1::PuzzleSpec& spec,
                                           const v1::PuzzleSolution* solution);

Family NewChessFamily() {
  Family family;
  family.name = "chess";
  family.text_kinds = {"chess"};
  family.draw = &DrawChess;
  family.compiler = NewChessCompiler();
  family.rules = NewChessEncoder();
  return family;
}

}  // namespace qs
