// One restart of tabu search with the moves that keep a problem's exactly-one
// groups (docs/tabu.md, "Moves that keep the groups"): from a start inside
// the groups, make the best move that is not tabu (or is tabu but leads below
// the restart's best: aspiration) among
//   - a one-hot swap: a one-way group's 1 moves to another member;
//   - a two-way exchange: two rows of a permutation block trade columns (the
//     swap neighbourhood of Taillard's robust tabu search for the QAP);
//   - a single flip of a variable in no group;
// so every state visited keeps the groups. A move is tabu when every variable
// it sets to 1 was flipped within the last `tenure` moves (for an exchange:
// both rows would return to columns they left). Energy changes come from the
// local fields f_i = a_i + sum_j b_ij x_j and the couplings among the moved
// variables, exactly as a sum of single flips. Ties are broken uniformly at
// random from the restart's own stream; the result depends on the start and
// the seed alone.
#ifndef QS_CORE_SAMPLE_TABU_GROUP_TABU_SEARCH_H_
#define QS_CORE_SAMPLE_TABU_GROUP_TABU_SEARCH_H_

#include <cstdint>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/rng.h"
#include "core/qubo/qubo.h"
#include "core/sample/group_structure.h"
#include "core/sample/tabu/tabu_search.h"

namespace qs {

// The units a group move moves: rows of the permutation blocks, one-way
// groups and free variables. A sweep of the group search is this many moves.
int64_t GroupTabuUnits(const GroupStructure& structure);

// The tenure of the group moves by default: the size of the largest
// permutation block (robust tabu search's rule for the QAP: a row may not
// return to a column it left for about n moves; shorter tenures measured
// worse on TSP and QAP models, docs/tabu.md), and at least min(20, units / 4)
// as single flips have it.
int DefaultGroupTabuTenure(const GroupStructure& structure);

// Runs one restart from `start`, which must keep `structure` (MoveIntoGroups).
// TabuRunResult::attempts counts the moves evaluated. Polls the interrupter
// about every kTabuPollWork evaluations and field updates.
TabuRunResult RunGroupTabu(const Qubo& model, const GroupStructure& structure,
                           std::vector<uint8_t> start, uint64_t seed,
                           const TabuRunOptions& options,
                           Interrupter& interrupter);

// Makes max(1, round(share * units)) random group moves on `state` (which
// keeps `structure`): a random unit each time, exchanged with another row of
// its block, swapped to another member of its group, or flipped.
void PerturbInGroups(const GroupStructure& structure, double share,
                     Xoshiro256& rng, std::vector<uint8_t>& state);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_TABU_GROUP_TABU_SEARCH_H_
