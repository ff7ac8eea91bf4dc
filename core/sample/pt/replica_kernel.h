// The replica kernel of backend "pt" (docs/parallel-tempering.md): replicas of
// one parallel-tempering ladder held one per SIMD lane, each at its own
// inverse temperature, swept with the single-flip Metropolis sweep of the
// annealing kernel (core/sample/cpu_sa/sa_lanes.inc), plus the moves that keep
// exactly-one groups (a swap of a group's 1 to another member, an exchange of
// two rows' columns in a permutation block) and the replicas' energies for the
// exchanges. A batch keeps its state between calls,
// so a ladder sweeps, measures and exchanges without rebuilding fields.
//
// Reproducibility as in sa_kernel.h: a replica's stream and updates depend on
// its seed and its sequence of temperatures only, never on the SIMD path or the
// lane it runs in.
#ifndef QS_CORE_SAMPLE_PT_REPLICA_KERNEL_H_
#define QS_CORE_SAMPLE_PT_REPLICA_KERNEL_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/base/interrupter.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/group_structure.h"

namespace qs {

// Exactly-one groups in the kernel's form: members and, per group, the
// |g| x |g| couplings between its members (kernel units), which a swap's
// energy change needs, and their largest value, which lets most proposals be
// rejected without reading them.
struct SwapGroups {
  std::vector<uint32_t> start;  // group g: members[start[g] .. start[g + 1])
  std::vector<uint32_t> members;
  std::vector<uint32_t> coupling_start;  // group g's matrix, row-major
  std::vector<float> coupling;
  std::vector<float> max_coupling;  // group g's largest b_ij, i != j
  int size() const { return static_cast<int>(start.size()) - 1; }
};

// b_ij * scale of the model's edge i-j; 0 when there is none.
float KernelEdgeWeight(const KernelModel& model, uint32_t i, uint32_t j);

// The groups of at least two members over valid variable indices; others are
// left out.
SwapGroups MakeSwapGroups(const KernelModel& model,
                          const std::vector<std::vector<int32_t>>& groups);

// Variables [begin, end) swept together between two polls (`work` lane-edge
// updates on 16 lanes).
struct SweepRange {
  uint32_t begin = 0;
  uint32_t end = 0;
  int64_t work = 0;
};

// The ranges of `variables` (ascending), cut where the model's poll chunks
// end.
std::vector<SweepRange> SweepRangesOf(const KernelModel& model,
                                      const std::vector<int32_t>& variables);

// Move counters of a batch, summed over its live lanes.
struct ReplicaCounters {
  int64_t attempts = 0;  // single-flip, swap and exchange proposals
  int64_t accepted = 0;
  int64_t swap_proposals = 0;
  int64_t swap_accepted = 0;
  int64_t exchange_proposals = 0;  // two-way moves of permutation blocks
  int64_t exchange_accepted = 0;
};

class ReplicaBatch {
 public:
  virtual ~ReplicaBatch() = default;
  // Replicas the batch holds (its live lanes).
  virtual int size() const = 0;
  // Each replica's inverse temperature (size()).
  virtual void SetBetas(std::span<const double> betas) = 0;
  // One Metropolis sweep of every replica in index order. Polls the
  // interrupter every kPollWork lane-edge updates; false when it fired (the
  // sweep stopped part-way).
  virtual bool Sweep(Interrupter& interrupter) = 0;
  // One swap proposal per group and replica, where the replica has exactly one
  // member of the group at 1. Polls like Sweep; false when the interrupter
  // fired.
  virtual bool SwapSweep(const SwapGroups& groups,
                         Interrupter& interrupter) = 0;
  // One Metropolis sweep of every replica over `ranges` only (the variables
  // in no group, when the groups' own moves move the rest). Polls after each
  // range; false when the interrupter fired.
  virtual bool SweepRanges(std::span<const SweepRange> ranges,
                           Interrupter& interrupter) = 0;
  // `size` two-way proposals per block and replica (about a sweep of its
  // rows): rows i != j drawn uniformly,
  // their set cells (i, a) and (j, b) go to 0 and (i, b), (j, a) to 1, one
  // Metropolis decision on the four flips. A replica whose rows are not each
  // one-hot, or whose target cells were reduced away, rejects. Then
  // max(1, size / 8) reversal proposals per block and replica: columns
  // p < q drawn uniformly, the rows set in p .. q take them in reverse order
  // (2-opt where the columns are a tour's positions), one Metropolis decision
  // on the 2 (q - p + 1) flips. Both count as exchanges. Polls like Sweep;
  // false when the interrupter fired.
  virtual bool ExchangeSweep(std::span<const PermutationBlock> blocks,
                             Interrupter& interrupter) = 0;
  // Each replica's energy without the offset, in the model's units (of the
  // kernel's grid: exact when KernelModel::exact).
  virtual void Energies(std::span<double> out) const = 0;
  virtual void ReadState(int replica, std::vector<uint8_t>& out) const = 0;
  // Its local fields (kernel units), which a batch built from reads that
  // carry them starts from.
  virtual void ReadField(int replica, std::vector<float>& out) const = 0;
  // Exchanges replica `lane`'s state, fields and random stream with replica
  // `other_lane` of `other`, a batch of the same path and model: the replicas
  // trade places, their temperatures stay with the lanes.
  virtual void ExchangeReplicas(int lane, ReplicaBatch& other,
                                int other_lane) = 0;
  virtual const ReplicaCounters& counters() const = 0;
};

// A batch of reads.size() <= KernelLanes(path) replicas starting from the
// reads' states and streams, and from their fields when every read carries
// num_variables of them (KernelRead::field, as ReadField gives them). `path`
// must be resolved; `model` must outlive the batch.
std::unique_ptr<ReplicaBatch> NewReplicaBatch(
    KernelPath path, const KernelModel& model,
    std::span<const KernelRead> reads);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PT_REPLICA_KERNEL_H_
