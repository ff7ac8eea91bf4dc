// The Light Up rules (docs/lightup.md §6, as the validator in lightup.cc has
// them) as Boolean constraints over the QUBO's cell variables l_i ("a light
// on cell i", index r * cols + c):
// - black cells hold no light (the "blacks" reduction);
// - at most one light per row or column segment ([Bryant 2019]'s at-most-one
//   ladder): no light lights another;
// - every white cell has a light among the cells that light it, its row and
//   column segments: one clause per cell;
// - a numbered cell has exactly its number of lights on its white side
//   neighbours: a cardinality constraint.
// These are exactly the QUBO's ground states, so nothing lies beyond it and
// no auxiliary variable is needed (the BDD counter can count them).
#include <memory>
#include <vector>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/lightup/lightup.h"

namespace qs {
namespace {

class LightupEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "lightup"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kLightup;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const LightupBoard b, CheckLightupSpec(spec.lightup()));
    auto x = [](int cell) { return cell + 1; };
    std::vector<int> literals;
    for (int cell = 0; cell < b.size(); ++cell) {
      if (!b.IsWhite(cell)) sink.AddUnit(-x(cell));
    }
    for (const std::vector<int>& segment : b.segments) {
      if (segment.size() < 2) continue;
      literals.clear();
      for (int cell : segment) literals.push_back(x(cell));
      sink.AddAtMostOne(literals);
    }
    for (int cell = 0; cell < b.size(); ++cell) {
      if (!b.IsWhite(cell)) continue;
      literals.clear();
      for (int l : b.Lighters(cell)) literals.push_back(x(l));
      sink.AddClause(literals);
    }
    // Numbers are the puzzle's clues: off, the rules are those of its bare
    // grid of black cells.
    if (!options.clues) return absl::OkStatus();
    for (int clue : b.numbered) {
      literals.clear();
      for (int n : b.WhiteNeighbours(clue)) literals.push_back(x(n));
      sink.AddCardinality(literals, b.number[clue], b.number[clue]);
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewLightupEncoder() {
  return std::make_unique<LightupEncoder>();
}

}  // namespace qs
