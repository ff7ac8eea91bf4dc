// The Towers rules (docs/towers.md §4) as Boolean constraints over the QUBO's
// variables, for `sat` and Count:
// - the Latin square: exactly one height per cell, each height exactly once
//   per row and per column;
// - the givens as units;
// - per clue, the chain of the QUBO (towers.h, TowersChain) as clauses: one
//   state per position, "seen" implies the cell's height, the pairs the
//   QUBO penalises as binary clauses. On a Latin line they leave exactly the
//   true tallest-so-far states, so the chain variables are functions of the
//   heights and each board is one solution (no auxiliary variables of the
//   sink are needed, and the BDD counter may count small boards);
// - the clue itself: a cardinality constraint, exactly clue - 1 of the seen
//   states and "the last cell holds n" (the first building is always seen).
// With EncodeOptions.clues off the givens and the cardinalities are left
// out; the chains stay, still functions of the heights.
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/towers/towers.h"

namespace qs {
namespace {

class TowersEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "towers"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kTowers;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const TowersShape s, TowersShapeOf(spec.towers()));
    const int n = s.n;
    auto lit = [](int var) { return var + 1; };
    std::vector<int> group;
    for (int cell = 0; cell < n * n; ++cell) {
      group.clear();
      for (int h = 1; h <= n; ++h) group.push_back(lit(s.Var(cell, h)));
      sink.AddExactlyOne(group);
    }
    for (int line = 0; line < n; ++line) {
      for (int h = 1; h <= n; ++h) {
        group.clear();
        for (int k = 0; k < n; ++k)
          group.push_back(lit(s.Var(line * n + k, h)));
        sink.AddExactlyOne(group);
        group.clear();
        for (int k = 0; k < n; ++k)
          group.push_back(lit(s.Var(k * n + line, h)));
        sink.AddExactlyOne(group);
      }
    }
    if (options.clues) {
      for (int cell = 0; cell < n * n; ++cell) {
        if (s.givens[cell] != 0) sink.AddUnit(lit(s.Var(cell, s.givens[cell])));
      }
    }
    for (const TowersClue& clue : s.clues) {
      const TowersChainRules rules = TowersChain(n, clue.cells, clue.first_aux);
      for (const std::vector<int>& states : rules.exactly_one) {
        group.clear();
        for (int v : states) group.push_back(lit(v));
        sink.AddExactlyOne(group);
      }
      for (const auto& [a, b] : rules.exclusive)
        sink.AddClause({-lit(a), -lit(b)});
      for (const auto& [a, b] : rules.implies)
        sink.AddClause({-lit(a), lit(b)});
      if (!options.clues) continue;
      group.clear();
      for (int v : rules.seen) group.push_back(lit(v));
      sink.AddCardinality(group, clue.clue - 1, clue.clue - 1);
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewTowersEncoder() {
  return std::make_unique<TowersEncoder>();
}

}  // namespace qs
