// The rules of Futoshiki / Unequal (docs/unequal.md "Rules for sat and
// Count") as Boolean constraints over the QUBO's one-hot variables x_{c,d}
// (core/families/unequal/unequal.h: index c * n + d): every cell holds
// exactly one digit and every digit stands exactly once in every row and
// column (the Latin square, as Sudoku's rules without boxes), every given
// holds, and each digit pair that two side neighbours may not hold (a sign
// a > b: d <= e; a bar: |d - e| != 1; an unbarred pair in adjacent mode:
// |d - e| = 1) is one binary clause, the same pairs the QUBO penalises.
#include <memory>
#include <vector>

#include "core/exact/encoder.h"
#include "core/families/unequal/unequal.h"

namespace qs {
namespace {

class UnequalEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "unequal"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kUnequal;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    absl::StatusOr<UnequalBoard> board = UnequalBoardOf(spec.unequal());
    if (!board.ok()) return board.status();
    const UnequalBoard& b = *board;
    const int n = b.size;
    auto x = [&](int cell, int d) { return b.Var(cell, d) + 1; };
    std::vector<int> unit(n);
    for (int cell = 0; cell < b.cells(); ++cell) {
      for (int d = 0; d < n; ++d) unit[d] = x(cell, d);
      sink.AddExactlyOne(unit);
    }
    for (int line = 0; line < n; ++line) {
      for (int d = 0; d < n; ++d) {
        for (int k = 0; k < n; ++k) unit[k] = x(line * n + k, d);
        sink.AddExactlyOne(unit);
        for (int k = 0; k < n; ++k) unit[k] = x(k * n + line, d);
        sink.AddExactlyOne(unit);
      }
    }
    // Givens and signs are the clues; without them the rules are those of
    // an empty Latin square.
    if (!options.clues) return absl::OkStatus();
    for (int cell = 0; cell < b.cells(); ++cell) {
      if (b.givens[cell] != 0) sink.AddUnit(x(cell, b.givens[cell] - 1));
    }
    for (const UnequalConstraint& k : b.constraints) {
      for (int d = 0; d < n; ++d) {
        for (int e = 0; e < n; ++e) {
          if (!UnequalAllows(k.relation, d + 1, e + 1))
            sink.AddClause({-x(k.a, d), -x(k.b, e)});
        }
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewUnequalEncoder() {
  return std::make_unique<UnequalEncoder>();
}

}  // namespace qs
