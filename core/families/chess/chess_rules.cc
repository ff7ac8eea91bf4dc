// The Coloured Chess Piece Problem's rules ([Mata Ali & Mencia 2024] §2.6,
// eq. 23-25, decision version) as Boolean constraints over the QUBO's
// variables x_ij, one per cell that takes a piece (row-major): exactly one
// piece in each region ([Bryant 2019]'s UNIQUE chain), no
// piece reaching another (one clause per threatening pair: with a piece type
// fixed per cell and custom moves, threats need not run along lines that a
// chain could follow), and the pre-placed pieces stand. The Max Chess Pieces
// Problem (eq. 26-27) asks for an optimum, not a board that keeps rules, and
// is not encoded.
#include <memory>
#include <vector>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/chess/chess.h"

namespace qs {
namespace {

class ChessEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "chess"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kChess;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const ChessRules rules, ChessRulesOf(spec.chess()));
    if (rules.max_variant) {
      return absl::InvalidArgumentError(
          "chess.variant: the exact engines decide the Coloured Chess Piece "
          "Problem; CHESS_MAX asks for an optimum (sample its QUBO)");
    }
    auto x = [](int v) { return v + 1; };
    std::vector<int> literals;
    for (const std::vector<int>& region : rules.regions) {
      literals.clear();
      for (int v : region) literals.push_back(x(v));
      sink.AddExactlyOne(literals);
    }
    for (const auto& [a, b] : rules.threats) sink.AddClause({-x(a), -x(b)});
    if (options.clues) {
      for (int v : rules.placed) sink.AddUnit(x(v));
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewChessEncoder() {
  return std::make_unique<ChessEncoder>();
}

}  // namespace qs
