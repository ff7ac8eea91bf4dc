// The one list of every built-in puzzle family. Registration is explicit, so a
// static library can never drop a family silently: a family is added with its
// folder core/families/<name>/ (which defines New<Name>Family) and one line
// in QS_BUILTIN_FAMILIES.
#include "core/families/builtin.h"

#include "core/base/registry.h"
#include "core/base/status_macros.h"

// In the order ListFamilies lists them.
#define QS_BUILTIN_FAMILIES(X) \
  X(Sudoku)                    \
  X(Queens)                    \
  X(Tents)                     \
  X(Chess)                     \
  X(Takuzu)                    \
  X(Patches)                   \
  X(Zip)                       \
  X(Singles)                   \
  X(Pattern)                   \
  X(Lightup)                   \
  X(Keen)                      \
  X(Unequal)                   \
  X(Towers)                    \
  X(Qubo)                      \
  X(MaxCut)                    \
  X(Model)

namespace qs {

#define QS_DECLARE_FAMILY(Name) Family New##Name##Family();
QS_BUILTIN_FAMILIES(QS_DECLARE_FAMILY)
#undef QS_DECLARE_FAMILY

absl::Status RegisterBuiltinFamilies(FamilyRegistry& registry) {
#define QS_REGISTER_FAMILY(Name) \
  RETURN_IF_ERROR(registry.Register(New##Name##Family()));
  QS_BUILTIN_FAMILIES(QS_REGISTER_FAMILY)
#undef QS_REGISTER_FAMILY
  return absl::OkStatus();
}

const FamilyRegistry& BuiltinFamilies() {
  return BuildOnce<FamilyRegistry>(&RegisterBuiltinFamilies);
}

const CompilerRegistry& BuiltinCompilers() {
  return BuiltinFamilies().compilers();
}
const EncoderRegistry& BuiltinEncoders() {
  return BuiltinFamilies().encoders();
}
const GeneratorRegistry& BuiltinGenerators() {
  return BuiltinFamilies().generators();
}

}  // namespace qs
