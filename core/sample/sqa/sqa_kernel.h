// The path-integral Monte Carlo kernel of backend "sqa" (docs/sqa.md). The
// transverse-field model H(s) = s E(x) - Gamma(s) sum_i sigma^x_i at inverse
// temperature beta becomes, by the Suzuki-Trotter decomposition into P slices
// x^0 .. x^{P-1} (periodic in the slice index), the classical weight
// exp(-beta H_eff) with
//   H_eff = (s/P) sum_k E(x^k) - J sum_k sum_i s_i^k s_i^{k+1},
//   J = -(1 / (2 beta)) ln tanh(beta Gamma / P),  s_i = 1 - 2 x_i.
// A sweep proposes a flip of every variable of every slice once (slice by
// slice, variables in index order) with the Metropolis rule on
//   beta dH = (beta / P) (1 - 2 x_i^k) f_i^k + 2 B s_i^k (s_i^{k-1} +
//   s_i^{k+1}),
// B = beta J, where f^k are slice k's local fields. Each slice keeps its fields
// (O(deg) per accepted flip), in double precision; draws come from the run's
// own Xoshiro256, one per uphill proposal that can pass.
#ifndef QS_CORE_SAMPLE_SQA_SQA_KERNEL_H_
#define QS_CORE_SAMPLE_SQA_SQA_KERNEL_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "core/base/interrupter.h"
#include "core/qubo/qubo.h"

namespace qs {

// One run: P slices of n variables, slice-major (x[k * n + i]).
struct SqaRun {
  int slices = 1;
  std::vector<uint8_t> x;
  uint64_t seed = 0;
};

struct SqaRunStats {
  int64_t sweeps_done = 0;
  int64_t attempts = 0;  // proposals: slices * n per sweep
  int64_t accepted = 0;
  bool interrupted = false;
};

// B = -1/2 ln tanh(beta Gamma / P): the inter-slice coupling in units of
// 1 / beta.
double SqaSliceCoupling(double beta, double gamma, int slices);

// Runs num_sweeps sweeps; sweep t runs at point_at(t). Polls the interrupter
// about every kSqaPollWork proposals and neighbour updates.
// Where a sweep runs on the schedule: the classical part's weight s and the
// transverse field Gamma(s).
struct SqaPoint {
  double s = 1;
  double gamma = 0;
};

SqaRunStats RunSqa(const Qubo& model, double beta,
                   const std::function<SqaPoint(int64_t)>& point_at,
                   int64_t num_sweeps, SqaRun& run, Interrupter& interrupter);

inline constexpr int64_t kSqaPollWork = int64_t{1} << 18;

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SQA_SQA_KERNEL_H_
