// Annealing with the moves that keep a problem's exactly-one groups (backend
// "cpu-sa" with group moves; docs/backends.md, "cpu-sa: moves that keep the
// groups"): the schedule of the single-flip kernel, but each sweep runs the
// group moves of core/sample/pt/group_moves.h on a lane batch of the replica
// kernel, every lane at the sweep's beta. This is the Digital Annealer's
// treatment of one-way and two-way groups in an annealer's schedule.
//
// Reproducibility as in sa_kernel.h: a read's result depends on its seed only,
// never on the SIMD path, the lane, the thread count or where its calls
// yielded (the batch keeps every read's stream from call to call).
#ifndef QS_CORE_SAMPLE_CPU_SA_GROUP_ANNEAL_H_
#define QS_CORE_SAMPLE_CPU_SA_GROUP_ANNEAL_H_

#include <memory>
#include <span>

#include "core/base/interrupter.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/pt/group_moves.h"
#include "core/sample/pt/replica_kernel.h"
#include "core/sample/schedule.h"

namespace qs {

// One lane batch of reads between the calls of its anneal.
struct GroupAnnealBatch {
  std::unique_ptr<ReplicaBatch> lanes;
  ReplicaCounters counted;  // the counters the last call reported up to
};

// Runs the window's sweeps of the schedule on `reads` (at most
// KernelLanes(path) of them, their states inside moves.structure), by the
// group moves at each sweep's beta, Metropolis acceptance. The first call
// builds `batch` from the reads; a call that yields at a slice boundary
// leaves the states in it for the next. A call that ends (the schedule's
// end, or the interrupter) writes each read's state and its energy without
// the offset back. `path` must be resolved; `model` and `moves` must outlive
// the batch.
KernelStats AnnealReadsInGroups(KernelPath path, const KernelModel& model,
                                const GroupMoves& moves,
                                const ResolvedSchedule& schedule,
                                std::span<KernelRead> reads,
                                GroupAnnealBatch& batch,
                                Interrupter& interrupter,
                                const SweepWindow& window = {});

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_GROUP_ANNEAL_H_
