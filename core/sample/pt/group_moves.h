// The moves that keep a problem's exactly-one groups (group_structure.h) in
// the replica kernel's form: single flips of the free variables, one-way
// swaps, two-way exchanges in the permutation blocks; and the beta range
// tuned on those moves (docs/parallel-tempering.md, "Moves that keep the
// groups"). Backend "pt" runs them on its ladders, "cpu-sa" on its anneals
// (core/sample/cpu_sa/group_anneal.h).
#ifndef QS_CORE_SAMPLE_PT_GROUP_MOVES_H_
#define QS_CORE_SAMPLE_PT_GROUP_MOVES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/qubo/qubo.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/group_structure.h"
#include "core/sample/pt/replica_kernel.h"
#include "core/sample/sampler.h"
#include "core/sample/schedule.h"

namespace qs {

struct GroupMoves {
  // True for the moves that keep the groups (MakeGroupMoves); false for
  // single flips of every variable plus one-hot swaps in every group
  // (FlipAndSwapMoves), which pass through states that break them.
  bool keeps_groups = true;
  GroupStructure structure;
  SwapGroups one_way;            // structure.one_way with their couplings
  std::vector<SweepRange> free;  // structure.free
  bool empty() const { return structure.empty(); }
  // What the summary's `moves` says ran: "single-flip", "one-hot-swap" and
  // "two-way-exchange" joined by '+', those with variables to move.
  std::string Names() const;
};

GroupMoves MakeGroupMoves(const KernelModel& model,
                          const std::vector<std::vector<int32_t>>& groups);
// Single flips of every variable and a one-hot swap in every group, as
// declared (PT_MOVES_ONE_HOT_SWAP).
GroupMoves FlipAndSwapMoves(const KernelModel& model,
                            const std::vector<std::vector<int32_t>>& groups);

// MakeGroupMoves (keeps_groups) or FlipAndSwapMoves, once per compiled
// problem when `derived` is not null: pt and cpu-sa share it.
std::shared_ptr<const GroupMoves> CachedGroupMoves(
    const KernelModel& model, const std::vector<std::vector<int32_t>>& groups,
    bool keeps_groups, DerivedCache* derived);

// One sweep of the moves in a batch: single flips of the free variables, then
// the one-way swaps, then the two-way exchanges; false when the interrupter
// fired.
bool GroupSweep(const GroupMoves& moves, ReplicaBatch& batch,
                Interrupter& interrupter);

// The tuned rule (schedule.h) on the group moves: greedy descents by those
// moves from random starts that keep the groups, and the uphill costs of
// every move at the minima they reach. A single-flip range would be set by
// the penalties, which no group move pays: its cold end would stay far too
// hot. Empty when no move is uphill anywhere.
std::optional<BetaRange> GroupTunedBetaRange(const KernelModel& model,
                                             const GroupMoves& moves);
// GroupTunedBetaRange, or the single-flip tuned range of `qubo` when it is
// empty; once per compiled problem when `derived` is not null.
BetaRange CachedGroupBetaRange(const Qubo& qubo, const KernelModel& model,
                               const GroupMoves& moves, DerivedCache* derived);

// Where a sampler's `group_moves` field left unset runs the moves.
enum class GroupMovesDefault {
  // On a constrained model (no known ground energy), whose optimum is sought
  // among feasible states; a puzzle keeps single flips (cpu-sa, pa: keeping
  // its groups measured slower there, docs/backends.md).
  kModels,
  // Wherever the problem declares groups (tabu: its single flips measured
  // slower on puzzles too, docs/tabu.md).
  kEverywhere,
};

// The rule of a sampler's `group_moves` field: true where the problem
// declares groups and the request asks for the moves (GROUP_MOVES_ON) or
// leaves them to `unset`.
bool WantsGroupMoves(v1::GroupMoves wire, const SampleParams& params,
                     GroupMovesDefault unset);
// The moves where WantsGroupMoves (under kModels) and the groups give any;
// else null.
std::shared_ptr<const GroupMoves> RequestedGroupMoves(
    v1::GroupMoves wire, const KernelModel& model, const SampleParams& params);
// The same rule on the group structure alone (samplers outside the lane
// kernels); null for single flips.
std::shared_ptr<const GroupStructure> RequestedGroupStructure(
    v1::GroupMoves wire, int num_variables, const SampleParams& params,
    GroupMovesDefault unset);

// `params` with the ends of the beta range that BETA_RANGE_TUNED leaves open
// taken from CachedGroupBetaRange (a given end keeps its place and the tuned
// one yields to it, as in ResolveBetaRange); unchanged under another rule or
// an explicit schedule.
SampleParams WithGroupBetaRange(const Qubo& qubo, const KernelModel& model,
                                const GroupMoves& moves, SampleParams params);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PT_GROUP_MOVES_H_
