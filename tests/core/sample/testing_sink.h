// A SampleSink for tests: keeps every sample, thread-safe, and can sort them by
// read index.
#ifndef QS_TESTS_CORE_SAMPLE_TESTING_SINK_H_
#define QS_TESTS_CORE_SAMPLE_TESTING_SINK_H_

#include <algorithm>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/sample/sampler.h"

namespace qs::testing {

class CollectingSink : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    absl::MutexLock lock(&mu_);
    samples_.push_back(std::move(sample));
  }
  // Samples ordered by read index (the order threads finish in varies).
  std::vector<Sample> SortedByRead() const {
    absl::MutexLock lock(&mu_);
    std::vector<Sample> sorted = samples_;
    std::sort(sorted.begin(), sorted.end(),
              [](const Sample& a, const Sample& b) {
                return a.read_index < b.read_index;
              });
    return sorted;
  }
  double BestEnergy() const {
    absl::MutexLock lock(&mu_);
    double best = 1e300;
    for (const Sample& s : samples_) best = std::min(best, s.energy);
    return best;
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<Sample> samples_;
};

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_SAMPLE_TESTING_SINK_H_
