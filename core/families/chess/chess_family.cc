// The chess-piece placement family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/chess/chess.h"
#include "core/families/family.h"

namespace qs {

// Defined in chess_rules.cc.
std::unique_ptr<RulesEncoder> NewChessEncoder();

Family NewChessFamily() {
  Family family;
  family.name = "chess";
  family.text_kinds = {"chess"};
  family.compiler = NewChessCompiler();
  family.rules = NewChessEncoder();
  return family;
}

}  // namespace qs
