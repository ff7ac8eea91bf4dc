// CpuSaSampler: simulated annealing on the CPU (backend "cpu-sa"). Reads are
// independent anneals spread over the shared WorkerPool; read r draws its
// random numbers from DeriveSeed(seed, r), so the same seed gives the same
// samples whatever the thread count. The kernel (sa_kernel.h) runs Metropolis
// sweeps over the variables in index order under a geometric or linear beta
// schedule and polls the Interrupter between sweeps.
#ifndef QS_CORE_SAMPLE_CPU_SA_CPU_SA_SAMPLER_H_
#define QS_CORE_SAMPLE_CPU_SA_CPU_SA_SAMPLER_H_

#include <memory>

#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"

namespace qs {

std::unique_ptr<Sampler> NewCpuSaSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_CPU_SA_SAMPLER_H_
