// The "qaoa" backend: exact statevector simulation (statevector.h) of p QAOA
// layers on the reduced model, or on problem.higher_order when the encoding
// has terms above order two. Angles given in QaoaParams run as they are;
// otherwise the linear ramp (angles.h) starts an NLopt local optimiser
// (BOBYQA by default, or Nelder-Mead) that minimises <C>, and its trace goes
// into the summary. num_reads bitstrings are then drawn from |psi|^2 with the
// seed; identical ones go to the sink as one sample with num_occurrences.
// The simulator's memory is limited (max_memory_bytes; the server's
// --qaoa_max_memory_mb): a model needing more is refused with
// RESOURCE_EXHAUSTED naming the limit and the qubits. The interrupter is
// polled between layers.
#ifndef QS_CORE_SAMPLE_QAOA_QAOA_BACKEND_H_
#define QS_CORE_SAMPLE_QAOA_QAOA_BACKEND_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "core/backend/backend.h"
#include "core/base/worker_pool.h"

namespace qs {

// A quarter of the machine's physical memory.
int64_t DefaultQaoaMemoryBytes();

// max_memory_bytes 0: DefaultQaoaMemoryBytes().
// The server's --qaoa_max_memory_mb (declared beside the backend) in bytes;
// INVALID_ARGUMENT when negative or absurd.
absl::StatusOr<int64_t> QaoaMaxMemoryFromFlags();

std::unique_ptr<Backend> NewQaoaBackend(WorkerPool* pool,
                                        int64_t max_memory_bytes);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_QAOA_QAOA_BACKEND_H_
