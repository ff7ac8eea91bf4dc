// The one list of every puzzle generator (docs/architecture.md §2.2: explicit
// registration). A family is added with one file in core/generate/ and one
// line in each list below.
#include <memory>

#include "core/base/status_macros.h"
#include "core/generate/generator.h"

namespace qs {

// Defined in core/generate/<family>_generator.cc.
std::unique_ptr<PuzzleGenerator> NewSudokuGenerator();
std::unique_ptr<PuzzleGenerator> NewQueensGenerator();
std::unique_ptr<PuzzleGenerator> NewTakuzuGenerator();
std::unique_ptr<PuzzleGenerator> NewTangoGenerator();
std::unique_ptr<PuzzleGenerator> NewTentsGenerator();

absl::Status RegisterBuiltinGenerators(GeneratorRegistry& registry) {
  RETURN_IF_ERROR(registry.Register(NewSudokuGenerator()));
  RETURN_IF_ERROR(registry.Register(NewQueensGenerator()));
  RETURN_IF_ERROR(registry.Register(NewTakuzuGenerator()));
  RETURN_IF_ERROR(registry.Register(NewTangoGenerator()));
  RETURN_IF_ERROR(registry.Register(NewTentsGenerator()));
  return absl::OkStatus();
}

}  // namespace qs
