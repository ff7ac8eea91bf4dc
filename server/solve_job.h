// The work of one admitted solve, shared by the fronts that take Solve calls
// (the gRPC Solve and SolveBatch reactors, the HTTP front): the checks and the
// admission before a job is queued, and the job itself on a request thread.
// Keeping it in one place keeps admission, drain tracking, queue time and
// metrics the same whatever protocol the call came in on.
#ifndef QS_SERVER_SOLVE_JOB_H_
#define QS_SERVER_SOLVE_JOB_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/base/interrupter.h"
#include "core/solve/solve_engine.h"
#include "qs/v1/solve.pb.h"
#include "server/service_context.h"

namespace qs::server {

// SolveEngine::CheckSolveRequest, then an admission slot. A request turned
// away for load counts in qs_admission_rejected_total{method, protocol}.
absl::Status CheckAndAdmit(ServiceContext* context,
                           const v1::SolveRequest& request,
                           const std::string& method,
                           const std::string& protocol);

// Runs an admitted solve on the calling request thread: marks it started,
// lets a drain reach `interrupter`, passes the wait since `admitted` as the
// queue time, stamps the header with this server's instance, records each
// event's metrics under (puzzle, backend) before `emit` gets it, and releases
// the admission slot. Returns the engine's status. With `stream_samples`
// false only the header and the summary come (SolveEngine::Solve).
absl::Status RunAdmittedSolve(ServiceContext* context,
                              const v1::SolveRequest& request,
                              Interrupter& interrupter, absl::Time admitted,
                              const std::string& puzzle,
                              const std::string& backend,
                              const SolveEngine::EventFn& emit,
                              bool stream_samples = true);

// What a Solve stream may lose to a reader slower than the solve, whatever
// the protocol: progress events, and samples that improve neither on the
// best energy sent nor on validity. The header, the summary and improving
// samples always go; the summary counts what was dropped. A solve's events
// come one at a time, in order: one thinner per stream, no lock.
class SampleThinner {
 public:
  // True when `event` must be queued whatever the queue holds; false when it
  // may be offered as droppable.
  bool MustSend(const v1::SolveResponse& event);
  // A droppable sample event found the queue full.
  void Dropped() { ++dropped_; }
  // Writes the count into the summary event.
  void StampSummary(v1::SolveResponse& event) const;

 private:
  std::optional<double> best_sent_;
  bool valid_sent_ = false;
  uint32_t dropped_ = 0;
};

// One SolveBatch item, admitted, run to its result on the calling request
// thread: the summary, the statistics, its samples when asked for, its own
// status, and the SolveBatchItem request metric.
v1::BatchResult RunAdmittedBatchItem(ServiceContext* context,
                                     v1::BatchItem item,
                                     Interrupter& interrupter,
                                     absl::Time admitted,
                                     const std::string& protocol);

// The BatchResult of an item that never ran (refused or malformed).
v1::BatchResult BatchErrorResult(const std::string& id,
                                 const absl::Status& status,
                                 const std::string& instance);

}  // namespace qs::server

#endif  // QS_SERVER_SOLVE_JOB_H_
