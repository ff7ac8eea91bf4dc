// The one list of every family's Boolean rules (docs/architecture.md §2.2:
// explicit registration). A family is added with one file (its RulesEncoder,
// next to the others in core/exact/) and one line in each list below.
#include <memory>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"

namespace qs {

// Defined in core/exact/<family>_rules.cc.
std::unique_ptr<RulesEncoder> NewSudokuEncoder();
std::unique_ptr<RulesEncoder> NewQueensEncoder();
std::unique_ptr<RulesEncoder> NewTakuzuEncoder();
std::unique_ptr<RulesEncoder> NewTentsEncoder();
std::unique_ptr<RulesEncoder> NewChessEncoder();

absl::Status RegisterBuiltinEncoders(EncoderRegistry& registry) {
  RETURN_IF_ERROR(registry.Register(NewSudokuEncoder()));
  RETURN_IF_ERROR(registry.Register(NewQueensEncoder()));
  RETURN_IF_ERROR(registry.Register(NewTakuzuEncoder()));
  RETURN_IF_ERROR(registry.Register(NewTentsEncoder()));
  RETURN_IF_ERROR(registry.Register(NewChessEncoder()));
  return absl::OkStatus();
}

}  // namespace qs
