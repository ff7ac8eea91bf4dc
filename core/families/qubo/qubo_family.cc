// The raw QUBO / Ising model family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/qubo/raw_qubo.h"

namespace qs {

Family NewQuboFamily() {
  Family family;
  family.name = "qubo";
  family.text_kinds = {"qubo"};
  family.board = "values";
  family.compiler = NewRawQuboCompiler();
  return family;
}

}  // namespace qs
