// The simulated-bifurcation kernel's model (the Ising form of a QUBO in float
// CSR) and the dispatch to its SIMD paths. The lane kernel (sb_lanes.inc) is
// compiled three times, as cpu-sa's is (core/sample/cpu_sa/lane_paths.inc):
// 1 lane of portable code, 8 lanes under an AVX2 target and 16 under an
// AVX-512 target. Built with -ffp-contract=off (core/CMakeLists.txt) so that
// every path rounds alike.
#include "core/sample/sb/sb_kernel.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/sample/cpu_sa/lane_target.h"

namespace qs {
namespace {

#define QS_LANE_KERNEL "core/sample/sb/sb_lanes.inc"
#include "core/sample/cpu_sa/lane_paths.inc"

constexpr int kSpectralIterations = 40;

// |lambda|_max of W by power iteration from a fixed pseudo-random vector, in
// double; a lower bound that converges from below, hence the 10 % margin.
double SpectralRadius(const SbModel& model) {
  const int size = model.size;
  if (size == 0 || model.w.empty()) return 0;
  std::vector<double> v(size), next(size);
  SplitMix64 mix(12345);
  for (double& value : v)
    value = static_cast<double>(mix.Next() >> 11) * 0x1.0p-53 - 0.5;
  double radius = 0;
  for (int iteration = 0; iteration < kSpectralIterations; ++iteration) {
    double norm = 0, previous = 0;
    for (int i = 0; i < size; ++i) {
      double sum = 0;
      for (uint32_t e = model.row_start[i]; e < model.row_start[i + 1]; ++e)
        sum += model.w[e] * v[model.column[e]];
      next[i] = sum;
      norm += sum * sum;
      previous += v[i] * v[i];
    }
    if (norm == 0 || previous == 0) return 0;
    radius = std::sqrt(norm / previous);
    const double scale = 1 / std::sqrt(norm);
    for (int i = 0; i < size; ++i) v[i] = next[i] * scale;
  }
  return 1.1 * radius;
}

}  // namespace

absl::StatusOr<SbModel> MakeSbModel(const Qubo& qubo) {
  const int n = qubo.num_variables();
  if (n > kMaxSbVariables || qubo.adjacency().size() > UINT32_MAX) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the model has ", n, " variables and ",
                     qubo.num_couplers(), " couplers; sb takes at most ",
                     kMaxSbVariables, " variables and 2^31 couplers"));
  }
  const IsingModel ising = ToIsing(qubo);
  SbModel model;
  model.num_variables = n;
  model.offset = ising.offset;
  // The fields become couplings to an ancilla spin, the last variable:
  // E(s, s_a) = sum_i h_i s_i s_a + ... equals E(s s_a), so the state read
  // out is s times the ancilla's sign.
  std::vector<QuboTerm> couplings = ising.couplings;
  for (int i = 0; i < n; ++i) {
    if (ising.h[i] != 0) model.ancilla = true;
  }
  if (model.ancilla) {
    for (int i = 0; i < n; ++i)
      if (ising.h[i] != 0) couplings.push_back({i, n, ising.h[i]});
  }
  const int size = n + (model.ancilla ? 1 : 0);
  model.size = size;
  double squares = 0;
  std::vector<double> row(size, 0.0);
  std::vector<uint32_t> degree(size + 1, 0);
  for (const QuboTerm& t : couplings) ++degree[t.i], ++degree[t.j];
  model.row_start.assign(size + 1, 0);
  for (int i = 0; i < size; ++i)
    model.row_start[i + 1] = model.row_start[i] + degree[i];
  const size_t entries = model.row_start[size];
  model.column.resize(entries);
  model.w.resize(entries);
  std::vector<uint32_t> fill(model.row_start.begin(),
                             model.row_start.end() - 1);
  for (const QuboTerm& t : couplings) {
    const float w = static_cast<float>(-t.w);
    model.column[fill[t.i]] = static_cast<uint32_t>(t.j);
    model.w[fill[t.i]++] = w;
    model.column[fill[t.j]] = static_cast<uint32_t>(t.i);
    model.w[fill[t.j]++] = w;
    squares += 2 * t.w * t.w;
    row[t.i] += std::abs(t.w);
    row[t.j] += std::abs(t.w);
  }
  // Rows sorted by column keep the coupling reads in memory order.
  for (int i = 0; i < size; ++i) {
    const uint32_t begin = model.row_start[i], end = model.row_start[i + 1];
    std::vector<std::pair<uint32_t, float>> entries_of(end - begin);
    for (uint32_t e = begin; e < end; ++e)
      entries_of[e - begin] = {model.column[e], model.w[e]};
    std::sort(entries_of.begin(), entries_of.end());
    for (uint32_t e = begin; e < end; ++e)
      std::tie(model.column[e], model.w[e]) = entries_of[e - begin];
  }
  for (const float w : model.w) {
    if (!std::isfinite(w)) {
      return absl::InvalidArgumentError(
          "a coupling of the model's Ising form overflows float32");
    }
  }
  model.coupling_norm = std::sqrt(squares);
  for (int i = 0; i < size; ++i)
    model.max_row = std::max(model.max_row, row[i]);
  model.spectral_radius = SpectralRadius(model);
  return model;
}

std::unique_ptr<SbLanes> NewSbLanes(KernelPath path, const SbModel& model,
                                    const SbConstants& constants) {
#ifdef QS_SA_X86
  if (path == KernelPath::kAvx512) return avx512::MakeLanes(model, constants);
  if (path == KernelPath::kAvx2) return avx2::MakeLanes(model, constants);
#endif
  return scalar::MakeLanes(model, constants);
}

}  // namespace qs
