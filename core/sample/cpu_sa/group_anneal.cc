// AnnealReadsInGroups (group_anneal.h): the single-flip schedule driving the
// group moves of the replica kernel.
#include "core/sample/cpu_sa/group_anneal.h"

#include <vector>

namespace qs {
namespace {

// Adds the counters' growth since the last report to `stats`.
void CountMoves(GroupAnnealBatch& batch, KernelStats& stats) {
  const ReplicaCounters& now = batch.lanes->counters();
  stats.attempts += now.attempts - batch.counted.attempts;
  stats.accepted += now.accepted - batch.counted.accepted;
  batch.counted = now;
}

void WriteBack(const ReplicaBatch& lanes, std::span<KernelRead> reads) {
  std::vector<double> energies(reads.size());
  lanes.Energies(energies);
  for (size_t r = 0; r < reads.size(); ++r) {
    lanes.ReadState(static_cast<int>(r), reads[r].state);
    reads[r].energy = energies[r];
  }
}

}  // namespace

KernelStats AnnealReadsInGroups(KernelPath path, const KernelModel& model,
                                const GroupMoves& moves,
                                const ResolvedSchedule& schedule,
                                std::span<KernelRead> reads,
                                GroupAnnealBatch& batch,
                                Interrupter& interrupter,
                                const SweepWindow& window) {
  if (batch.lanes == nullptr) batch.lanes = NewReplicaBatch(path, model, reads);
  ReplicaBatch& lanes = *batch.lanes;
  KernelStats stats;
  std::vector<double> betas(lanes.size());
  double beta = -1;
  for (int64_t sweep = window.first; sweep < schedule.num_sweeps(); ++sweep) {
    if (window.slice > 0 && window.yield && sweep > window.first &&
        sweep % window.slice == 0 && window.yield()) {
      stats.yielded = true;
      stats.next_sweep = sweep;
      CountMoves(batch, stats);
      return stats;
    }
    if (schedule.BetaAt(sweep) != beta) {
      beta = schedule.BetaAt(sweep);
      betas.assign(betas.size(), beta);
      lanes.SetBetas(betas);
    }
    if (!GroupSweep(moves, lanes, interrupter)) {
      stats.interrupted = true;
      break;
    }
    ++stats.sweeps_done;
  }
  CountMoves(batch, stats);
  WriteBack(lanes, reads);
  return stats;
}

}  // namespace qs
