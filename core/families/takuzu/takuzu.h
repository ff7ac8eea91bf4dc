// Takuzu / LinkedIn Tango (TTP) as the QUBO of [Mata Ali & Mencia 2025] §3 (eq.
// 11-14, 23; [Mata Ali & Mencia 2024] §3.2 eq. 50) and its generalizations
// ([Mata Ali & Mencia 2025] §4 eq. 24-28; [Mata Ali & Mencia 2024] §3.3:
// unbalanced counts, diagonal repetition eq. 53-54, count regions eq. 55,
// toroidal and cylindrical boards, long-distance signs, equality regions and
// different region pairs).
//
// Variable x_rc ("cell (r, c) holds 1") has index r * cols + c, all 0-based,
// label "r<r+1>c<c+1>". The full model is the sum, each term with weight 1, of
// - (3/2 - x_a - x_b - x_c)^2 for every repetition triple: rows, columns and,
//   if asked, diagonals, wrapping around joined edges (eq. 11-12, 53-54);
// - (k - sum of the cells)^2 for every row, column and count region that must
//   hold k ones (eq. 13-14, 24-25, 28);
// - x(1 - y) + (1 - x)y for every '=' sign and xy + (1 - x)(1 - y) for every
//   'x' sign (eq. 15-18); an equality region is a chain of '=' signs and a
//   pair of different regions one 'x' sign ([Mata Ali & Mencia 2024] §3.3.5).
// A valid board pays 1/4 per triple and 0 elsewhere, so the ground energy is
// (number of triples) / 4: (NM - N - M) / 2 for the plain N x M TTP, NM / 2 on
// a torus, plus (N - 2)(M - 2) / 2 with diagonals on a plane. The givens have
// no term: they enter by clamping (REDUCTION_CLUES and up), as in [Mata Ali &
// Mencia 2025] §3.
//
// The row/column uniqueness rule of Takuzu (unique_lines) has no QUBO term: a
// board that repeats a line can sit at the ground energy. Validate checks the
// rule, so a solve reports such boards as invalid samples (rules
// "duplicate_rows" / "duplicate_columns"); buffered samples (aggregate or
// max_sample_events) come valid first, the summary's best is the best valid
// board, and with stop_at_first_valid the solve stops only at a valid board
// (a target_energy is checked together with the rules), so it keeps sampling
// past boards that break only the uniqueness rule until its reads run out,
// and with a time limit in further rounds on derived seeds until its time
// runs out (docs/budgets.md §3).
//
// Reduction ([Mata Ali & Mencia 2025] §3, in the paper's order, each step one
// ReductionStage): "givens" fixes the given cells; then, repeated to a fixed
// point, "signs" fixes every cell linked by '=' / 'x' to a fixed cell, "lines"
// fills the rest of a row, column or count region whose ones (or zeros) are all
// placed, and "pairs" sets the third cell of a repetition triple opposite to
// two equal fixed cells (the paper's two equal neighbours forcing the next
// cells of their line, and likewise a gap between two equal cells); rounds
// after the first are named "signs.2", "lines.2", ... Last, "substitution"
// keeps one variable per chain of signs (union-find with parity; its
// representative is the left-most, then top-most cell) and writes the others as
// that variable or its negation, so the sign terms become constants.
// Contradictions met on the way are INVALID_ARGUMENT naming the cells.
//
// Exactly-one groups (CompiledProblem::one_hot_groups, for the samplers' swap
// moves): the rows, columns and count regions that must hold a single 1, after
// the reduction; none on a board of balanced lines longer than 2.
#ifndef QS_CORE_FAMILIES_TAKUZU_TAKUZU_H_
#define QS_CORE_FAMILIES_TAKUZU_TAKUZU_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/compile/compiler.h"
#include "qs/v1/takuzu.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewTakuzuCompiler();

// The rules of a Takuzu / Tango puzzle in plain terms, for the exact engines
// (core/families/takuzu/takuzu_rules.cc): the givens, the triples that must not
// hold three equal values, the counted lines and regions, the '=' / 'x'
// relations (signs, equality-region chains, different-region pairs), and
// whether rows and columns must be unique.
struct TakuzuRules {
  struct Relation {
    int a = 0;
    int b = 0;
    bool different = false;
    bool sign = false;  // from takuzu.signs (a clue), not from a region
  };
  struct Count {
    std::vector<int> cells;
    int ones = 0;
  };
  int rows = 0;
  int cols = 0;
  std::vector<int8_t> givens;  // per cell: -1 blank, else 0 / 1
  std::vector<std::array<int, 3>> triples;
  std::vector<Count> counts;
  std::vector<Relation> relations;
  bool unique_lines = false;
};

// Checks the spec like Compile and states its rules.
absl::StatusOr<TakuzuRules> TakuzuRulesOf(const v1::TakuzuPuzzle& puzzle);

// The paper's bound on the optimized variables ([Mata Ali & Mencia 2025] §3):
//   NM - N_I0 - N_I1 - N_He - N_Hc - N_Ve - N_Vc,
// where every sign between two cells (adjacent or not), every link of an
// equality-region chain and every pair of different regions counts as one sign.
// The full reduction never leaves more variables than this when no sign repeats
// what the givens and the other signs already say (no sign closes a cycle of
// signs or joins two cells already tied to givens); in general it leaves at
// most TakuzuIndependentVariableBound.
int64_t TakuzuPaperVariableBound(const v1::TakuzuPuzzle& puzzle);

// The number of classes of cells linked by signs (and equality regions) that
// hold no given: NM minus the rank of the givens and signs. Equal to
// TakuzuPaperVariableBound when no sign is redundant, larger by one per
// redundant sign. The full reduction never leaves more variables than this.
int64_t TakuzuIndependentVariableBound(const v1::TakuzuPuzzle& puzzle);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_TAKUZU_TAKUZU_H_
