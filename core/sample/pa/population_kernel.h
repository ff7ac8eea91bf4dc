// The population of backend "pa" (docs/population-annealing.md) held in the
// annealing kernel's lane layout: member m is lane m % KernelLanes(path) of
// block m / KernelLanes(path), and its state and local fields stay there from
// step to step. A step sweeps each block with the Metropolis sweep of
// core/sample/cpu_sa/sa_lanes.inc, and resampling copies lane columns, so no
// step moves a member in or out of the lanes or rebuilds its fields.
//
// Reproducibility as in sa_kernel.h: a member's sweeps depend on its state, its
// seed and beta only, never on the SIMD path or the lane it runs in; a member
// swept here from a state and a seed ends exactly as the same read of
// AnnealReads with one beta would.
#ifndef QS_CORE_SAMPLE_PA_POPULATION_KERNEL_H_
#define QS_CORE_SAMPLE_PA_POPULATION_KERNEL_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "core/base/interrupter.h"
#include "core/sample/cpu_sa/sa_kernel.h"

namespace qs {

class PopulationLanes {
 public:
  virtual ~PopulationLanes() = default;
  // Members held, and the blocks (of KernelLanes(path) lanes) they fill.
  virtual int size() const = 0;
  virtual int blocks() const = 0;
  // Member m's state (0/1 per variable); fields are summed by InitFields.
  virtual void SetState(int m, const std::vector<uint8_t>& state) = 0;
  // The local fields of every member from its state: O(edges) per block.
  virtual void InitFields() = 0;
  // `sweeps` Metropolis sweeps at `beta` of block b's members, member
  // b * lanes + l drawing from seeds[l]; writes their energies without the
  // offset (on the kernel's grid: exact when KernelModel::exact) to
  // energies[l]. Blocks may be swept concurrently. Polls the interrupter at
  // least every kPollWork lane-edge updates and stops mid-sweep when it fires
  // (the states stay valid).
  virtual KernelStats SweepBlock(int b, double beta, int64_t sweeps,
                                 std::span<const uint64_t> seeds,
                                 std::span<double> energies,
                                 Interrupter& interrupter) = 0;
  virtual void ReadState(int m, std::vector<uint8_t>& out) const = 0;
  // The population after a resampling that keeps copies[m] copies of member
  // m (copies.size() == size(), at least one copy in all). Survivors keep
  // their slots; extra copies fill the slots of the dropped members, then new
  // slots at the end, and the last members move down into the slots still
  // empty. Returns the member each new slot holds a copy of.
  virtual std::vector<int> Resample(std::span<const int> copies) = 0;
};

// The slots of a resampling that keeps copies[m] copies of member m, as
// PopulationLanes::Resample lays them out: calls copy(from, to) for each slot
// that takes a copy of another's member (in order: `to` may be past the
// current end, and `from` is never a slot already overwritten) and returns
// the member each slot of the new population holds.
std::vector<int> PlanResample(std::span<const int> copies,
                              absl::FunctionRef<void(int from, int to)> copy);

// A population of `size` members with every state 0 until set. `path` must be
// resolved; `model` must outlive the population.
std::unique_ptr<PopulationLanes> NewPopulationLanes(KernelPath path,
                                                    const KernelModel& model,
                                                    int size);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PA_POPULATION_KERNEL_H_
