// QaoaStatevector: exact simulation of QAOA layers on the 2^n amplitudes of an
// n-qubit state, kept as split real and imaginary arrays (64-byte aligned) so
// that the inner loops are plain multiply-adds over contiguous doubles. The
// cost diagonal C(z) is computed once per model (it does not depend on the
// angles); when it takes few distinct values (puzzle models with integral or
// half-integral weights) each amplitude also keeps the index of its value, so
// a phase layer costs one table look-up per amplitude instead of a sine and a
// cosine. A layer is the phase multiply exp(-i gamma C) and the mixer
// exp(-i beta B): with the X mixer, rx(2 beta) on every qubit as a scalar
// times a cheaper rotation, three qubits per visit, in two cache-blocked
// passes over the state; with the XY ring mixer,
// exp(-i beta (XX + YY) / 2) along each exactly-one group's ring
// (docs/qaoa.md). Amplitude index bit k is qubit k; bit set means x_k = 1.
// Work is split over the WorkerPool in fixed chunks, and reductions sum the
// chunks in order, so results do not depend on the thread count.
#ifndef QS_CORE_QAOA_STATEVECTOR_H_
#define QS_CORE_QAOA_STATEVECTOR_H_

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/qaoa/phase_polynomial.h"

namespace qs {

// Bytes the simulator holds per amplitude: the state (16), the cost diagonal
// (8) and its value index (2).
inline constexpr int64_t kQaoaBytesPerAmplitude = 26;

// The most qubits whose simulation fits in `memory_bytes`.
int QaoaMaxQubits(int64_t memory_bytes);

// The layers' mixer. xy_groups empty: the X mixer on every qubit from |+>^n.
// Otherwise the XY ring mixer on each group (disjoint, each of two or more
// qubits) from a product of W-states, and the X mixer on the other qubits.
struct QaoaMixerSpec {
  std::vector<std::vector<int32_t>> xy_groups;
};

class QaoaStatevector {
 public:
  // Builds the cost diagonal of `cost` (pool may be null: one thread).
  // INVALID_ARGUMENT for overlapping or out-of-range XY groups.
  static absl::StatusOr<std::unique_ptr<QaoaStatevector>> Create(
      const PhasePolynomial& cost, QaoaMixerSpec mixer, WorkerPool* pool);

  int num_qubits() const { return n_; }
  uint64_t size() const { return uint64_t{1} << n_; }
  // Distinct values of the diagonal, 0 when there were too many to index.
  int num_levels() const { return static_cast<int>(levels_.size()); }

  // Prepares the mixer's initial state and applies layer k = (gammas[k],
  // betas[k]) for every k. Polls `interrupter` (may be null) between layers
  // and returns false, with the state unfinished, when it fired.
  bool Run(std::span<const double> gammas, std::span<const double> betas,
           Interrupter* interrupter);
  // One layer on the current state; the primitive the benchmark times.
  void ApplyLayer(double gamma, double beta);

  // <C> = sum |psi(z)|^2 C(z), offset included.
  double Expectation() const;
  // Probability of the basis states whose cost is within tol of `energy`.
  double ProbabilityOfEnergy(double energy, double tol) const;
  // num_reads basis states drawn from |psi|^2: read r takes the r-th of
  // num_reads uniforms of the seeded stream, so the same seed gives the same
  // reads whatever the thread count.
  std::vector<uint64_t> Sample(int num_reads, uint64_t seed) const;
  // The basis states of the lowest cost (to a relative 1e-9), in index
  // order; empty when there are more than max_count.
  std::vector<uint64_t> LowestCostStates(size_t max_count) const;
  double probability(uint64_t index) const {
    return re_[index] * re_[index] + im_[index] * im_[index];
  }
  double cost(uint64_t index) const { return diag_[index]; }
  std::complex<double> amplitude(uint64_t index) const {
    return {re_[index], im_[index]};
  }

 private:
  struct FreeDeleter {
    void operator()(double* p) const { std::free(p); }
  };
  using Buffer = std::unique_ptr<double[], FreeDeleter>;

  QaoaStatevector(int n, QaoaMixerSpec mixer, WorkerPool* pool);
  void BuildDiagonal(const PhasePolynomial& cost);
  void IndexLevels();
  void Initialise();
  // What a layer's passes share: the phase table (cos and sin of gamma C per
  // value, times kappa) and, with the X mixer, rx(2 beta) = kappa R per qubit
  // as R's t and form (statevector.cc).
  struct LayerPlan {
    double gamma = 0, beta = 0;
    std::complex<double> kappa = 1;  // over all n qubits
    double t = 0;
    bool swapped = false;
    std::vector<double> cos_table, sin_table;
  };
  LayerPlan PlanLayer(double gamma, double beta) const;
  // The phase multiply of amplitudes [begin, begin + len), written to to_re,
  // to_im (which may be the state's own).
  void Phase(uint64_t begin, uint64_t len, const LayerPlan& plan, double* to_re,
             double* to_im) const;
  // Pass 1 on one block; buffer is the caller's scratch space.
  void PhaseAndLowMixer(uint64_t block, const LayerPlan& plan,
                        std::vector<double>& buffer);
  void HighMixer(int first_qubit, int qubits, const LayerPlan& plan);
  void ApplyXyMixer(double beta);
  // fn(begin, end) over [0, count) in fixed chunks, on the pool when large.
  template <typename Weight>
  double ProbabilityWeighted(Weight weight) const;
  template <typename Fn>
  void ParallelFor(uint64_t count, uint64_t min_chunk, Fn fn) const;

  const int n_;
  const QaoaMixerSpec mixer_;
  WorkerPool* const pool_;
  Buffer re_, im_, diag_;
  std::vector<uint16_t> level_;
  std::vector<double> levels_;
  uint64_t xy_mask_ = 0;  // qubits of the XY groups
};

}  // namespace qs

#endif  // QS_CORE_QAOA_STATEVECTOR_H_
