// SbSampler: simulated bifurcation (backend "sb"; core/sample/sb/README.md),
// Goto et al. 2019 (Sci. Adv. 5, eaav2372) and 2021 (Sci. Adv. 7, eabe7953).
// Reads are replicas: independent trajectories from their own random starts,
// one per SIMD lane (sb_kernel.h), in batches that are tasks of the shared
// WorkerPool. Replica r starts from DeriveSeed(seed, r) alone, so the same seed
// gives the same samples whatever the thread count and the SIMD path. Each
// replica streams its sign-rounded final state, its energy from the QUBO.
#ifndef QS_CORE_SAMPLE_SB_SB_SAMPLER_H_
#define QS_CORE_SAMPLE_SB_SB_SAMPLER_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"
#include "core/sample/sb/sb_kernel.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// Time steps between two polls of the interrupter (and, with a target energy,
// two checks of the replicas' sign-rounded energies): 16, fewer on models
// whose step costs more than about 2^19 lane-coupling updates.
int SbCheckInterval(const SbModel& model, int lanes);

// The run's constants from the request (defaults filled in): `wire` may be
// the default message.
SbConstants ResolveSbConstants(const v1::SbParams& wire, const SbModel& model,
                               int num_sweeps);

// What the schema (SbParams' field options) cannot check: steps within the
// server's sweep limit. INVALID_ARGUMENT naming the field.
absl::Status CheckSbParams(const v1::SbParams& wire, uint32_t max_sweeps,
                           absl::string_view prefix = "params");

std::unique_ptr<Sampler> NewSbSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SB_SB_SAMPLER_H_
