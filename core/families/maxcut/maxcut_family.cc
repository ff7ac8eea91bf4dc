// The weighted Max-Cut family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/maxcut/maxcut.h"

namespace qs {

Family NewMaxCutFamily() {
  Family family;
  family.name = "maxcut";
  family.text_kinds = {"maxcut"};
  family.board = "cut";
  family.compiler = NewMaxCutCompiler();
  return family;
}

}  // namespace qs
