// One simulated-annealing read on a QUBO (the dwave-samplers kernel shape,
// architecture §1): each variable keeps its local field f_i = a_i + sum_j b_ij
// x_j, so a flip costs delta_i = (1 - 2 x_i) f_i, and after a flip only the
// neighbours' fields change (f_j += b_ij * (x_i' - x_i)). A proposal whose beta
// * delta exceeds 44.36 is rejected without drawing a random number:
// exp(-44.36) is below 2^-64.
#ifndef QS_CORE_SAMPLE_CPU_SA_SA_KERNEL_H_
#define QS_CORE_SAMPLE_CPU_SA_SA_KERNEL_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/interrupter.h"
#include "core/base/rng.h"
#include "core/qubo/qubo.h"

namespace qs {

struct SaReadResult {
  int64_t sweeps_done = 0;
  int64_t attempts = 0;
  int64_t accepted = 0;
  bool interrupted = false;
};

// Anneals `state` (0/1 per variable) in place through the given betas, one
// sweep per beta. Polls the interrupter after every sweep and stops early when
// it fires.
SaReadResult AnnealRead(const Qubo& model, std::span<const double> betas,
                        Xoshiro256& rng, std::vector<uint8_t>& state,
                        Interrupter& interrupter);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_SA_KERNEL_H_
