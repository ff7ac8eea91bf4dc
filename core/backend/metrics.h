// Backend metrics without a metrics library: a backend declares the metrics it
// records (MetricSpec) and records them through a MetricRecorder that the host
// implements (the server with Prometheus), so that core/ stays free of it and
// the host knows no backend's metrics by name.
#ifndef QS_CORE_BACKEND_METRICS_H_
#define QS_CORE_BACKEND_METRICS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace qs {

enum class MetricKind { kCounter, kHistogram };

struct MetricSpec {
  std::string name;  // e.g. "qs_dwave_qpu_access_seconds_total"
  std::string help;
  MetricKind kind = MetricKind::kCounter;
  std::vector<double> buckets;  // histograms only
};

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class MetricRecorder {
 public:
  virtual ~MetricRecorder() = default;
  // Adds `value` to a counter, or observes it in a histogram, of a metric the
  // backend declared. Unknown names are ignored.
  virtual void Record(absl::string_view name, const MetricLabels& labels,
                      double value) = 0;
};

}  // namespace qs

#endif  // QS_CORE_BACKEND_METRICS_H_
