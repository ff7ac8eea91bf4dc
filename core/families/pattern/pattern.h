// Nonogram (Simon Tatham's "Pattern") as a QUBO over the start positions of
// the runs (docs/pattern.md). A line (a row, left to right, or a column, top
// to bottom) of n cells with clue l_1..l_k has, for run i, one variable
// y(i, s) per start s it can take at all: lo_i..hi_i with
//   lo_i = sum_{j<i} (l_j + 1),  hi_i = n - sum_{j>=i} l_j - (k - 1 - i).
// The variables are numbered line by line (the rows top to bottom, then the
// columns left to right), run by run, start by start. The full model is
//   sum_runs (1 - sum_s y(i, s))^2                       (one start per run)
//   + sum_lines sum_i sum_{t < s + l_i + 1} y(i, s) y(i+1, t)
//                                (runs in order, at least one cell apart)
//   + sum_cells (R_c - C_c)^2    (the rows and the columns agree on the cell)
//   + sum_{given filled} (1 - R_c)^2 + sum_{given empty} R_c
// with R_c (C_c) the sum of the row's (column's) start variables whose run
// covers cell c: 1 when the row's placement fills c, 0 when it leaves it
// empty. Every term is non-negative and integer, a valid board zeroes them
// all: the ground energy is 0 and every broken rule costs at least 1. No
// auxiliary variables.
//
// Reductions (CompiledProblem.stages), each keeping every valid board:
// "clues" (REDUCTION_CLUES) drops the starts that cover a given empty cell or
// touch a given filled one; "overlap" fills the cells every remaining start
// of a run covers and empties the cells no run can reach, one pass over the
// lines, and drops the starts those cells contradict; "line_solving"
// (REDUCTION_FULL, the default) solves each line exactly (every placement
// that fits its known cells) over rows and columns to a fixpoint. After each
// stage a run left with one start takes it.
//
// Boards: cells[i] is 1 for a filled cell, 0 for an empty one; rows print
// '#' and '.'. Decode reads the board from the rows' start variables.
#ifndef QS_CORE_FAMILIES_PATTERN_PATTERN_H_
#define QS_CORE_FAMILIES_PATTERN_PATTERN_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/pattern.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewPatternCompiler();

// One row or column and the start variables of its runs.
struct PatternLine {
  bool is_row = true;
  int index = 0;               // the row or column number, 0-based
  std::vector<int> cells;      // cell indices along the line
  std::vector<int> runs;       // the clue
  std::vector<int> lo, hi;     // the starts each run can take at all
  std::vector<int> first_var;  // the variable of (run i, start lo[i])

  int size() const { return static_cast<int>(cells.size()); }
  int Var(int run, int start) const { return first_var[run] + start - lo[run]; }
};

// A checked puzzle.
struct PatternGrid {
  int rows = 0;
  int cols = 0;
  std::vector<PatternLine> lines;  // the rows, then the columns
  std::vector<int8_t> given;       // per cell: -1 none, 0 empty, 1 filled
  int num_variables = 0;

  int size() const { return rows * cols; }
  const PatternLine& row(int r) const { return lines[r]; }
  const PatternLine& col(int c) const { return lines[rows + c]; }
};

// Checks the spec (INVALID_ARGUMENT naming the field) and numbers the
// variables.
absl::StatusOr<PatternGrid> PatternGridOf(const v1::PatternPuzzle& puzzle);

// The full model's variable count from the clues alone, unchecked and
// saturating (PuzzleCompiler::ModelVariables).
int64_t PatternModelVariables(const v1::PatternPuzzle& puzzle);

// The run lengths of a line of cells (1 filled).
std::vector<int> PatternRunsOf(std::span<const uint8_t> line);

// Line solving, shared by the compiler's reduction and the generator. A state
// of partial knowledge: per cell -1 unknown, 0 empty, 1 filled; per variable,
// whether the start is still possible.
struct PatternKnowledge {
  std::vector<int8_t> cell;
  std::vector<uint8_t> allowed;
};

// The knowledge the givens alone give (every start allowed).
PatternKnowledge InitialKnowledge(const PatternGrid& grid);

// Solves one line exactly: keeps the starts that belong to some placement of
// all its runs fitting its known cells, and sets the cells every such
// placement agrees on. Returns whether anything changed; false in
// *consistent when no placement fits.
bool SolveLine(const PatternLine& line, PatternKnowledge& knowledge,
               bool* consistent);

// The overlap technique on one line: the cells every remaining start of a
// run covers are filled, the cells no remaining start of any run covers are
// empty. Returns whether a cell changed; false in *consistent when a cell
// would be both.
bool OverlapLine(const PatternLine& line, PatternKnowledge& knowledge,
                 bool* consistent);

// Drops the starts of a line that cover a known empty cell or touch a known
// filled one at either end. Returns whether a start was dropped.
bool DropContradictedStarts(const PatternLine& line,
                            PatternKnowledge& knowledge);

// SolveLine over every row and column until nothing changes. False when the
// clues contradict each other.
bool SolveLinesToFixpoint(const PatternGrid& grid, PatternKnowledge& knowledge);

// The start variables of a board whose every line matches its clue (1 at each
// run's start); INVALID_ARGUMENT naming the first line that does not.
absl::StatusOr<std::vector<uint8_t>> PatternStartsOfBoard(
    const PatternGrid& grid, std::span<const uint8_t> filled);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_PATTERN_PATTERN_H_
