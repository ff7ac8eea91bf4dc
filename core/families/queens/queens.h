// The queens family of [Mata Ali & Mencia 2024] §2.1-2.4 as one compiler
// (kind "queens"): N-queens (eq. 1-4), LinkedIn Queens (eq. 5-9), the
// generalized queens problem (eq. 10-18: N x M and irregular boards, row /
// column / region counts with one or two allowed values, overlapping regions,
// pre-placed queens, per-cell diagonal distance or free attack sets, cylinder
// and torus) and N-queens with hard or soft regions (eq. 19-21). The spec is
// qs.v1.QueensPuzzle (proto/qs/v1/queens.proto).
//
// Variable x_rc ("a queen on cell (r, c)", 0-based) has index r * cols + c over
// the whole bounding rectangle and label "q(r,c)" (1-based). The model is eq.
// 18 plus the attack term:
//   Q = sum_u w_u (q_u + t_u / 2 - sum_{cells of u} x)^2 + sum_{attacking
//   pairs} x_a x_b
// over the units u: every row (eq. 10), every column (eq. 11), every colour
// region (eq. 8, 13, 15-17, or 20 for soft regions) and every extra region; eq.
// 21's pairwise soft regions add w x_a x_b per ordered pair instead. Every unit
// weight is 1 except soft regions (soft_region_weight). A board that keeps
// every rule scores sum_{u : t_u = 1} w_u / 4 (0 for the pure-penalty forms
// N-queens, LinkedIn, eq. 19, eq. 21); every other board scores more, since
// each term is a square of a half-integer offset or a product of binaries. That
// value is the CompiledProblem's ground_energy.
//
// Reduction (CompileOptions.reduction), one stage each, energies kept exactly
// by the variable map:
//   "mask"     (always) masked cells are fixed to 0: they are not on the board
//   (§2.3, Fig. 3). "givens"   (CLUES, FULL) pre-placed queens are fixed to 1.
//   "implied"  (FULL) every cell a pre-placed queen decides is fixed to 0: the
//   rest of each row, column
//              and region whose count the given queens fill (units with count 0
//              included), and every cell that attacks or is attacked by a given
//              queen (§2.2 initial condition, §2.3.1, §2.4).
// With FULL reduction and queens.drop_redundant_region_term the model also
// leaves out one colour-region term when the rows (or columns) already fix how
// many queens the regions hold: the regions then partition the board with exact
// counts, so the last region's count follows from the others (eq. 9: N - N_I -
// 1 region terms remain). The region left out is the one with the most free
// cells (fewest couplers); the ground states do not change. It is off by
// default because the annealer does better with the redundant term (see the
// field's comment in queens.proto).
//
// Validation checks the game's rules directly: row, column, region and
// extra-region counts, attacks, given queens kept, masked cells empty.
// Locations are 1-based rows, columns and cells "(r,c)"; regions are named by
// their id in queens.regions ("region 0"), extra regions by their index.
#ifndef QS_CORE_FAMILIES_QUEENS_QUEENS_H_
#define QS_CORE_FAMILIES_QUEENS_QUEENS_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/queens.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewQueensCompiler();

// The rules of a queens puzzle in plain terms, for the exact engines
// (core/families/queens/queens_rules.cc): each counted unit of eq. 18 (rows,
// columns, colour regions, extra regions; soft regions as "at most one") with
// the queens it may hold, the board cells only; the given queens; the attack
// sets.
struct QueensRules {
  struct Count {
    std::vector<int> cells;  // board cells (masked cells left out)
    int min = 0;
    int max = 0;
  };
  int rows = 0;
  int cols = 0;
  std::vector<bool> masked;
  v1::QueensTopology topology = v1::QUEENS_TOPOLOGY_PLANE;
  // Every row (rows entries), then every column (cols entries), then the
  // colour regions by id, then the extra regions.
  std::vector<Count> counts;
  std::vector<int> givens;
  // QUEENS_ATTACK_FULL_DIAGONALS (or the default): queens attack along whole
  // diagonal lines of the topology, so at most one queen stands on each.
  bool full_diagonals = false;
  // For each cell, the sorted cells a queen there attacks (as
  // QueensAttackSets).
  std::vector<std::vector<int>> attacks;
};

// Checks the spec like Compile and states its rules.
absl::StatusOr<QueensRules> QueensRulesOf(const v1::QueensPuzzle& queens);

// For each cell (row-major), the sorted cells a queen there attacks under the
// puzzle's attack rule and topology (the D''_ij of eq. 12; for FULL and
// ADJACENT diagonals the relation is symmetric). Checks the spec like Compile.
absl::StatusOr<std::vector<std::vector<int>>> QueensAttackSets(
    const v1::QueensPuzzle& queens);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_QUEENS_QUEENS_H_
