// Chess-piece problems of [Mata Ali & Mencia 2024] §2.6. Each cell of an N x M
// board takes no piece or one given piece type P_ij (queen, rook, bishop,
// knight, king or a custom move set); C(M_Pij)_ij is the set of cells the piece
// reaches from (i, j). Variable x_ij ("a piece on (i, j)") exists for the cells
// that take a piece, numbered in row-major order. The threat term (eq. 24)
//   sum_ij sum_{(l,m) in C(M_Pij)_ij} x_ij x_lm
// gives a pair 1 when one piece reaches the other and 2 when both do.
//
// Coloured Chess Piece Problem (eq. 25):
//   sum_k (1 - sum_{(i,j) in R'_k} x_ij)^2 + threat term.
// Valid boards have energy 0.
//
// Max Chess Pieces Problem (eq. 27):
//   -sum_ij w_Pij x_ij + lambda * threat term.
// Removing a piece that threatens or is threatened changes the energy by
// w - lambda * (its threat coefficients) <= w - lambda, so lambda > max w makes
// every minimum threat-free. With an asymmetric pair (a queen a knight's move
// from a knight, coefficient 1) lambda = max w ties, so the bound is tight.
// Default lambda: 2 max w.
//
// Sliding pieces are not blocked: C(M) depends on the cell alone, as in the
// paper, and a placement is threat-free without blocking exactly when it is
// with blocking, because a piece that reaches a cell behind another piece also
// reaches that piece. Cells that take no piece do not stop a slide either (an
// irregular board is the rectangle with those cells fixed empty, [Mata Ali &
// Mencia 2024] §2.3).
//
// Reductions: "placed" fixes the pre-placed pieces to 1 (REDUCTION_CLUES);
// "implied" empties their regions, the cells they reach and the cells whose
// piece would reach them (REDUCTION_FULL, the default).
//
// Exactly-one groups (CompiledProblem::one_hot_groups, for the samplers' swap
// moves), Coloured problem only: each region, then the rows and the columns
// when each line's pieces all threaten one another and the lines holding
// variables are as many as the regions (N queens or rooks under N regions).
//
// Boards: rows of piece letters (Q R B N K, custom symbols) on occupied cells,
// '.' on empty cells and '#' on cells that take no piece; cells hold 1 for a
// piece, 0 otherwise. For the Max problem
// Validate accepts threat-free placements to which no piece can be added;
// whether one is a maximum shows in its energy, not in the report.
#ifndef QS_CORE_FAMILIES_CHESS_CHESS_H_
#define QS_CORE_FAMILIES_CHESS_CHESS_H_

#include <memory>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewChessCompiler();

// The rules of a chess puzzle over its model's variables (0-based, the cells
// that take a piece in row-major order), for the exact engines.
struct ChessRules {
  int num_variables = 0;
  bool max_variant = false;
  // Coloured problem: the variables of each region (one piece in each).
  std::vector<std::vector<int>> regions;
  // Pairs (a < b) where one piece reaches the other: never both.
  std::vector<std::pair<int, int>> threats;
  // Pre-placed pieces.
  std::vector<int> placed;
};

// Checks the spec like Compile and states its rules.
absl::StatusOr<ChessRules> ChessRulesOf(const v1::ChessPuzzle& chess);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_CHESS_CHESS_H_
