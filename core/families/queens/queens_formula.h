// The queens rules as [Bryant 2019]'s formula over either encoding, for the
// exact engines when a problem is compiled with ENCODING_BINARY:
//   BIN: bits(M) variables per row (the layout of
//   core/families/queens/queens_binary.h),
//        SELECT S_rc = AND_i (x_ri XNOR bin(c, i));
//   ONH: one variable per cell, S_rc = v_rc (for the Table 1 comparison).
// UNIQUE: BIN H_r = OR_c S_rc (a code names one column, so "at least one
// board cell" is "exactly one"; codes >= M and masked cells select nothing);
// ONH the E / H chains. CONFLICT: along every at-most-one line (columns,
// whole diagonals, regions of at most one) the chain U_j = U_{j+1} AND NOT S_j
// from the line's last cell up, the paper's D, L and R. ROW: V_r = H_r AND_c
// [NOT S_rc OR (the chains below (r, c))]. Short-range attacks (adjacent
// diagonals, distances, free sets) add NOT S_b to the chains of a; given
// queens, empty units and regions of exactly one whose count the others do not
// imply are conjoined into the V_r of their row. V = AND_r V_r, rows joined
// from the bottom up.
//
// Operations are gates of the BoolCircuit (two-input AND / OR, negation free,
// constant inputs folded), by the constraint of Table 1 they build. For
// N-queens (docs/binary-encoding.md derives them):
//   SELECT   BIN (bits - 1) N^2                     ONH 0
//   UNIQUE   BIN N (N - 1)                          ONH N (4N - 5)
//   CONFLICT N (N - 2) + 2 (N - 2)^2
//   ROW      (N - 1)(4N - 2)
//   overall  N - 1
// against the paper's bits N^2, N^2 / 4N^2, 3N^2, 4N^2: the paper writes one
// operation per bit of S and counts the recurrences over whole rows and
// columns, boundary constants and unused chain ends included.
#ifndef QS_CORE_FAMILIES_QUEENS_QUEENS_FORMULA_H_
#define QS_CORE_FAMILIES_QUEENS_QUEENS_FORMULA_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "core/exact/circuit.h"
#include "core/exact/exact_solver.h"
#include "core/families/queens/queens.h"

namespace qs {

// The diagonal lines of a board in row-major order of their first cell, each
// listed from that cell along the step (1, dc): two cells attack each other
// along whole diagonals exactly when they share a line (queens_rules.cc).
std::vector<std::vector<int>> QueensDiagonalLines(int rows, int cols,
                                                  v1::QueensTopology topology);

// Gates built per constraint of [Bryant 2019]'s Table 1.
struct QueensFormulaOps {
  int64_t select = 0;
  int64_t unique = 0;
  int64_t conflict = 0;
  int64_t row = 0;
  int64_t overall = 0;  // joining the rows (linear, not in Table 1)
  int64_t total() const { return select + unique + conflict + row + overall; }
};

struct QueensFormula {
  BoolCircuit circuit{0};
  QueensFormulaOps ops;
};

// The formula of `rules` (which must pass CheckBinaryRules: every row holds
// exactly one queen, every other unit at most one), over rows * bits(cols)
// variables when `binary`, else over the rows * cols cells. With clues off the
// given queens are left out.
absl::StatusOr<QueensFormula> BuildQueensFormula(const QueensRules& rules,
                                                 bool binary, bool clues);

// The exact engines on a queens problem compiled with ENCODING_BINARY: the
// rules as [Bryant 2019]'s BIN formula over the problem's bits(M) variables
// per row, so that solutions are that problem's full assignments. The count's
// encoding reports the formula's gates (bdd_operations for a BDD, auxiliary
// variables for CNF, one per gate).
absl::StatusOr<ExactSolveResult> SolveQueensBinary(
    const v1::PuzzleSpec& spec, int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter = nullptr);
absl::StatusOr<CountResult> CountQueensBinary(const v1::PuzzleSpec& spec,
                                              uint64_t limit,
                                              CountMethod method,
                                              Interrupter* interrupter);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_QUEENS_QUEENS_FORMULA_H_
