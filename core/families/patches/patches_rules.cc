// The Patches rules as Boolean constraints over the QUBO's candidate
// variables (core/families/patches/patches.h; variable v + 1 is candidate v of
// PatchCandidates): exactly one candidate per clue and exactly one candidate
// covering each cell. A candidate holding a second clue is false, as the
// "other_clues" reduction has it (the two exactly-one rules imply it, stating
// it spares the solver the search). Each solution is one tiling, so counting
// solutions counts tilings; no auxiliary variables, so small boards count
// with a BDD. The clues are the variables themselves (a clue's shape and area
// decide which candidates exist), so EncodeOptions.clues has nothing to leave
// out: the generator states the areas and shapes it may hide as selectors of
// its own, over the puzzle with every shape "any" and every area hidden.
#include <memory>
#include <vector>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/patches/patches.h"

namespace qs {
namespace {

class PatchesEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "patches"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kPatches;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec,
                      const EncodeOptions& /*options*/,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const PatchesBoard b, CheckPatches(spec.patches()));
    const std::vector<PatchRect> candidates = PatchCandidates(b);
    std::vector<std::vector<int>> of_clue(b.clues.size());
    std::vector<std::vector<int>> covering(b.size());
    for (size_t v = 0; v < candidates.size(); ++v) {
      const PatchRect& p = candidates[v];
      const int x = static_cast<int>(v) + 1;
      if (HoldsOtherClue(b, p)) sink.AddUnit(-x);
      of_clue[p.clue].push_back(x);
      for (int r = p.row; r < p.row + p.height; ++r) {
        for (int c = p.col; c < p.col + p.width; ++c)
          covering[r * b.cols + c].push_back(x);
      }
    }
    for (const std::vector<int>& group : of_clue) sink.AddExactlyOne(group);
    for (const std::vector<int>& group : covering) sink.AddExactlyOne(group);
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewPatchesEncoder() {
  return std::make_unique<PatchesEncoder>();
}

}  // namespace qs
