// Prometheus metric families of the server and the scrape-time collector for
// live gauges.
#include "server/metrics.h"

#include <sys/resource.h>

#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "prometheus/client_metric.h"
#include "prometheus/collectable.h"
#include "prometheus/metric_family.h"

namespace qs::server {
namespace {

const prometheus::Histogram::BucketBoundaries& DurationBuckets() {
  static const auto* const buckets =
      new prometheus::Histogram::BucketBoundaries{
          0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
          0.5,    1,     2.5,    5,     10,   30,    60,   300};
  return *buckets;
}

}  // namespace

// Reads the live gauges at scrape time. Registered into the same registry's
// exposer by the server.
class LiveGaugeCollector : public prometheus::Collectable {
 public:
  void Set(LiveGauges gauges) {
    absl::MutexLock lock(&mu_);
    gauges_ = std::move(gauges);
  }
  std::vector<prometheus::MetricFamily> Collect() const override {
    absl::MutexLock lock(&mu_);
    std::vector<prometheus::MetricFamily> families;
    auto family = [&](const char* name, const char* help,
                      prometheus::MetricType type, double value) {
      prometheus::MetricFamily f;
      f.name = name;
      f.help = help;
      f.type = type;
      prometheus::ClientMetric metric;
      if (type == prometheus::MetricType::Counter) {
        metric.counter.value = value;
      } else {
        metric.gauge.value = value;
      }
      f.metric.push_back(std::move(metric));
      families.push_back(std::move(f));
    };
    auto add = [&](const char* name, const char* help,
                   const std::function<double()>& read) {
      if (read) family(name, help, prometheus::MetricType::Gauge, read());
    };
    add("qs_active_requests", "Solve requests admitted and running",
        gauges_.active_requests);
    add("qs_queue_depth",
        "Solve requests admitted and waiting for a request thread",
        gauges_.queued_requests);
    add("qs_pool_queued_tasks",
        "Compute tasks (anneal reads) waiting for a core",
        gauges_.pool_queued_tasks);
    add("qs_pool_running_tasks", "Compute tasks (anneal reads) running",
        gauges_.pool_running_tasks);
    add("qs_pool_threads", "Threads of the shared compute pool",
        gauges_.pool_threads);
    // The process's CPU time, under the name Prometheus clients give it, so
    // that the annealer's share of it (qs_annealer_cpu_seconds_total) can be
    // read off one page.
    rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
      auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec;
      };
      family("process_cpu_seconds_total",
             "User and system CPU time of the server process",
             prometheus::MetricType::Counter,
             seconds(usage.ru_utime) + seconds(usage.ru_stime));
    }
    if (gauges_.compile_cache) {
      const CompileCacheStats cache = gauges_.compile_cache();
      family("qs_compile_cache_hits_total",
             "Compiles answered from the compile cache",
             prometheus::MetricType::Counter, static_cast<double>(cache.hits));
      family("qs_compile_cache_misses_total",
             "Compiles the compile cache did not hold",
             prometheus::MetricType::Counter,
             static_cast<double>(cache.misses));
      family("qs_compile_cache_entries", "Compiled problems in the cache",
             prometheus::MetricType::Gauge, static_cast<double>(cache.entries));
      family("qs_compile_cache_bytes",
             "Approximate memory of the cached compiled problems",
             prometheus::MetricType::Gauge, static_cast<double>(cache.bytes));
    }
    return families;
  }

 private:
  mutable absl::Mutex mu_;
  LiveGauges gauges_;
};

ServerMetrics::ServerMetrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      live_(std::make_shared<LiveGaugeCollector>()),
      requests_(prometheus::BuildCounter()
                    .Name("qs_requests_total")
                    .Help("Finished RPCs by method, puzzle kind, backend, "
                          "gRPC status code and protocol")
                    .Register(*registry_)),
      request_duration_(
          prometheus::BuildHistogram()
              .Name("qs_request_duration_seconds")
              .Help("RPC duration from arrival to the final status")
              .Register(*registry_)),
      phase_duration_(prometheus::BuildHistogram()
                          .Name("qs_solve_phase_seconds")
                          .Help("Time a Solve spent in each phase: queue, "
                                "compile, sample, decode")
                          .Register(*registry_)),
      samples_(prometheus::BuildCounter()
                   .Name("qs_samples_streamed_total")
                   .Help("Sample events written to Solve streams")
                   .Register(*registry_)),
      valid_samples_(prometheus::BuildCounter()
                         .Name("qs_valid_samples_total")
                         .Help("Streamed samples whose decoded board passes "
                               "the puzzle's rules")
                         .Register(*registry_)),
      attempts_(
          prometheus::BuildCounter()
              .Name("qs_spin_update_attempts_total")
              .Help(
                  "Spin-update attempts (flip proposals) made by the samplers")
              .Register(*registry_)),
      accepted_(prometheus::BuildCounter()
                    .Name("qs_accepted_flips_total")
                    .Help("Flip proposals the samplers accepted")
                    .Register(*registry_)),
      annealer_cpu_(prometheus::BuildCounter()
                        .Name("qs_annealer_cpu_seconds_total")
                        .Help("CPU time the samplers' annealing kernels used, "
                              "summed over threads")
                        .Register(*registry_)),
      rejected_(prometheus::BuildCounter()
                    .Name("qs_admission_rejected_total")
                    .Help("Requests turned away before running, by reason")
                    .Register(*registry_)),
      variables_(
          prometheus::BuildHistogram()
              .Name("qs_problem_variables")
              .Help(
                  "Variables the sampler optimized per Solve, after reduction")
              .Register(*registry_)),
      qpu_access_(prometheus::BuildCounter()
                      .Name("qs_dwave_qpu_access_seconds_total")
                      .Help("QPU access time SAPI reported, by solver")
                      .Register(*registry_)),
      qpu_access_per_solve_(
          prometheus::BuildHistogram()
              .Name("qs_dwave_qpu_access_seconds")
              .Help("QPU access time of one D-Wave solve, by solver")
              .Register(*registry_)),
      chain_break_fraction_(
          prometheus::BuildHistogram()
              .Name("qs_dwave_chain_break_fraction")
              .Help("Mean fraction of broken chains per read of a D-Wave "
                    "solve, by puzzle kind")
              .Register(*registry_)),
      max_chain_length_(prometheus::BuildHistogram()
                            .Name("qs_dwave_max_chain_length")
                            .Help("Longest chain of the embedding a D-Wave "
                                  "solve used, by puzzle kind")
                            .Register(*registry_)),
      embedding_duration_(
          prometheus::BuildHistogram()
              .Name("qs_dwave_embedding_seconds")
              .Help("Time spent finding a minor embedding (cache misses)")
              .Register(*registry_)),
      embeddings_(prometheus::BuildCounter()
                      .Name("qs_dwave_embeddings_total")
                      .Help("Embeddings a D-Wave solve needed, by result: "
                            "cached or computed")
                      .Register(*registry_)) {}

