// The arithmetic of qs_loadgen's report, kept apart from the RPC driving so
// that it can be tested: latency percentiles, the Prometheus text format of the
// server's /metrics, and the server's phase split from two scrapes (how much
// of the server's time per request went to the annealer and how much to
// everything else: gRPC, compile, decode, bookkeeping).
#ifndef QS_CLIENTS_LOADGEN_LOAD_STATS_H_
#define QS_CLIENTS_LOADGEN_LOAD_STATS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qs::loadgen {

struct Percentiles {
  int64_t count = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

// Nearest-rank percentiles (the smallest value with at least q of the values
// at or below it). All zero for no values.
Percentiles ComputePercentiles(std::vector<double> values);

// One sample line of the Prometheus text exposition format.
struct MetricSample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

// The sample lines of a /metrics page; comments and blank lines are skipped.
// INVALID_ARGUMENT naming the line for a line that is not `name{labels} value`.
absl::StatusOr<std::vector<MetricSample>> ParsePrometheusText(
    absl::string_view text);

// The sum of the samples called `name` whose labels include every pair of
// `match`.
double SumMetric(const std::vector<MetricSample>& samples,
                 absl::string_view name,
                 const std::map<std::string, std::string>& match = {});

// What the server spent between two scrapes, in seconds summed over requests.
struct PhaseSplit {
  double requests = 0;         // requests finished (of the method)
  double request_seconds = 0;  // arrival to final status
  double queue_seconds = 0;    // waiting for a request thread
  double compile_seconds = 0;
  double sample_seconds = 0;  // the sampler's wall time, decoding included
  double decode_seconds = 0;  // decoding and validating samples
  // CPU time: the server processes' (process_cpu_seconds_total) and the
  // annealing kernels' (qs_annealer_cpu_seconds_total); over every method.
  double process_cpu_seconds = 0;
  double annealer_cpu_seconds = 0;
  // Time a request was being served: request - queue.
  double served_seconds() const { return request_seconds - queue_seconds; }
  // The annealer alone: sampling without the decoding done inside it.
  double annealer_seconds() const { return sample_seconds - decode_seconds; }
  // Everything but the annealer while served: gRPC, compile, decode, rest.
  double outside_seconds() const {
    return served_seconds() - annealer_seconds();
  }
  // outside / served, 0 when nothing was served.
  double outside_share() const;
  // The share of the servers' CPU time not spent annealing (gRPC, compile,
  // decode, scheduling), 0 when no CPU time was recorded.
  double cpu_outside_share() const;
};

// The split of requests of `method` (qs_request_duration_seconds{method}) and
// of every solve phase (qs_solve_phase_seconds{phase}) between two scrapes.
PhaseSplit ComputePhaseSplit(const std::vector<MetricSample>& before,
                             const std::vector<MetricSample>& after,
                             const std::string& method);

}  // namespace qs::loadgen

#endif  // QS_CLIENTS_LOADGEN_LOAD_STATS_H_
