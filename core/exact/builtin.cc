// The one list of every family's Boolean rules (architecture §2.2: explicit
// registration). A family is added with one file (its RulesEncoder, next to the
// others in core/exact/) and one line in each list below.
#include <memory>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"

namespace qs {

// Defined in core/exact/<family>_rules.cc.
std::unique_ptr<RulesEncoder> NewSudokuEncoder();
std::unique_ptr<RulesEncoder> NewQueensEncoder();
std::unique_ptr<RulesEncoder> NewTakuzuEncoder();

absl::Status RegisterBuiltinEncoders(EncoderRegistry& registry) {
  RETURN_IF_ERROR(registry.Register(NewSudokuEncoder()));
  RETURN_IF_ERROR(registry.Register(NewQueensEncoder()));
  RETURN_IF_ERROR(registry.Register(NewTakuzuEncoder()));
  return absl::OkStatus();
}

}  // namespace qs
