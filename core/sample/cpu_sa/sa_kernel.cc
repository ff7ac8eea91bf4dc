// Scalar Metropolis simulated-annealing read over the CSR adjacency of a Qubo.
#include "core/sample/cpu_sa/sa_kernel.h"

#include <cmath>

namespace qs {

SaReadResult AnnealRead(const Qubo& model, std::span<const double> betas,
                        Xoshiro256& rng, std::vector<uint8_t>& state,
                        Interrupter& interrupter) {
  const int n = model.num_variables();
  const auto& row_start = model.row_start();
  const auto& adjacency = model.adjacency();
  std::vector<double> field(model.linear_terms());
  for (int i = 0; i < n; ++i) {
    if (!state[i]) continue;
    for (int64_t k = row_start[i]; k < row_start[i + 1]; ++k)
      field[adjacency[k].j] += adjacency[k].w;
  }
  SaReadResult result;
  for (double beta : betas) {
    const double max_delta = 44.36 / beta;
    for (int i = 0; i < n; ++i) {
      const double delta = state[i] ? -field[i] : field[i];
      if (delta >= max_delta) continue;
      if (delta > 0 && std::exp(-beta * delta) <= rng.NextDouble()) continue;
      const double sign = state[i] ? -1.0 : 1.0;
      state[i] ^= 1;
      ++result.accepted;
      for (int64_t k = row_start[i]; k < row_start[i + 1]; ++k) {
        field[adjacency[k].j] += sign * adjacency[k].w;
      }
    }
    result.attempts += n;
    ++result.sweeps_done;
    if (interrupter.ShouldStop()) {
      result.interrupted = true;
      break;
    }
  }
  return result;
}

}  // namespace qs
