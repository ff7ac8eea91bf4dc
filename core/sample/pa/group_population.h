// The population of backend "pa" with the moves that keep a problem's
// exactly-one groups (docs/population-annealing.md, "Moves that keep the
// groups"): each member's state and local fields are kept between steps, and
// a step runs each block of KernelLanes(path) members as a lane batch of the
// replica kernel (core/sample/pt/replica_kernel.h) at the step's beta, each
// sweep the group moves of core/sample/pt/group_moves.h. Resampling copies a
// member's state and fields, so no step sums the edges again.
//
// Reproducibility as in population_kernel.h: a member's sweeps depend on its
// state, its seed and beta only, never on the SIMD path or the lane it runs in.
#ifndef QS_CORE_SAMPLE_PA_GROUP_POPULATION_H_
#define QS_CORE_SAMPLE_PA_GROUP_POPULATION_H_

#include <memory>

#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/pa/population_kernel.h"
#include "core/sample/pt/group_moves.h"

namespace qs {

// A population of `size` members with every state 0 until set; the states
// set must keep moves.structure. `path` must be resolved; `model` and
// `moves` must outlive the population.
std::unique_ptr<PopulationLanes> NewGroupPopulation(KernelPath path,
                                                    const KernelModel& model,
                                                    const GroupMoves& moves,
                                                    int size);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PA_GROUP_POPULATION_H_
