// ServiceContext: what every RPC handler shares: the solve engine, the compute
// pool (reads), the request pool (one thread per running request), admission,
// metrics, and the interrupters of running solves so that a drain can stop
// them. Owned by the Server; outlives every call.
#ifndef QS_SERVER_SERVICE_CONTEXT_H_
#define QS_SERVER_SERVICE_CONTEXT_H_

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/solve/solve_engine.h"
#include "server/admission.h"
#include "server/auth.h"
#include "server/metrics.h"

namespace qs::server {

struct ServiceContext {
  const SolveEngine* engine = nullptr;
  WorkerPool* request_pool = nullptr;
  Admission* admission = nullptr;
  ServerMetrics* metrics = nullptr;
  const TokenAuthorizer* auth = nullptr;  // never null once serving
  // Name of this server process in responses (BatchResult.server_instance,
  // SolveHeader.server_instance).
  std::string instance_name;
  // Items of one SolveBatch stream running at once.
  int max_batch_in_flight = 4;

  // Interrupters of running solves, so that a drain can stop them (kShutdown).
  void Track(Interrupter* interrupter) {
    absl::MutexLock lock(&mu);
    running.insert(interrupter);
  }
  void Untrack(Interrupter* interrupter) {
    absl::MutexLock lock(&mu);
    running.erase(interrupter);
  }
  void InterruptAll(StopReason reason) {
    absl::MutexLock lock(&mu);
    for (Interrupter* i : running) i->Interrupt(reason);
  }

  absl::Mutex mu;
  absl::flat_hash_set<Interrupter*> running ABSL_GUARDED_BY(mu);
};

}  // namespace qs::server

#endif  // QS_SERVER_SERVICE_CONTEXT_H_
