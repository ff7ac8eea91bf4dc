// Prometheus metric families of the server and the scrape-time collector for
// live gauges.
#include "server/metrics.h"

#include <sys/resource.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
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
    add("qs_pool_active_groups",
        "Solves with compute tasks queued or running, sharing the pool's "
        "threads in turn",
        gauges_.pool_active_groups);
    // Running tasks over threads: 1 when every thread computes.
    if (gauges_.pool_running_tasks && gauges_.pool_threads) {
      const double threads = gauges_.pool_threads();
      family("qs_pool_occupancy",
             "Share of the compute pool's threads running a task (0 to 1)",
             prometheus::MetricType::Gauge,
             threads > 0 ? gauges_.pool_running_tasks() / threads : 0);
    }
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

// Prometheus families for the metrics the backends declare, by name.
class BackendMetricRecorder final : public MetricRecorder {
 public:
  BackendMetricRecorder(prometheus::Registry& registry,
                        const BackendRegistry* backends) {
    if (backends == nullptr) return;
    for (const Backend* backend : backends->All()) {
      for (const MetricSpec& spec : backend->Metrics()) {
        if (spec.kind == MetricKind::kCounter) {
          counters_.emplace(spec.name, &prometheus::BuildCounter()
                                            .Name(spec.name)
                                            .Help(spec.help)
                                            .Register(registry));
        } else {
          histograms_.emplace(
              spec.name,
              Histogram{&prometheus::BuildHistogram()
                             .Name(spec.name)
                             .Help(spec.help)
                             .Register(registry),
                        prometheus::Histogram::BucketBoundaries(
                            spec.buckets.begin(), spec.buckets.end())});
        }
      }
    }
  }

  void Record(absl::string_view name, const MetricLabels& labels,
              double value) override {
    const std::map<std::string, std::string> label_map(labels.begin(),
                                                       labels.end());
    if (auto it = counters_.find(name); it != counters_.end()) {
      it->second->Add(label_map).Increment(value);
    } else if (auto h = histograms_.find(name); h != histograms_.end()) {
      h->second.family->Add(label_map, h->second.buckets).Observe(value);
    }
  }

 private:
  struct Histogram {
    prometheus::Family<prometheus::Histogram>* family;
    prometheus::Histogram::BucketBoundaries buckets;
  };
  // Filled in the constructor, read-only afterwards; the families are
  // thread-safe.
  absl::flat_hash_map<std::string, prometheus::Family<prometheus::Counter>*>
      counters_;
  absl::flat_hash_map<std::string, Histogram> histograms_;
};

ServerMetrics::ServerMetrics(const BackendRegistry* backends)
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
                        .Help("CPU time the solving engines used (the "
                              "samplers' kernels and the SAT search), summed "
                              "over threads")
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
      backends_(backends),
      backend_metrics_(
          std::make_unique<BackendMetricRecorder>(*registry_, backends)) {}

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
      if (backends_ != nullptr) {
        if (const Backend* b = backends_->Find(s.backend().name()))
          b->RecordMetrics(s, puzzle, *backend_metrics_);
      }
      break;
    }
    default:
      break;
  }
}

void ServerMetrics::RecordSampleCounts(const std::string& puzzle,
                                       const std::string& backend,
                                       uint64_t reads, uint64_t valid) {
  samples_.Add({{"puzzle", puzzle}, {"backend", backend}})
      .Increment(static_cast<double>(reads));
  valid_samples_.Add({{"puzzle", puzzle}, {"backend", backend}})
      .Increment(static_cast<double>(valid));
}

void ServerMetrics::RecordRejected(const std::string& method,
                                   const std::string& reason,
                                   const std::string& protocol) {
  rejected_
      .Add({{"method", method}, {"reason", reason}, {"protocol", protocol}})
      .Increment();
}

}  // namespace qs::server
