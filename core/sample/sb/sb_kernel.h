// The simulated-bifurcation kernel of backend "sb" (core/sample/sb/README.md):
// the symplectic-Euler integration of Goto et al. 2021 (Sci. Adv. 7,
// eabe7953, eqs. 3-6 and Methods), ballistic (bSB) or discrete (dSB), with
// the optional heating term of Kanao & Goto 2022 (Commun. Phys. 5, 153), over
// the Ising form of a QUBO. Replicas run one per SIMD lane: positions x and
// momenta y are stored [variable][lane], the couplings once in CSR form
// (float32).
//
// Reproducibility: every path (scalar with 1 lane, AVX2 with 8, AVX-512 with
// 16) evaluates each lane with the same float operations in the same order
// (the file is compiled with -ffp-contract=off, no fused multiply-adds), and a
// replica's start depends on its seed only, so a replica's trajectory does not
// depend on the path, its lane or the thread that ran it.
#ifndef QS_CORE_SAMPLE_SB_SB_KERNEL_H_
#define QS_CORE_SAMPLE_SB_SB_KERNEL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/qubo/qubo.h"
#include "core/sample/sampler.h"

namespace qs {

// Variables an SbModel can hold.
inline constexpr int kMaxSbVariables = 1 << 28;

// The Ising form E(s) = offset + sum_i h_i s_i + sum_{i<j} J_ij s_i s_j of a
// QUBO (x = (1 + s) / 2), stored as the force -dE/ds: W = -J in float32 CSR
// (each coupler in both rows, rows sorted). Fields become couplings to an
// ancilla spin s_a, variable num_variables (size = num_variables + 1): E(s,
// s_a) with h_i s_i s_a equals E(s s_a), and the state read out is s s_a.
// Built once per compiled problem.
struct SbModel {
  int num_variables = 0;  // the QUBO's
  int size = 0;           // spins integrated: num_variables, + 1 with ancilla
  bool ancilla = false;
  double offset = 0;  // the Ising offset (exact, double)
  std::vector<uint32_t> row_start;
  std::vector<uint32_t> column;  // j of each entry
  std::vector<float> w;          // -J_ij of each entry
  // sqrt(sum_{i != j} J_ij^2) over the spins (ancilla couplings included):
  // the scale of the default c0.
  double coupling_norm = 0;
  // Largest sum_j |J_ij| of a row: bounds the float energy's rounding.
  double max_row = 0;
  // An estimate of the spectral radius of J (power iteration, SbModel's
  // kSpectralIterations, plus 10 %): the stiffest mode the integrator must
  // keep stable (the default time step).
  double spectral_radius = 0;
};

absl::StatusOr<SbModel> MakeSbModel(const Qubo& qubo);

enum class SbVariantKind { kBallistic, kDiscrete };

// The resolved constants of one run (every default filled in).
struct SbConstants {
  SbVariantKind variant = SbVariantKind::kDiscrete;
  bool heated = false;
  double time_step = 1.25;
  int64_t steps = 1000;
  double c0 = 1;
  double a0 = 1;
  double heat = 0;  // gamma; used only when heated
};

// Replicas integrated together by one kernel object: KernelLanes(path) of
// them. The caller drives the time steps in chunks, polling its interrupter
// and checking energies between chunks.
class SbLanes {
 public:
  virtual ~SbLanes() = default;
  virtual int lanes() const = 0;
  // Starts lane `lane` from its own stream `seed`: x_i, y_i uniform in
  // [-0.1, 0.1]; with `start` (0/1 per QUBO variable, may be null) x_i takes
  // the sign of s_i = 2 x_i - 1 at magnitude 0.1 (the ancilla +0.1).
  virtual void Seed(int lane, uint64_t seed, const uint8_t* start) = 0;
  // Runs time steps [first, last) of the schedule.
  virtual void Run(int64_t first, int64_t last) = 0;
  // Each lane's Ising energy of the sign-rounded positions, offset excluded,
  // summed in float (within SbModel::max_row * n * 2^-20 of the exact one).
  virtual void SignEnergies(double* energies) const = 0;
  // Lane `lane`'s sign-rounded state as QUBO bits: x_i's sign bit clear ->
  // 1, every bit flipped when the ancilla's is set.
  virtual void State(int lane, std::vector<uint8_t>& bits) const = 0;
};

// `path` must be resolved (sa_kernel.h ResolveKernelPath). `model` must
// outlive the result.
std::unique_ptr<SbLanes> NewSbLanes(KernelPath path, const SbModel& model,
                                    const SbConstants& constants);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SB_SB_KERNEL_H_
