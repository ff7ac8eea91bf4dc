// The path-integral sweeps: per-slice fields, the Metropolis test with the
// slice neighbours' spins.
#include "core/sample/sqa/sqa_kernel.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/base/rng.h"

namespace qs {
namespace {

// -ln u for u in [2^-53, 1) is at most 53 ln 2: a costlier proposal never
// passes, so it takes no draw.
constexpr double kNeverPasses = 53 * 0.6931471805599453;

}  // namespace

double SqaSliceCoupling(double beta, double gamma, int slices) {
  const double t = std::tanh(beta * gamma / slices);
  if (t <= 0) return std::numeric_limits<double>::infinity();
  return -0.5 * std::log(t);
}

SqaRunStats RunSqa(const Qubo& model, double beta,
                   const std::function<SqaPoint(int64_t)>& point_at,
                   int64_t num_sweeps, SqaRun& run, Interrupter& interrupter) {
  const int n = model.num_variables();
  const int p = run.slices;
  std::vector<double> field(static_cast<size_t>(n) * p);
  for (int k = 0; k < p; ++k) {
    const uint8_t* x = &run.x[static_cast<size_t>(k) * n];
    for (int i = 0; i < n; ++i) {
      double f = model.linear(i);
      for (const Neighbor& nb : model.neighbors(i)) f += nb.w * x[nb.j];
      field[static_cast<size_t>(k) * n + i] = f;
    }
  }
  Xoshiro256 rng(run.seed);
  SqaRunStats stats;
  int64_t work = 0;
  for (int64_t sweep = 0; sweep < num_sweeps && !stats.interrupted; ++sweep) {
    const SqaPoint point = point_at(sweep);
    const double slice_beta = beta * point.s / p;
    // One slice has no ring: no coupling (and no infinity times zero).
    const double b = p > 1 ? SqaSliceCoupling(beta, point.gamma, p) : 0.0;
    for (int k = 0; k < p && !stats.interrupted; ++k) {
      uint8_t* x = &run.x[static_cast<size_t>(k) * n];
      const uint8_t* up = &run.x[static_cast<size_t>((k + 1) % p) * n];
      const uint8_t* down = &run.x[static_cast<size_t>((k + p - 1) % p) * n];
      double* f = &field[static_cast<size_t>(k) * n];
      int i = 0;
      for (; i < n; ++i) {
        if (++work >= kSqaPollWork) {
          work = 0;
          if ((stats.interrupted = interrupter.ShouldStop())) break;
        }
        const double s = x[i] ? -1.0 : 1.0;
        const double neighbours =
            p > 1 ? (up[i] ? -1.0 : 1.0) + (down[i] ? -1.0 : 1.0) : 0.0;
        const double cost = slice_beta * s * f[i] + 2 * b * s * neighbours;
        if (cost > 0 &&
            (cost > kNeverPasses || -std::log(1.0 - rng.NextDouble()) <= cost))
          continue;
        x[i] ^= 1;
        ++stats.accepted;
        for (const Neighbor& nb : model.neighbors(i)) f[nb.j] += s * nb.w;
        work += static_cast<int64_t>(model.neighbors(i).size());
      }
      stats.attempts += i;  // a stop comes before proposal i
    }
    if (!stats.interrupted) ++stats.sweeps_done;
  }
  return stats;
}

}  // namespace qs
