// CpuSaSampler: simulated annealing on the CPU (backend "cpu-sa"). Reads are
// annealed in batches of one per SIMD lane (sa_kernel.h: 16 with AVX-512, 8
// with AVX2, 1 on the portable path), and the batches are tasks of the shared
// WorkerPool. Read r starts from DeriveSeed(seed, r) alone (its random start
// and its random stream), so the same seed gives the same samples whatever the
// thread count and the SIMD path. Finished reads go to the sink batch by batch;
// the interrupter is polled within sweeps, and a time limit keeps the reads cut
// short (their state is the best the budget allowed).
#ifndef QS_CORE_SAMPLE_CPU_SA_CPU_SA_SAMPLER_H_
#define QS_CORE_SAMPLE_CPU_SA_CPU_SA_SAMPLER_H_

#include <memory>

#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"

namespace qs {

std::unique_ptr<Sampler> NewCpuSaSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_CPU_SA_SAMPLER_H_
