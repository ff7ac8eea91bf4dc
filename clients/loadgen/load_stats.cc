// Percentiles, Prometheus text parsing and the server phase split of
// qs_loadgen.
#include "clients/loadgen/load_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qs::loadgen {
namespace {

double NearestRank(const std::vector<double>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  const size_t rank = static_cast<size_t>(std::max(1.0, std::ceil(q * n)));
  return sorted[std::min(rank, sorted.size()) - 1];
}

// Parses `key="value",...` (values may hold escaped quotes) into labels.
bool ParseLabels(absl::string_view text,
                 std::map<std::string, std::string>& labels) {
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && (text[pos] == ',' || text[pos] == ' ')) ++pos;
    if (pos >= text.size()) break;
    const size_t eq = text.find('=', pos);
    if (eq == absl::string_view::npos || eq + 1 >= text.size() ||
        text[eq + 1] != '"')
      return false;
    const std::string key(
        absl::StripAsciiWhitespace(text.substr(pos, eq - pos)));
    std::string value;
    size_t k = eq + 2;
    for (; k < text.size() && text[k] != '"'; ++k) {
      if (text[k] == '\\' && k + 1 < text.size()) {
        ++k;
        value.push_back(text[k] == 'n' ? '\n' : text[k]);
      } else {
        value.push_back(text[k]);
      }
    }
    if (k >= text.size()) return false;
    labels[key] = std::move(value);
    pos = k + 1;
  }
  return true;
}

double Delta(const std::vector<MetricSample>& before,
             const std::vector<MetricSample>& after, absl::string_view name,
             const std::map<std::string, std::string>& match) {
  return SumMetric(after, name, match) - SumMetric(before, name, match);
}

}  // namespace

Percentiles ComputePercentiles(std::vector<double> values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  p.count = static_cast<int64_t>(values.size());
  p.mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  p.p50 = NearestRank(values, 0.50);
  p.p90 = NearestRank(values, 0.90);
  p.p99 = NearestRank(values, 0.99);
  p.max = values.back();
  return p;
}

absl::StatusOr<std::vector<MetricSample>> ParsePrometheusText(
    absl::string_view text) {
  std::vector<MetricSample> samples;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    MetricSample sample;
    absl::string_view rest;
    const size_t brace = line.find('{');
    if (brace != absl::string_view::npos) {
      const size_t close = line.rfind('}');
      if (close == absl::string_view::npos || close < brace ||
          !ParseLabels(line.substr(brace + 1, close - brace - 1),
                       sample.labels)) {
        return absl::InvalidArgumentError(
            absl::StrCat("metrics line ", line_number, ": bad labels"));
      }
      sample.name = std::string(line.substr(0, brace));
      rest = line.substr(close + 1);
    } else {
      const size_t space = line.find(' ');
      if (space == absl::string_view::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat("metrics line ", line_number, ": no value"));
      }
      sample.name = std::string(line.substr(0, space));
      rest = line.substr(space);
    }
    // The value, then an optional timestamp.
    std::vector<absl::string_view> fields =
        absl::StrSplit(rest, ' ', absl::SkipWhitespace());
    if (fields.empty() || !absl::SimpleAtod(fields[0], &sample.value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("metrics line ", line_number, ": bad value"));
    }
    samples.push_back(std::move(sample));
  }
  return samples;
}

double SumMetric(const std::vector<MetricSample>& samples,
                 absl::string_view name,
                 const std::map<std::string, std::string>& match) {
  double sum = 0;
  for (const MetricSample& s : samples) {
    if (s.name != name) continue;
    bool matches = true;
    for (const auto& [key, value] : match) {
      auto it = s.labels.find(key);
      if (it == s.labels.end() || it->second != value) {
        matches = false;
        break;
      }
    }
    if (matches) sum += s.value;
  }
  return sum;
}

double PhaseSplit::outside_share() const {
  const double served = served_seconds();
  return served > 0 ? outside_seconds() / served : 0;
}

double PhaseSplit::cpu_outside_share() const {
  return process_cpu_seconds > 0
             ? 1 - annealer_cpu_seconds / process_cpu_seconds
             : 0;
}

PhaseSplit ComputePhaseSplit(const std::vector<MetricSample>& before,
                             const std::vector<MetricSample>& after,
                             const std::string& method) {
  PhaseSplit split;
  split.requests = Delta(before, after, "qs_request_duration_seconds_count",
                         {{"method", method}});
  split.request_seconds = Delta(
      before, after, "qs_request_duration_seconds_sum", {{"method", method}});
  auto phase = [&](const char* name) {
    return Delta(before, after, "qs_solve_phase_seconds_sum",
                 {{"phase", name}});
  };
  split.queue_seconds = phase("queue");
  split.compile_seconds = phase("compile");
  split.sample_seconds = phase("sample");
  split.decode_seconds = phase("decode");
  split.process_cpu_seconds =
      Delta(before, after, "process_cpu_seconds_total", {});
  split.annealer_cpu_seconds =
      Delta(before, after, "qs_annealer_cpu_seconds_total", {});
  return split;
}

}  // namespace qs::loadgen
