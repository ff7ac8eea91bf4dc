// Starting states, the batch feed and the thread CPU clock of the CPU
// samplers.
#include "core/sample/sample_util.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/qubo/qubo.h"
#include "core/sample/sampler.h"

namespace qs {

absl::Status CheckInitialStates(
    const std::vector<std::vector<uint8_t>>& initial_states, int n) {
  for (size_t k = 0; k < initial_states.size(); ++k) {
    if (static_cast<int>(initial_states[k].size()) != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "initial_states[", k, "]: has ", initial_states[k].size(),
          " values for ", n, " variables"));
    }
  }
  return absl::OkStatus();
}

std::vector<uint8_t> StartState(
    const std::vector<std::vector<uint8_t>>& initial_states, int n,
    uint64_t index, Xoshiro256& rng) {
  if (!initial_states.empty())
    return initial_states[index % initial_states.size()];
  std::vector<uint8_t> state(n);
  for (int i = 0; i < n; ++i) state[i] = static_cast<uint8_t>(rng.Next() >> 63);
  return state;
}

ReadStart StartOfRead(const std::vector<std::vector<uint8_t>>& initial_states,
                      int n, uint64_t seed, uint64_t index) {
  Xoshiro256 rng(DeriveSeed(seed, index));
  ReadStart start;
  start.state = StartState(initial_states, n, index, rng);
  start.rng_seed = rng.Next();
  return start;
}

bool DeliversCutShort(StopReason reason) {
  return reason != StopReason::kTargetReached;
}

int64_t ThreadCpuNanos() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1000000000 + now.tv_nsec;
}

namespace {

struct BatchFeed {
  WorkerPool::TaskGroup* group;
  int batches;
  Interrupter* interrupter;
  std::function<BatchStep(int)> start;
  std::atomic<int> next{0};
};

void FeedOne(const std::shared_ptr<BatchFeed>& feed);

// Runs a step; a yielded one resumes as a new task, a finished one queues the
// next batch.
void RunStep(const std::shared_ptr<BatchFeed>& feed,
             const std::shared_ptr<BatchStep>& step) {
  if (!(*step)()) {
    feed->group->Submit([feed, step] { RunStep(feed, step); });
    return;
  }
  FeedOne(feed);
}

// One task: the next batch's first step.
void FeedOne(const std::shared_ptr<BatchFeed>& feed) {
  if (feed->next.load(std::memory_order_relaxed) >= feed->batches) return;
  feed->group->Submit([feed] {
    const int b = feed->next.fetch_add(1, std::memory_order_relaxed);
    if (b >= feed->batches || feed->interrupter->ShouldStop()) return;
    RunStep(feed, std::make_shared<BatchStep>(feed->start(b)));
  });
}

}  // namespace

void FeedSteppedBatches(WorkerPool::TaskGroup& group, int batches,
                        int in_flight, Interrupter& interrupter,
                        const std::function<BatchStep(int)>& start) {
  auto feed = std::make_shared<BatchFeed>();
  feed->group = &group;
  feed->batches = batches;
  feed->interrupter = &interrupter;
  feed->start = start;
  for (int k = 0; k < std::min(batches, std::max(in_flight, 1)); ++k)
    FeedOne(feed);
}

void FeedBatches(WorkerPool::TaskGroup& group, int batches, int in_flight,
                 Interrupter& interrupter,
                 const std::function<void(int)>& run) {
  FeedSteppedBatches(group, batches, in_flight, interrupter,
                     [&run](int b) -> BatchStep {
                       return [&run, b] {
                         run(b);
                         return true;
                       };
                     });
}

void DeliverRead(const Qubo& model, const SampleParams& params,
                 std::vector<uint8_t> bits, uint32_t index, SampleSink& sink,
                 Interrupter& interrupter) {
  const double energy = model.Energy(bits);
  if (params.target_energy && energy <= *params.target_energy + 1e-9)
    interrupter.Interrupt(StopReason::kTargetReached);
  sink.OnSample({std::move(bits), energy, index, 1});
}

}  // namespace qs
