// The one list of every built-in puzzle family. Registration is explicit, so a
// static library can never drop a family silently.
#include "core/puzzles/builtin.h"

#include "core/base/registry.h"
#include "core/base/status_macros.h"
#include "core/puzzles/chess.h"
#include "core/puzzles/maxcut.h"
#include "core/puzzles/queens.h"
#include "core/puzzles/raw_qubo.h"
#include "core/puzzles/sudoku.h"
#include "core/puzzles/takuzu.h"
#include "core/puzzles/tents.h"

namespace qs {

absl::Status RegisterBuiltinCompilers(CompilerRegistry& registry) {
  RETURN_IF_ERROR(registry.Register(NewSudokuCompiler()));
  RETURN_IF_ERROR(registry.Register(NewQueensCompiler()));
  RETURN_IF_ERROR(registry.Register(NewTentsCompiler()));
  RETURN_IF_ERROR(registry.Register(NewChessCompiler()));
  RETURN_IF_ERROR(registry.Register(NewTakuzuCompiler()));
  RETURN_IF_ERROR(registry.Register(NewRawQuboCompiler()));
  RETURN_IF_ERROR(registry.Register(NewMaxCutCompiler()));
  return absl::OkStatus();
}

const CompilerRegistry& BuiltinCompilers() {
  return BuildOnce<CompilerRegistry>(&RegisterBuiltinCompilers);
}

}  // namespace qs
