// The path-integral Monte Carlo kernel of backend "sqa" (docs/sqa.md). The
// transverse-field model H(s) = s E(x) - Gamma(s) sum_i sigma^x_i at inverse
// temperature beta becomes, by the Suzuki-Trotter decomposition into P slices
// x^0 .. x^{P-1} (periodic in the slice index), the classical weight
// exp(-beta H_eff) with
//   H_eff = (s/P) sum_k E(x^k) - J sum_k sum_i s_i^k s_i^{k+1},
//   J = -(1 / (2 beta)) ln tanh(beta Gamma / P),  s_i = 1 - 2 x_i.
// A sweep proposes a flip of every variable of every slice once (slice by
// slice, variables in index order) with the Metropolis rule on
//   beta dH = (beta s / P) (1 - 2 x_i^k) f_i^k + 2 B s_i^k (s_i^{k-1} +
//   s_i^{k+1}),
// B = beta J, where f^k are slice k's local fields. Sweeping slice k with its
// neighbours fixed is the annealing kernel's Metropolis sweep
// (core/sample/cpu_sa/sa_lanes.inc) at beta s / P, plus a per-variable cost
// from the neighbour slices' sign bits that joins the threshold (SliceRing):
// one run per SIMD lane, exact float fields on the KernelModel grid, one
// xorshift128 draw per proposal. A run's result depends on its seed only,
// never on the path (scalar, AVX2, AVX-512), its lane or the thread count.
#ifndef QS_CORE_SAMPLE_SQA_SQA_KERNEL_H_
#define QS_CORE_SAMPLE_SQA_SQA_KERNEL_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/base/interrupter.h"
#include "core/sample/cpu_sa/sa_kernel.h"

namespace qs {

// One run: its start (every slice starts there) and the seed of its stream;
// the kernel leaves the P final slices in `slices`, slice-major
// (slices[k * n + i]).
struct SqaRead {
  std::vector<uint8_t> start;
  uint64_t rng_seed = 0;
  std::vector<uint8_t> slices;
};

struct SqaStats {
  int64_t sweeps_done = 0;  // per run (every run of a call does the same)
  int64_t attempts = 0;     // proposals (P * n per sweep), summed over runs
  int64_t accepted = 0;
  bool interrupted = false;
};

// B = -1/2 ln tanh(beta Gamma / P): the inter-slice coupling in units of
// 1 / beta.
double SqaSliceCoupling(double beta, double gamma, int slices);

// Where a sweep runs on the schedule: the classical part's weight s and the
// transverse field Gamma(s).
struct SqaPoint {
  double s = 1;
  double gamma = 0;
};

// Runs num_sweeps sweeps of every read with `slices` Trotter slices at
// inverse temperature beta; sweep t runs at point_at(t). Reads are processed
// KernelLanes(path) at a time (`path` must be resolved). Polls the
// interrupter at least every kPollWork lane-edge updates and stops mid-slice
// when it fires.
SqaStats AnnealSqa(KernelPath path, const KernelModel& model, double beta,
                   int slices, const std::function<SqaPoint(int64_t)>& point_at,
                   int64_t num_sweeps, std::span<SqaRead> reads,
                   Interrupter& interrupter);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SQA_SQA_KERNEL_H_