ServerMetrics::~ServerMetrics() = default;

std::shared_ptr<prometheus::Collectable> ServerMetrics::live_gauges() const {
  return live_;
}

void ServerMetrics::SetLiveGauges(LiveGauges gauges) {
  live_->Set(std::move(gauges));
}

void ServerMetrics::RecordRequest(const std::string& method,
                                  const std::string& puzzle,
                                  const std::string& backend,
                                  const std::string& code, double seconds,
                                  const std::string& protocol) {
  requests_
      .Add({{"method", method},
            {"puzzle", puzzle},
            {"backend", backend},
            {"code", code},
            {"protocol", protocol}})
      .Increment();
  request_duration_
      .Add({{"method", method},
            {"puzzle", puzzle},
            {"backend", backend},
            {"protocol", protocol}},
           DurationBuckets())
      .Observe(seconds);
}

void ServerMetrics::RecordSolveEvent(const std::string& puzzle,
                                     const std::string& backend,
                                     const v1::SolveResponse& event) {
  switch (event.event_case()) {
    case v1::SolveResponse::kHeader:
      phase_duration_.Add({{"phase", "queue"}}, DurationBuckets())
          .Observe(event.header().queue_seconds());
      phase_duration_.Add({{"phase", "compile"}}, DurationBuckets())
          .Observe(event.header().stats().compile_seconds());
      variables_
          .Add({{"puzzle", puzzle}},
               prometheus::Histogram::BucketBoundaries{16, 64, 256, 1024, 4096,
                                                       16384, 65536, 262144})
          .Observe(event.header().stats().variables());
      break;
    case v1::SolveResponse::kSample:
      samples_.Add({{"puzzle", puzzle}, {"backend", backend}}).Increment();
      if (event.sample().valid())
        valid_samples_.Add({{"puzzle", puzzle}, {"backend", backend}})
            .Increment();
      break;
    case v1::SolveResponse::kSummary: {
      const v1::SolveSummary& s = event.summary();
      phase_duration_.Add({{"phase", "sample"}}, DurationBuckets())
          .Observe(s.timings().sample_seconds());
      phase_duration_.Add({{"phase", "decode"}}, DurationBuckets())
          .Observe(s.timings().decode_seconds());
      attempts_.Add({{"backend", backend}})
          .Increment(static_cast<double>(s.spin_update_attempts()));
      accepted_.Add({{"backend", backend}})
          .Increment(static_cast<double>(s.accepted_flips()));
      annealer_cpu_.Add({{"backend", backend}})
          .Increment(s.timings().annealer_cpu_seconds());
      if (s.backend().has_dwave()) {
        const v1::DwaveInfo& d = s.backend().dwave();
        const double access = d.qpu_access_time_us() * 1e-6;
        qpu_access_.Add({{"solver", d.solver()}}).Increment(access);
        qpu_access_per_solve_
            .Add({{"solver", d.solver()}},
                 prometheus::Histogram::BucketBoundaries{
                     0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5})
            .Observe(access);
        chain_break_fraction_
            .Add({{"puzzle", puzzle}},
                 prometheus::Histogram::BucketBoundaries{
                     0, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5})
            .Observe(d.mean_chain_break_fraction());
        max_chain_length_
            .Add({{"puzzle", puzzle}},
                 prometheus::Histogram::BucketBoundaries{1, 2, 4, 6, 8, 12, 16,
                                                         24, 32, 48, 64})
            .Observe(d.max_chain_length());
        embeddings_
            .Add({{"result", d.embedding_cached() ? "cached" : "computed"}})
            .Increment();
        if (!d.embedding_cached()) {
          embedding_duration_.Add({}, DurationBuckets())
              .Observe(d.embedding_seconds());
        }
      }
      break;
    }
    default:
      break;
  }
}

void ServerMetrics::RecordRejected(const std::string& method,
                                   const std::string& reason,
                                   const std::string& protocol) {
  rejected_
      .Add({{"method", method}, {"reason", reason}, {"protocol", protocol}})
      .Increment();
}

}  // namespace qs::server
