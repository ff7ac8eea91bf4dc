// StreamingSink: the SampleSink of a Solve. It collects reads from the
// backend's threads, decodes and validates each distinct state once, keeps the
// best board, counts valid reads, stops the solve at the first valid board
// when asked, and emits SampleEvents and Progress in stream order (or holds
// them for aggregation and the max_sample_events cap until Flush).
#ifndef QS_CORE_SOLVE_STREAMING_SINK_H_
#define QS_CORE_SOLVE_STREAMING_SINK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/backend/backend.h"
#include "core/base/interrupter.h"
#include "core/compile/compiler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// Collects samples from the sampler's threads, decodes and validates them, and
// emits events in order.
class StreamingSink final : public SampleSink {
 public:
  using EventFn = std::function<void(v1::SolveResponse&&)>;

  // With `stream_samples` false the sink counts, decodes and keeps the best
  // board but emits no SampleEvent or Progress (a consumer that reads only
  // the summary, such as a SolveBatch item without max_sample_events).
  StreamingSink(const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
                const CompiledProblem& problem, const v1::SolveParams& params,
                uint32_t reads_total, Interrupter& interrupter,
                const EventFn& emit, absl::Duration progress_interval,
                bool stream_samples = true)
      : compiler_(compiler),
        spec_(spec),
        problem_(problem),
        params_(params),
        interrupter_(interrupter),
        emit_(emit),
        progress_interval_(progress_interval),
        stream_samples_(stream_samples),
        buffered_(params.aggregate() || params.max_sample_events() > 0),
        start_(absl::Now()),
        last_progress_(start_),
        reads_total_(reads_total) {}

  void OnSample(Sample sample) override;
  std::optional<bool> IsValidBoard(const std::vector<uint8_t>& bits) override {
    return DecodeOnce(bits)->valid();
  }

  // Emits what was held back (aggregated and/or capped, lowest energy first).
  void Flush();
  // Another round of `reads` follows (Progress counts them in reads_total).
  void AddReadsTotal(uint32_t reads) {
    absl::MutexLock lock(&mu_);
    reads_total_ += reads;
  }

  uint32_t reads_done() const {
    absl::MutexLock lock(&mu_);
    return reads_done_;
  }
  uint32_t valid() const {
    absl::MutexLock lock(&mu_);
    return valid_;
  }
  uint32_t distinct_valid() const {
    absl::MutexLock lock(&mu_);
    return static_cast<uint32_t>(distinct_.size());
  }
  absl::Duration decode_time() const {
    absl::MutexLock lock(&mu_);
    return decode_time_;
  }
  // The lowest-energy valid sample, else the lowest-energy one; has_best()
  // false when no read finished.
  bool has_best() const {
    absl::MutexLock lock(&mu_);
    return best_ != nullptr;
  }
  v1::SampleEvent best() const;

 private:
  using Decoded = std::shared_ptr<const v1::SampleEvent>;

  // The bits, board and verdict of a reduced assignment (a SampleEvent
  // without energy, count and index), shared, not copied. Reads of a small
  // puzzle mostly end in the same few states (the ground state above all), so
  // each distinct state is decoded and validated once per solve (the first
  // states are remembered, up to kMaxMemo of them and kMaxMemoBytes), and
  // valid boards once per compiled problem.
  Decoded DecodeOnce(const std::vector<uint8_t>& bits);
  // The bits and board of one read (`packed`: the bits packed), not yet
  // validated.
  std::shared_ptr<v1::SampleEvent> DecodeBoard(const std::vector<uint8_t>& bits,
                                               const std::string& packed) const;
  // The event with the rules' verdict and violations.
  Decoded Validated(std::shared_ptr<v1::SampleEvent> event) const;

  // `rank` orders boards of the same validity: the board's own objective
  // (minimised sense) where it carries one, else the energy.
  void UpdateBest(const Decoded& decoded, double energy, double rank)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Counts a raw model's sample that can neither become the best nor be sent
  // (true), so that it is never decoded: a 20,000-node graph's board costs
  // about as much to decode as a few of its sweeps, and most reads of a
  // large model are of that kind.
  bool CountedUndecoded(const Sample& sample) ABSL_LOCKS_EXCLUDED(mu_);
  // A Progress event when one is due.
  void MaybeProgress() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // The order of held events: valid first, then the lowest energy; ties go by
  // bits, so that one seed gives one stream whatever order the reads
  // finished in.
  static std::tuple<bool, double, const std::string&> OrderKey(
      bool valid, double energy, const std::string& bits) {
    return {!valid, energy, bits};
  }
  static bool Before(const v1::SampleEvent& a, const v1::SampleEvent& b);
  // Held events are capped at max_sample_events (not when aggregating, where
  // every read may add to a kept event's count).
  bool Capped() const;
  // Whether an event of this order would be among those held.
  bool Kept(bool valid, double energy, const std::string& bits) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Hold(v1::SampleEvent event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const PuzzleCompiler& compiler_;
  const v1::PuzzleSpec& spec_;
  const CompiledProblem& problem_;
  const v1::SolveParams& params_;
  Interrupter& interrupter_;
  const EventFn& emit_;
  const absl::Duration progress_interval_;
  const bool stream_samples_;
  const bool buffered_;
  const absl::Time start_;

  mutable absl::Mutex mu_;
  absl::Time last_progress_ ABSL_GUARDED_BY(mu_);
  uint32_t reads_total_ ABSL_GUARDED_BY(mu_);
  uint32_t reads_done_ ABSL_GUARDED_BY(mu_) = 0;
  uint32_t valid_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Duration decode_time_ ABSL_GUARDED_BY(mu_);
  Decoded best_ ABSL_GUARDED_BY(mu_);
  double best_energy_ ABSL_GUARDED_BY(mu_) = 0;
  double best_rank_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<v1::SampleEvent> held_ ABSL_GUARDED_BY(mu_);
  // Packed bits of the valid boards streamed (params.distinct_valid).
  absl::flat_hash_set<std::string> distinct_ ABSL_GUARDED_BY(mu_);
  absl::Mutex memo_mu_;
  absl::flat_hash_map<std::vector<uint8_t>, Decoded> memo_
      ABSL_GUARDED_BY(memo_mu_);
  size_t memo_bytes_ ABSL_GUARDED_BY(memo_mu_) = 0;
};

}  // namespace qs

#endif  // QS_CORE_SOLVE_STREAMING_SINK_H_
