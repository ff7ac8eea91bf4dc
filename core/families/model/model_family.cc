// The constrained-model family (LP, OPB, QPLIB or structured models): its
// parts, registered by one line of core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/model/model.h"

namespace qs {

Family NewModelFamily() {
  Family family;
  family.name = "model";
  family.text_kinds = {"model"};
  family.board = "values";
  family.compiler = NewModelCompiler();
  family.rules = NewModelRulesEncoder();
  return family;
}

}  // namespace qs
