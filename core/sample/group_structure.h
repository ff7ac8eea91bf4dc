// The move structure a sampler builds from a compiled problem's exactly-one
// groups (CompiledProblem::one_hot_groups): Fujitsu's Digital Annealer keeps
// "one-way" groups (one bit set in a row) and "two-way" groups (a permutation
// matrix: one bit set in every row and every column) in every state it visits
// (docs/parallel-tempering.md, "Moves that keep the groups").
//
// The groups are declared as a flat list; the structure is found here:
//   - primary groups: disjoint groups taken greedily in declaration order
//     (the families declare the groups of their values first: a Sudoku cell's
//     digits, a Zip cell's steps, a TSP city's positions);
//   - permutation blocks: a set of primary groups (its rows) and as many
//     later groups (its columns) such that every member of a row lies in
//     exactly one column and every member of a column in exactly one row (a
//     Sudoku row's cells x its missing digits, Zip's cells x steps, a TSP's
//     cities x positions); members may be missing (reduced away), but rows
//     and columns must admit a permutation;
//   - one-way groups: the primary groups in no block;
//   - free variables: in none of those, moved by single flips.
// Later groups that do not form blocks (a Sudoku column's digit once the rows
// are blocks) are left to the QUBO's penalties.
#ifndef QS_CORE_SAMPLE_GROUP_STRUCTURE_H_
#define QS_CORE_SAMPLE_GROUP_STRUCTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/rng.h"

namespace qs {

// A square block of variables whose rows and columns are each exactly one:
// cell (r, c) is variable cells[r * size + c], or -1 where the reduction
// removed it.
struct PermutationBlock {
  int size = 0;
  std::vector<int32_t> cells;
  int32_t at(int row, int col) const { return cells[row * size + col]; }
};

struct GroupStructure {
  std::vector<PermutationBlock> blocks;
  std::vector<std::vector<int32_t>> one_way;  // disjoint, >= 2 members each
  // Variables in neither (ascending).
  std::vector<int32_t> free;
  bool empty() const { return blocks.empty() && one_way.empty(); }
};

// The structure of `groups` over variables 0 .. num_variables - 1 (indices
// outside that range make their group unusable). A block whose rows and
// columns admit no permutation of its present cells is split back into
// one-way rows.
GroupStructure FindGroupStructure(
    int num_variables, const std::vector<std::vector<int32_t>>& groups);

// A random state that keeps the structure: each block a random permutation
// of its present cells, each one-way group one random member, each free
// variable a fair coin. `state` is resized to num_variables.
void GroupRespectingState(const GroupStructure& structure, int num_variables,
                          Xoshiro256& rng, std::vector<uint8_t>& state);

// True when `state` keeps every block and one-way group of `structure`.
bool KeepsGroups(const GroupStructure& structure,
                 const std::vector<uint8_t>& state);

// A given start for moves that keep the groups, which can neither leave a
// state that breaks one nor enter it: unchanged when it keeps them, else its
// grouped variables drawn as GroupRespectingState draws them and its free
// ones kept.
void MoveIntoGroups(const GroupStructure& structure, Xoshiro256& rng,
                    std::vector<uint8_t>& state);

// What a summary's `moves` says the moves that keep `structure` are:
// "single-flip", "one-hot-swap" and "two-way-exchange" joined by '+', those
// with variables to move.
std::string MoveNames(const GroupStructure& structure);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_GROUP_STRUCTURE_H_
