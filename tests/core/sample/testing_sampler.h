// Runs a sampler on a pool of its own, for the samplers' tests, and keeps
// another request's tasks waiting in a pool while a test samples on it.
#ifndef QS_TESTS_CORE_SAMPLE_TESTING_SAMPLER_H_
#define QS_TESTS_CORE_SAMPLE_TESTING_SAMPLER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"
#include "core/solve/request_checks.h"

namespace qs::testing {

using SamplerFactory = std::unique_ptr<Sampler> (*)(WorkerPool*);

// Another request on `pool`: `tasks` short tasks that resubmit themselves
// until Stop(), so that a task of it is waiting whenever a sampler's task
// reaches a slice boundary. Stop() (or the destructor) ends and joins them.
class CompetingRequest {
 public:
  explicit CompetingRequest(WorkerPool& pool, int tasks = 4)
      : group_(pool.NewGroup()) {
    spin_ = [this] {
      runs_.fetch_add(1);
      absl::SleepFor(absl::Microseconds(200));
      if (!done_.load()) group_->Submit(spin_);
    };
    for (int k = 0; k < tasks; ++k) group_->Submit(spin_);
  }
  // A destructor has nobody to report a failed wait to; tests call Stop().
  ~CompetingRequest() { Stop().IgnoreError(); }
  absl::Status Stop() {
    done_.store(true);
    return group_->Wait();
  }
  // Tasks of this request that have started so far.
  int64_t runs() const { return runs_.load(); }

 private:
  std::shared_ptr<WorkerPool::TaskGroup> group_;
  std::atomic<bool> done_{false};
  std::atomic<int64_t> runs_{0};
  std::function<void()> spin_;
};

// How many tasks of a CompetingRequest ran on a pool of `threads` threads
// before make(pool)->Sample delivered its first read. A sampler that keeps
// every thread busy with reads of several slices each gives a thread away at
// each boundary, so the count grows with the slices; one that never yields
// lets only the tasks queued ahead of its own run.
inline int64_t CompetitorRunsBeforeFirstRead(SamplerFactory make,
                                             const Qubo& model,
                                             const SampleParams& params,
                                             int threads = 1) {
  class FirstReadSink final : public SampleSink {
   public:
    explicit FirstReadSink(const CompetingRequest& busy) : busy_(busy) {}
    void OnSample(Sample) override {
      int64_t none = -1;
      at_first_read_.compare_exchange_strong(none, busy_.runs());
    }
    int64_t at_first_read() const { return at_first_read_.load(); }

   private:
    const CompetingRequest& busy_;
    std::atomic<int64_t> at_first_read_{-1};
  };
  WorkerPool pool(threads);
  std::unique_ptr<Sampler> sampler = make(&pool);
  CompetingRequest busy(pool);
  FirstReadSink sink(busy);
  Interrupter interrupter;
  const absl::StatusOr<SampleStats> stats =
      sampler->Sample(model, params, sink, interrupter);
  if (!busy.Stop().ok() || !stats.ok()) return -1;
  return sink.at_first_read();
}

// make(pool)->Sample on a pool of `threads` threads, stopped by `interrupter`
// when one is given.
inline absl::StatusOr<SampleStats> SampleOnPool(
    SamplerFactory make, const Qubo& model, const SampleParams& params,
    SampleSink& sink, int threads = 2, Interrupter* interrupter = nullptr) {
  WorkerPool pool(threads);
  std::unique_ptr<Sampler> sampler = make(&pool);
  Interrupter none;
  return sampler->Sample(model, params, sink,
                         interrupter != nullptr ? *interrupter : none);
}

// The engine's checks of `params` for make(pool): the backend's schema, then
// its own CheckParams, under a server limit of `max_sweeps` sweeps.
inline absl::Status CheckParamsOf(SamplerFactory make,
                                  const v1::SolveParams& params,
                                  uint32_t max_sweeps = 100) {
  WorkerPool pool(1);
  std::unique_ptr<Sampler> sampler = make(&pool);
  return CheckBackendParams(*sampler, params, {.max_sweeps = max_sweeps});
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_SAMPLE_TESTING_SAMPLER_H_
