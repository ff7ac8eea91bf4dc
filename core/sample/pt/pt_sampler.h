// PtSampler: parallel tempering (replica exchange Monte Carlo, backend "pt";
// docs/parallel-tempering.md, after Zhu, Ochoa and Katzgraber, PRL 115, 077201
// (2015)). Each read is one ladder of replicas at fixed inverse temperatures
// from hot to cold, held one per SIMD lane (replica_kernel.h); a round sweeps
// every replica once (single flips, plus one-hot swaps when the problem has
// exactly-one groups) and then proposes exchanges between neighbouring rungs.
// A read returns the lowest-energy state any of its replicas visited, and ends
// early when that state reaches the problem's known ground energy. Ladders are
// tasks of the shared WorkerPool; ladder r depends on DeriveSeed(seed, r)
// alone, so the same seed gives the same samples whatever the thread count
// and the SIMD path.
#ifndef QS_CORE_SAMPLE_PT_PT_SAMPLER_H_
#define QS_CORE_SAMPLE_PT_PT_SAMPLER_H_

#include <memory>

#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"

namespace qs {

// Rounds of a ladder when the request leaves num_sweeps unset.
inline constexpr int kDefaultPtRounds = 10000;
// Rungs of a ladder when the request leaves PtParams.replicas at 0 (the
// default its option states).
inline int DefaultPtReplicas() {
  return static_cast<int>(StatedDefault<v1::PtParams>("replicas"));
}

std::unique_ptr<Sampler> NewPtSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PT_PT_SAMPLER_H_
