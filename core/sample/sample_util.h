// Pieces every CPU sampler shares: the check of the caller's starting states,
// a read's start (given or random from its own stream), the feed of lane
// batches to the worker pool and the thread CPU clock the samplers report
// their kernels' cost with.
#ifndef QS_CORE_SAMPLE_SAMPLE_UTIL_H_
#define QS_CORE_SAMPLE_SAMPLE_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "core/base/interrupter.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"

namespace qs {

// INVALID_ARGUMENT naming initial_states[k] when a state's size is not n.
absl::Status CheckInitialStates(
    const std::vector<std::vector<uint8_t>>& initial_states, int n);

// Read `index`'s start: initial_states cycled when any are given, else n
// random bits drawn from `rng`.
std::vector<uint8_t> StartState(
    const std::vector<std::vector<uint8_t>>& initial_states, int n,
    uint64_t index, Xoshiro256& rng);

// A read's start and the seed of its kernel stream, both drawn from the
// read's own stream DeriveSeed(seed, index): what a lane kernel's read needs.
struct ReadStart {
  std::vector<uint8_t> state;
  uint64_t rng_seed = 0;
};
ReadStart StartOfRead(const std::vector<std::vector<uint8_t>>& initial_states,
                      int n, uint64_t seed, uint64_t index);

// Runs run(b) for every batch b in [0, batches) as tasks of `group`, at most
// `in_flight` queued or running at once: a finished batch queues the next, so
// that a huge num_reads costs no task or read memory up front, and no batch
// starts once `interrupter` fired. Each batch stays one task of the pool's
// round-robin (fair to other requests). `run` and `interrupter` must outlive
// group.Wait().
void FeedBatches(WorkerPool::TaskGroup& group, int batches, int in_flight,
                 Interrupter& interrupter, const std::function<void(int)>& run);

// A batch that runs in steps: each call runs until the batch is done (true)
// or until it stopped at a boundary to give its thread to another request
// (false: call again to resume).
using BatchStep = std::function<bool()>;

// FeedBatches for batches that yield: start(b) makes batch b's step, and a
// step that returns false goes back to the end of the pool's line (behind the
// other groups' tasks) as a new task of `group`. The batch that follows is
// queued once the step finishes. A yielded batch always resumes, even once
// the interrupter fired, so that it can deliver its reads.
void FeedSteppedBatches(WorkerPool::TaskGroup& group, int batches,
                        int in_flight, Interrupter& interrupter,
                        const std::function<BatchStep(int)>& start);

// Runs reads that keep their state between steps (pt's ladders, lns's
// searches): on this thread one after another when the pool has one thread
// or there is one read, else as FeedSteppedBatches of the pool, at most one
// per thread at a time. make(r) builds read r once; step(read, yield) runs it
// until it ends (true) or until `yield` says another request waits (false:
// it resumes later on some thread). `yield` is null on the serial path.
template <typename Read>
absl::Status RunSteppedReads(
    WorkerPool& pool, int num_reads, Interrupter& interrupter,
    const std::function<std::shared_ptr<Read>(int)>& make,
    const std::function<bool(Read&, const std::function<bool()>&)>& step) {
  const int workers = std::min(num_reads, pool.num_threads());
  if (workers <= 1) {
    for (int r = 0; r < num_reads && !interrupter.ShouldStop(); ++r)
      step(*make(r), nullptr);
    return absl::OkStatus();
  }
  auto group = pool.NewGroup();
  WorkerPool::TaskGroup* const g = group.get();
  const std::function<bool()> yield = [g] { return g->OthersWaiting(); };
  FeedSteppedBatches(*group, num_reads, workers, interrupter,
                     [&](int r) -> BatchStep {
                       return [&, r, read = std::shared_ptr<Read>()]() mutable {
                         if (read == nullptr) read = make(r);
                         return step(*read, yield);
                       };
                     });
  return group->Wait();
}

class Qubo;
class SampleSink;
struct SampleParams;

// Hands a finished read's state to `sink` as read `index`, scored on
// `model`, and ends the sampling (kTargetReached) when it reaches
// params.target_energy: the end of every read of pt and lns.
void DeliverRead(const Qubo& model, const SampleParams& params,
                 std::vector<uint8_t> bits, uint32_t index, SampleSink& sink,
                 Interrupter& interrupter);

// Whether reads that `reason` stopped mid-schedule are delivered: after the
// time limit, the deadline, a cancel or a drain their states are the best the
// call got, scored with their true energies (an anytime answer); after a
// reached target they are noise.
bool DeliversCutShort(StopReason reason);

// CPU time of the calling thread in nanoseconds: what a kernel costs the
// machine, apart from the wall time other threads take from it.
int64_t ThreadCpuNanos();

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SAMPLE_UTIL_H_
