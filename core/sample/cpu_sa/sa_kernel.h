// The simulated-annealing kernel of backend "cpu-sa" (docs/architecture.md §1,
// "dwave-samplers SA kernel", and §4 "CPU SA"): Metropolis or Gibbs
// single-spin-flip sweeps in index order over a QUBO, with one read per SIMD
// lane. Each variable keeps its local field f_i = a_i + sum_j b_ij x_j, so
// flipping x_i costs delta_i = (1 - 2 x_i) f_i and only the neighbours' fields
// change after a flip.
//
// Reproducibility: every read owns its random stream (xorshift128, one draw per
// proposal, accepted or not) and every path (scalar, AVX2 with 8 lanes, AVX-512
// with 16 lanes) evaluates each lane with the same float operations, so a
// read's result depends on its seed only, never on the path, the lane it ran in
// or the thread count. Fields are exact: the coefficients are put on a grid of
// 1/scale with every possible field below 2^24 (KernelModel), so float sums of
// them never round.
#ifndef QS_CORE_SAMPLE_CPU_SA_SA_KERNEL_H_
#define QS_CORE_SAMPLE_CPU_SA_SA_KERNEL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/qubo/qubo.h"
#include "core/sample/sampler.h"
#include "core/sample/schedule.h"

namespace qs {

// One neighbour j of a variable: its byte offset j * 64 in the 16-lane field
// array (narrower paths shift it down), which saves the kernel an index
// computation per update, and the coefficient.
struct KernelEdge {
  uint32_t offset;
  float w;  // b_ij * scale
};

// Lane-edge updates between two polls of the interrupter: about 0.3 ms of the
// scalar path, less on SIMD.
inline constexpr int64_t kPollWork = int64_t{1} << 18;

// Variables a KernelModel can hold (offsets are 32-bit).
inline constexpr int kMaxKernelVariables = 1 << 26;

// A Qubo in the kernel's units, built once per request and shared by every
// batch.
struct KernelModel {
  int num_variables = 0;
  // Kernel units per energy unit: the largest power of two (within the normal
  // floats) that keeps every possible field, scale * max_i(|a_i| + sum_j
  // |b_ij|) after rounding, within 2^24 (the float mantissa).
  float scale = 1;
  // True when every coefficient times scale was already an integer: the kernel
  // sees the model exactly. Otherwise coefficients are rounded to the nearest
  // 1/scale (energies are still reported exactly).
  bool exact = true;
  std::vector<float> linear;  // a_i * scale
  // Neighbours of i: edges[row_start[i] .. row_start[i + 1]).
  std::vector<uint32_t> row_start;
  std::vector<KernelEdge> edges;
  // Variable ranges between interrupter polls: chunk k is [chunk_end[k - 1],
  // chunk_end[k]), each holding at most about kPollWork lane-edge updates (a
  // fraction of a millisecond on any path).
  std::vector<uint32_t> chunk_end;
  std::vector<int64_t> chunk_work;
};

// RESOURCE_EXHAUSTED past kMaxKernelVariables; INVALID_ARGUMENT when a row's
// coefficients sum beyond 2^150 (the float range of the grid).
absl::StatusOr<KernelModel> MakeKernelModel(const Qubo& model);
// MakeKernelModel once per compiled problem (kept in `derived` when not null),
// shared by the samplers that run this kernel.
absl::StatusOr<std::shared_ptr<const KernelModel>> CachedKernelModel(
    const Qubo& model, DerivedCache* derived);

// One read of a batch: its starting state (replaced by the final one) and the
// seed of its stream.
struct KernelRead {
  std::vector<uint8_t> state;  // 0/1 per variable
  uint64_t rng_seed = 0;
  // Set by the kernel: the final state's energy without the offset, of the
  // model on the kernel's grid (exact when KernelModel::exact).
  double energy = 0;
  // With keep_field the kernel stores the final local fields (kernel units)
  // in `field`; a call whose reads all carry n fields starts from them
  // instead of summing the edges again (population annealing's steps).
  bool keep_field = false;
  std::vector<float> field;
};

struct KernelStats {
  int64_t sweeps_done = 0;  // per read (every read of a batch does the same)
  int64_t attempts = 0;     // proposals, summed over the reads
  int64_t accepted = 0;     // accepted flips, summed over the reads
  bool interrupted = false;
  // The call stopped at a slice boundary because SweepWindow::yield asked it
  // to; the reads hold their states there and the next call resumes at
  // next_sweep.
  bool yielded = false;
  int64_t next_sweep = 0;
};

// The part of the schedule one kernel call runs, so that a long anneal can
// give its thread to other requests and resume (cpu_sa_sampler.cc): sweeps
// [first, schedule end), split into slices of `slice` sweeps counted from
// sweep 0. Each slice draws from its own random stream, DeriveSeed(read seed,
// slice index) (slice 0 from the read's seed itself), so a read's result is
// the same whether a call stops at a boundary and the next resumes there, or
// one call runs on: it depends on the seed and the slice length only. At each
// boundary after `first` the call asks `yield` and stops there when it says
// so. slice = 0: one slice, the whole schedule (no boundary).
struct SweepWindow {
  int64_t first = 0;
  int64_t slice = 0;
  std::function<bool()> yield;
};

// The seed of slice `index` of a read or word whose stream starts at `seed`.
uint64_t SliceSeed(uint64_t seed, int64_t index);

// The best path this CPU runs that is not above `requested` (kAuto: the best
// one).
KernelPath ResolveKernelPath(KernelPath requested);
absl::string_view KernelPathName(KernelPath path);
// Reads one call of the path anneals together (its SIMD lanes).
int KernelLanes(KernelPath path);
// The path a batch of `count` reads runs on: a short batch runs on AVX2
// rather than AVX-512 when that fills its lanes better. Every path gives the
// same samples, so only the speed changes.
KernelPath BatchPath(KernelPath path, int count);

// Anneals every read through the window's sweeps of the schedule; reads are
// processed KernelLanes(path) at a time. Polls the interrupter at least every
// kPollWork lane-edge updates and stops (mid-sweep) when it fires. `path`
// must be a resolved one. A call that yields carries each read's fields in
// KernelRead::field for the call that resumes it.
KernelStats AnnealReads(KernelPath path, const KernelModel& model,
                        const ResolvedSchedule& schedule, Acceptance acceptance,
                        std::span<KernelRead> reads, Interrupter& interrupter,
                        const SweepWindow& window = {});

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_SA_KERNEL_H_
