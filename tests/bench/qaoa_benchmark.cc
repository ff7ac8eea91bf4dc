// Benchmark of the QAOA statevector simulator (core/qaoa/statevector.h): the
// time of one layer (phase multiply from the cost diagonal, then the X mixer)
// on n = 20..26 qubits, on 1 and 2 threads of a WorkerPool, against a plain
// gate-by-gate simulation of the same layer (one pass over the state per rz,
// per cx-rz-cx triple and per rx, std::complex<double>, one thread). Reports
// ns per amplitude per layer. The model: a sparse random QUBO over n
// variables (every linear term, 3n/2 couplers, integer weights), the shape of
// a reduced puzzle. per_amplitude is the wall time per amplitude and layer.
// From the repository root:
//
//   build/tests/bench/qaoa_benchmark
//   build/tests/bench/qaoa_benchmark --benchmark_filter='Layer/24'
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/qaoa/phase_polynomial.h"
#include "core/qaoa/statevector.h"

namespace qs {
namespace {

PhasePolynomial SparseModel(int n) {
  Xoshiro256 rng(n);
  QuboBuilder b(n);
  for (int i = 0; i < n; ++i)
    b.AddLinear(i, static_cast<double>(static_cast<int>(rng.NextBelow(9)) - 4));
  for (int k = 0; k < 3 * n / 2; ++k) {
    const int i = static_cast<int>(rng.NextBelow(n));
    const int j = static_cast<int>(rng.NextBelow(n));
    if (i != j) b.AddQuadratic(i, j, 1 + static_cast<double>(rng.NextBelow(4)));
  }
  return *PhasePolynomialFromQubo(*std::move(b).Build());
}

void SimulatorLayer(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  WorkerPool pool(threads);
  auto sim = QaoaStatevector::Create(SparseModel(n), {}, &pool);
  if (!sim.ok()) {
    state.SkipWithError(std::string(sim.status().message()).c_str());
    return;
  }
  (*sim)->Run(std::vector<double>{}, std::vector<double>{}, nullptr);
  for (auto _ : state) (*sim)->ApplyLayer(0.3, 0.4);
  const double amplitudes = std::ldexp(1.0, n);
  state.counters["per_amplitude"] = benchmark::Counter(
      amplitudes * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["levels"] = (*sim)->num_levels();
}

// The same layer one gate at a time.
void GateByGateLayer(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const PhasePolynomial cost = SparseModel(n);
  std::vector<std::complex<double>> psi(uint64_t{1} << n,
                                        1 / std::sqrt(std::ldexp(1.0, n)));
  const double gamma = 0.3, beta = 0.4;
  auto rz = [&](double theta, int q) {
    const std::complex<double> a = std::polar(1.0, -theta / 2),
                               b = std::polar(1.0, theta / 2);
    for (uint64_t z = 0; z < psi.size(); ++z) psi[z] *= (z >> q & 1) ? b : a;
  };
  auto cx = [&](int c, int t) {
    for (uint64_t z = 0; z < psi.size(); ++z)
      if ((z >> c & 1) && !(z >> t & 1))
        std::swap(psi[z], psi[z | uint64_t{1} << t]);
  };
  auto rx = [&](double theta, int q) {
    const double c = std::cos(theta / 2), s = std::sin(theta / 2);
    for (uint64_t z = 0; z < psi.size(); ++z) {
      if (z >> q & 1) continue;
      const uint64_t w = z | uint64_t{1} << q;
      const std::complex<double> a = psi[z], b = psi[w];
      psi[z] = c * a + std::complex<double>(0, -s) * b;
      psi[w] = std::complex<double>(0, -s) * a + c * b;
    }
  };
  for (auto _ : state) {
    for (const PhaseTerm& t : cost.terms) {
      const int a = std::countr_zero(t.mask);
      const int b = 63 - std::countl_zero(t.mask);
      if (a != b) cx(a, b);
      rz(2 * gamma * t.w, b);
      if (a != b) cx(a, b);
    }
    for (int q = 0; q < n; ++q) rx(2 * beta, q);
    benchmark::DoNotOptimize(psi.data());
  }
  state.counters["per_amplitude"] = benchmark::Counter(
      std::ldexp(1.0, n) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(SimulatorLayer)
    ->ArgsProduct({{20, 22, 24, 26}, {1, 2}})
    ->ArgNames({"qubits", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(GateByGateLayer)
    ->DenseRange(20, 24, 2)
    ->ArgNames({"qubits"})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace qs

BENCHMARK_MAIN();
