// Starting states, the batch feed and the thread CPU clock of the CPU
// samplers.
#include "core/sample/sample_util.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <memory>

#include "absl/strings/str_cat.h"

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
  const std::function<void(int)>* run;
  std::atomic<int> next{0};
};

// One task: the next batch, then the task that follows it.
void FeedOne(const std::shared_ptr<BatchFeed>& feed) {
  feed->group->Submit([feed] {
    const int b = feed->next.fetch_add(1, std::memory_order_relaxed);
    if (b >= feed->batches || feed->interrupter->ShouldStop()) return;
    (*feed->run)(b);
    if (b + 1 < feed->batches) FeedOne(feed);
  });
}

}  // namespace

void FeedBatches(WorkerPool::TaskGroup& group, int batches, int in_flight,
                 Interrupter& interrupter,
                 const std::function<void(int)>& run) {
  auto feed = std::make_shared<BatchFeed>();
  feed->group = &group;
  feed->batches = batches;
  feed->interrupter = &interrupter;
  feed->run = &run;
  for (int k = 0; k < std::min(batches, std::max(in_flight, 1)); ++k)
    FeedOne(feed);
}

}  // namespace qs
