// Tents & Trees as the QUBO of [Mata Ali & Mencia 2024] §2.5 (eq. 22). Variable
// x_ij ("a tent on cell (i, j)") has index i * cols + j. The full model over
// every cell is
//   sum_i (Nr_i - sum_j x_ij)^2 + sum_j (Nc_j - sum_i x_ij)^2
//       (row and column counts, eq. 10-11)
//   + sum_ij sum_{(k,l) in D'_ij} x_ij x_kl
//       (touching tents, each pair once, eq. 12)
//   + sum_trees (1 + 1/2 - sum_{(i,j) in R_k} x_ij)^2
//       (1 or 2 tents next to each tree, eq. 15)
// with D'_ij the neighbours right of and below (i, j) (8-neighbourhood) and R_k
// the orthogonal neighbours of tree k. A valid board leaves 1/4 in each tree
// term, so its energy is N_T / 4 for N_T trees, offset included. Reductions:
// "trees" fixes the tree cells to 0 (REDUCTION_CLUES); "outside_regions" fixes
// the cells next to no tree (the paper's second rule) and "zero_lines" the
// cells of rows and columns whose count is 0 (REDUCTION_FULL, the default).
// Exactly-one groups (CompiledProblem::one_hot_groups, for the samplers' swap
// moves): each tree's open region cells when no two of them face each other
// across the tree (they then touch diagonally), then each row and column whose
// count is 1.
//
// What the QUBO cannot say: the game pairs tents and trees one-to-one. A
// minimum of eq. 22 may put one tent between two trees and two tents around a
// third; Validate finds such boards with a bipartite matching and reports them
// as "tent_tree_pairing".
//
// Boards: rows of 'T' (tent), 'A' (tree), '.' (empty), '*' (a tent on a tree,
// possible only without the "trees" reduction); cells hold 1 for a tent, 0 for
// no tent (trees come from the puzzle), -1 for a tent on a tree. Validate reads
// the tents from cells (from rows when there are no cells) and compares the
// trees of rows, when given, with the puzzle's.
#ifndef QS_CORE_FAMILIES_TENTS_TENTS_H_
#define QS_CORE_FAMILIES_TENTS_TENTS_H_

#include <memory>

#include "core/compile/compiler.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewTentsCompiler();

}  // namespace qs

#endif  // QS_CORE_FAMILIES_TENTS_TENTS_H_
