// Exact enumeration of every assignment of a small QUBO (backend "exact", at
// most 30 variables): Gray-code order, so each step flips one variable and
// updates the local fields of its neighbours only. The space is split by its
// top bits into chunks that run on the shared WorkerPool. Returns every ground
// state (up to a cap), which makes it the ground truth of the tests. It takes
// higher-order models too (capabilities().higher_order).
#ifndef QS_CORE_SAMPLE_EXACT_BRUTE_FORCE_SAMPLER_H_
#define QS_CORE_SAMPLE_EXACT_BRUTE_FORCE_SAMPLER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/qubo/hubo.h"
#include "core/qubo/qubo.h"
#include "core/sample/sampler.h"

namespace qs {

inline constexpr int kMaxExactVariables = 30;

struct GroundStates {
  double energy = 0;  // offset included
  std::vector<std::vector<uint8_t>>
      states;         // sorted lexicographically, at most max_states
  int64_t count = 0;  // ground states found (may exceed states.size())
};

// Enumerates all 2^n assignments. Energies within 1e-9 (relative) of the
// minimum count as ground states. `pool` may be null (single thread). CANCELLED
// / DEADLINE_EXCEEDED when the interrupter fires.
absl::StatusOr<GroundStates> FindGroundStates(
    const Qubo& model, int64_t max_states, WorkerPool* pool,
    Interrupter* interrupter = nullptr);

// The same for a higher-order model (the binary encoding of queens).
absl::StatusOr<GroundStates> FindHuboGroundStates(
    const Hubo& hubo, int64_t max_states, WorkerPool* pool,
    Interrupter* interrupter = nullptr);

std::unique_ptr<Sampler> NewBruteForceSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_EXACT_BRUTE_FORCE_SAMPLER_H_
