// Every Prometheus metric the server exports: the common ones here, and those
// each backend declares and records itself (Backend::Metrics). Durations are in
// seconds and use histograms (they aggregate across replicas, unlike
// summaries). Label sets are bounded: method (the RPC), puzzle (the compiler
// kind), backend (registered names), code (gRPC status names), protocol
// ("grpc" or "http": the front that took the call). Pool and admission gauges
// are read at scrape time by a collector, so they cost nothing between
// scrapes. Thread-safe.
#ifndef QS_SERVER_METRICS_H_
#define QS_SERVER_METRICS_H_

#include <functional>
#include <memory>
#include <string>

#include "core/backend/registry.h"
#include "core/compile/compile_cache.h"
#include "prometheus/collectable.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "qs/v1/solve.pb.h"

namespace qs::server {

// Values read when /metrics is scraped.
struct LiveGauges {
  std::function<double()> active_requests;  // admitted and running
  std::function<double()>
      queued_requests;  // admitted, waiting for a request thread
  std::function<double()>
      pool_queued_tasks;  // compute tasks (reads) waiting for a core
  std::function<double()> pool_running_tasks;  // compute tasks running
  std::function<double()> pool_threads;
  // Solves with compute tasks queued or running: each gets about
  // pool_threads / pool_active_groups of the pool.
  std::function<double()> pool_active_groups;
  // The compile cache's counts (hits and misses as counters), when there is
  // a cache.
  std::function<CompileCacheStats()> compile_cache;
};

class LiveGaugeCollector;
class BackendMetricRecorder;

class ServerMetrics {
 public:
  // Registers the common metrics and those every backend of `backends`
  // declares (none when null).
  explicit ServerMetrics(const BackendRegistry* backends = nullptr);
  ~ServerMetrics();

  // Both are registered with the exposer (which keeps weak references).
  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }
  std::shared_ptr<prometheus::Collectable> live_gauges() const;
  void SetLiveGauges(LiveGauges gauges);

  // One finished RPC, from the gRPC service or the HTTP front.
  void RecordRequest(const std::string& method, const std::string& puzzle,
                     const std::string& backend, const std::string& code,
                     double seconds, const std::string& protocol = "grpc");
  // What a Solve stream carried: called per event as it is written.
  void RecordSolveEvent(const std::string& puzzle, const std::string& backend,
                        const v1::SolveResponse& event);
  // Reads and valid reads of a solve whose samples were not streamed (a
  // SolveBatch item without max_sample_events), counted as sample events.
  void RecordSampleCounts(const std::string& puzzle, const std::string& backend,
                          uint64_t reads, uint64_t valid);
  void RecordRejected(const std::string& method, const std::string& reason,
                      const std::string& protocol = "grpc");

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<LiveGaugeCollector> live_;
  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Family<prometheus::Histogram>& request_duration_;
  prometheus::Family<prometheus::Histogram>& phase_duration_;
  prometheus::Family<prometheus::Counter>& samples_;
  prometheus::Family<prometheus::Counter>& valid_samples_;
  prometheus::Family<prometheus::Counter>& attempts_;
  prometheus::Family<prometheus::Counter>& accepted_;
  prometheus::Family<prometheus::Counter>& annealer_cpu_;
  prometheus::Family<prometheus::Counter>& rejected_;
  prometheus::Family<prometheus::Histogram>& variables_;
  // The metrics each backend declares (Backend::Metrics), recorded by the
  // backend itself from its summaries.
  const BackendRegistry* const backends_;
  std::unique_ptr<BackendMetricRecorder> backend_metrics_;
};

}  // namespace qs::server

#endif  // QS_SERVER_METRICS_H_
