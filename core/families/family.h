// Family: the extension point of a puzzle family, and FamilyRegistry, the one
// registry of families. A family is its folder core/families/<name>/: its
// QUBO compiler (formulation, reduction, decoding and validation), the rules
// of its game for the exact engines, its generators, its text formats and how
// its board is drawn, bundled by one New<Name>Family() in that folder and
// registered by one line of core/families/builtin.cc. The engines keep their
// own registries (CompilerRegistry, EncoderRegistry, GeneratorRegistry) as
// views that FamilyRegistry fills from the families, so engine code looks
// parts up as before.
#ifndef QS_CORE_FAMILIES_FAMILY_H_
#define QS_CORE_FAMILIES_FAMILY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/registry.h"
#include "core/compile/compiler.h"
#include "core/compile/registry.h"
#include "core/exact/encoder.h"
#include "core/generate/generator.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

// A family's drawing of its puzzle and of a solution (null: the puzzle
// alone). The solution holds one cell per cell of the puzzle's picture
// (SolveEngine::Draw checks that first); its values may be anything.
using DrawFunction = absl::StatusOr<v1::BoardPicture> (*)(
    const v1::PuzzleSpec& puzzle, const v1::PuzzleSolution* solution);

// What a family's folder provides (moved into the registry by Register).
struct Family {
  // The folder's name and the compiler's kind ("sudoku").
  std::string name;
  // The text kinds whose puzzles are this family's (formats/puzzle_text.h;
  // queens has "nqueens" and "queens"), in the order ListFamilies lists them.
  // Their parsers and writers live in the folder as <kind>_text.cc.
  std::vector<std::string> text_kinds;
  // How a solution is drawn (FamilyDescription.board).
  std::string board = "grid";
  // Draws a puzzle and, when not null, a solution of it (Solver.Draw), in
  // the folder's <name>_drawing.cc; null for a family whose boards are not
  // grids (raw models).
  DrawFunction draw = nullptr;
  std::unique_ptr<PuzzleCompiler> compiler;
  // Null for a family without rules for the exact engines (raw models).
  std::unique_ptr<RulesEncoder> rules;
  // One per generator family name ("takuzu" and "tango"); none for a family
  // without a generator.
  std::vector<std::unique_ptr<PuzzleGenerator>> generators;
};

// A registered family: its description, and its parts as held by the
// engines' registries.
struct FamilyInfo {
  std::string name;
  std::vector<std::string> text_kinds;
  std::string board;
  DrawFunction draw = nullptr;
  const PuzzleCompiler* compiler = nullptr;
  const RulesEncoder* rules = nullptr;
  std::vector<const PuzzleGenerator*> generators;
};

class FamilyRegistry {
 public:
  // Registers the family and its parts. INVALID_ARGUMENT for a family without
  // a compiler or a text kind, or whose compiler or rules are of another
  // kind (or the rules of another oneof case); ALREADY_EXISTS when its name,
  // oneof case, a text kind or a generator is taken. A refused family leaves
  // the registry as it was.
  absl::Status Register(Family family);

  // The family of that name, or null.
  const FamilyInfo* Find(absl::string_view name) const {
    return families_.Find(name);
  }
  // Every family, in registration order.
  std::vector<const FamilyInfo*> All() const { return families_.All(); }

  // The engines' views, filled by Register.
  const CompilerRegistry& compilers() const { return compilers_; }
  const EncoderRegistry& encoders() const { return encoders_; }
  const GeneratorRegistry& generators() const { return generators_; }

 private:
  Registry<FamilyInfo> families_{"family"};
  absl::flat_hash_set<std::string> text_kinds_;
  CompilerRegistry compilers_;
  EncoderRegistry encoders_;
  GeneratorRegistry generators_;
};

}  // namespace qs

#endif  // QS_CORE_FAMILIES_FAMILY_H_
