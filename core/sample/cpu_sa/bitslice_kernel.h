// The bit-sliced (multispin-coded) annealing kernel of backend "cpu-sa", after
// Isakov, Zintchenko, Rønnow and Troyer, "Optimised simulated annealing for
// Ising spin glasses", Comput. Phys. Commun. 192 (2015) 265, §3 (multispin
// coding): 256 reads share a machine word per spin, one read per bit, and
// every Metropolis (or Gibbs) decision is a handful of bitwise operations on
// whole words. It runs when the model, in Ising form, has couplings that are
// small integers (|w| <= 15) times a common unit and fields that are integers
// of that unit (G-set Max-Cut graphs: w = +-1 and no field; most puzzle QUBOs).
// docs/annealer.md, "Bit-sliced kernel", has the math and the measurements.
//
// The 32 reads of a group share their uniform random numbers: each read's
// chain is exact Metropolis, but reads of a group are not independent, and on
// a small model they tend to end in the same states. cpu-sa therefore picks
// this kernel only for models of at least kBitSliceMinVariables variables
// (optimisation workloads such as G-set graphs) and never for distinct_valid
// requests (uniform sampling); smaller models keep the float kernel's
// independent reads. A word costs the same however few of its lanes hold a
// read, so calls of fewer than kBitSliceMinReads reads keep the float kernel
// too, whose batches of 8 or 16 reads spread over every core.
//
// Reproducibility: reads are annealed in fixed words of 256 (reads [0, 256),
// [256, 512), ...), each word driven by its own random stream seeded from its
// first read's seed, and every path (portable code, AVX2) computes the same
// bits. A read's result depends on the seed and its index only, never on
// the path, the thread count or the number of reads.
#ifndef QS_CORE_SAMPLE_CPU_SA_BITSLICE_KERNEL_H_
#define QS_CORE_SAMPLE_CPU_SA_BITSLICE_KERNEL_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/interrupter.h"
#include "core/qubo/qubo.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/sampler.h"
#include "core/sample/schedule.h"

namespace qs {

// Reads one kernel call anneals together: one bit of a 256-bit word each.
inline constexpr int kBitSliceLanes = 256;
// The smallest model cpu-sa anneals on this kernel (see above).
inline constexpr int kBitSliceMinVariables = 512;
// The fewest reads of a call cpu-sa anneals on this kernel. On the
// 729-variable Sudoku (2 cores, AVX2) a word of 1,000 sweeps costs about as
// much CPU as 70 float reads, so below half a word the float kernel's
// batches on both cores end first; 32 reads took 4x less wall time
// (docs/annealer.md, "Bit-sliced kernel").
inline constexpr int kBitSliceMinReads = 128;
// The largest |coupling| in units, and the largest row sum of |couplings| and
// |field| (below 2^kBitSliceMaxPlanes), of a qualifying model.
inline constexpr int kBitSliceMaxWeight = 15;
inline constexpr int kBitSliceMaxPlanes = 15;

// A run of a variable's neighbours whose unsatisfied bonds each add 2^level
// to its count.
struct BitSliceSegment {
  uint32_t end;  // one past its last entry of BitSliceModel::offsets
  uint8_t level;
};

// A model in the kernel's integer Ising form: E = const + unit * (sum_{i<j}
// w_ij s_i s_j + sum_i eta_i s_i), s_i = 1 - 2 x_i, with integers w and eta.
// Flipping s_i costs unit * (2 W_i - 4 C_i), W_i = sum_j |w_ij| + |eta_i| and
// C_i the weight of i's unsatisfied bonds (the field is a bond to a fixed
// spin).
struct BitSliceModel {
  // False when the model does not qualify; `reason` says why.
  bool qualifies = false;
  std::string reason;
  int num_variables = 0;
  double unit = 1;
  // True when every |w_ij| is 1: every segment is at level 0 (the fast path).
  bool unit_weights = true;
  bool has_field = false;
  // bitlength(max_i W_i): planes 0..max_planes hold every count plus offset.
  int max_planes = 0;
  // Segments of i: segments[segment_start[i] .. segment_start[i + 1]).
  std::vector<uint32_t> segment_start;
  std::vector<BitSliceSegment> segments;
  // Entries of i in `offsets`: [row_start[i], row_start[i + 1]).
  std::vector<uint32_t> row_start;
  // Per neighbour j, in segment order, the byte offset of the word the count
  // xors with b_i: the kernel keeps b_j at 64 j and ~b_j at 64 j + 32, and an
  // antiferromagnetic bond (w_ij > 0, unsatisfied when the spins agree) reads
  // ~b_j.
  std::vector<uint32_t> offsets;
  std::vector<int32_t> total;       // W_i
  std::vector<int32_t> field;       // |eta_i|
  std::vector<uint8_t> field_flip;  // eta_i > 0
  std::vector<uint8_t> planes;      // bitlength(W_i)
  // The energy of a state: offset + unit * (S - sum_i |eta_i| -
  // sum_i (W_i - |eta_i|) / 2 - I(0)), S = sum_i (C_i + |eta_i| u_i) with u_i
  // the field's unsatisfied bit and I(0) the integer Ising energy of x = 0.
  // energy_base holds everything but S and the offset. Exact, equal to
  // Qubo::Energy, when the offset is on the coefficients' grid
  // (energy_exact); otherwise the sampler sums the Qubo.
  int64_t energy_base = 0;
  double offset = 0;
  bool energy_exact = false;
  // Variable ranges between interrupter polls, as in KernelModel.
  std::vector<uint32_t> chunk_end;
};

// The model's integer Ising form, or qualifies = false with the reason:
// coefficients that are not multiples of one power-of-two grid, a coupling
// above kBitSliceMaxWeight units, a row above 2^kBitSliceMaxPlanes units, no
// coupler, or too many variables.
BitSliceModel MakeBitSliceModel(const Qubo& model);
// MakeBitSliceModel once per compiled problem (kept in `derived` when not
// null).
std::shared_ptr<const BitSliceModel> CachedBitSliceModel(const Qubo& model,
                                                         DerivedCache* derived);

// "bitsliced-avx2" or "bitsliced-portable": the path this CPU runs.
absl::string_view BitSlicePathName();

// A word's spins kept between the calls of one batch (AnnealBitSliced): a
// call that yields at a slice boundary leaves them here, and the next resumes
// from them instead of packing the reads' states again, which on a large
// model costs as much as a few sweeps, and under load a slice is one sweep.
struct BitSliceWord {
  std::shared_ptr<void> spins;  // null: the next call packs the reads
};

// Anneals reads (at most kBitSliceLanes; their starting states, replaced by
// the final ones) through the schedule, Metropolis or Gibbs, in index order.
// Sets each read's `energy` (offset included) when model.energy_exact.
// The word's random stream is seeded from reads[0].rng_seed. Polls the
// interrupter between chunks and stops mid-sweep when it fires. Runs the
// window's sweeps (sa_kernel.h SweepWindow; the word's stream per slice).
// `portable` runs the portable path whatever the CPU (tests compare the paths
// bit for bit). With `keep`, a call that yields leaves the reads as they
// started and the word in `keep` (the next call of the batch passes it back);
// without, the reads hold their states at the boundary.
KernelStats AnnealBitSliced(const BitSliceModel& model,
                            const ResolvedSchedule& schedule,
                            Acceptance acceptance, std::span<KernelRead> reads,
                            Interrupter& interrupter, bool portable = false,
                            const SweepWindow& window = {},
                            BitSliceWord* keep = nullptr);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_BITSLICE_KERNEL_H_
