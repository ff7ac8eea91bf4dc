// StreamingSink: decoding, validation, best board and the event order.
#include "core/solve/streaming_sink.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/solve/wire.h"

namespace qs {
bool StreamingSink::CountedUndecoded(const Sample& sample) {
  if (!compiler_.EveryBoardValid() || params_.distinct_valid()) return false;
  absl::MutexLock lock(&mu_);
  if (best_ == nullptr || !(sample.energy >= best_energy_)) return false;
  if (stream_samples_) {
    // Sent unless the held events are full of strictly better ones.
    if (!buffered_ || !Capped() || held_.size() < params_.max_sample_events() ||
        !(sample.energy > held_.front().energy()))
      return false;
  }
  reads_done_ += static_cast<uint32_t>(sample.num_occurrences);
  valid_ += static_cast<uint32_t>(sample.num_occurrences);
  if (stream_samples_) MaybeProgress();
  return true;
}

void StreamingSink::OnSample(Sample sample) {
  if (CountedUndecoded(sample)) return;
  // Decoding runs outside the sink's lock, on the sampler's thread, so that
  // decoding scales with the reads.
  const absl::Time decode_start = absl::Now();
  const Decoded decoded = DecodeOnce(sample.bits);
  const absl::Duration decode_time = absl::Now() - decode_start;
  const bool valid = decoded->valid();
  // stop_at_first_valid stops at a valid board at or below target_energy
  // (when set); a puzzle's valid board always sits at the ground energy, and
  // a model's board is compared by its own objective.
  // A valid board is ranked by its own objective where it carries one (a
  // feasible model answer whose slack is not yet settled has an energy
  // above its objective), else by its energy.
  const double rank =
      valid ? compiler_.TargetMeasure(spec_, problem_, decoded->solution())
                  .value_or(sample.energy)
            : sample.energy;
  if (valid && params_.stop_at_first_valid() &&
      (!params_.has_target_energy() || rank <= params_.target_energy() + 1e-9))
    interrupter_.Interrupt(StopReason::kTargetReached);

  absl::MutexLock lock(&mu_);
  decode_time_ += decode_time;
  reads_done_ += static_cast<uint32_t>(sample.num_occurrences);
  if (valid) valid_ += static_cast<uint32_t>(sample.num_occurrences);
  UpdateBest(decoded, sample.energy, rank);
  // Uniform sampling: only valid boards, each distinct one once.
  bool streamed = !params_.distinct_valid() ||
                  (valid && distinct_.insert(decoded->bits()).second);
  if (!stream_samples_) return;
  if (streamed && !Kept(decoded->valid(), sample.energy, decoded->bits()))
    streamed = false;  // below the max_sample_events best held: never sent
  if (streamed) {
    v1::SampleEvent event = *decoded;
    event.set_energy(sample.energy);
    event.set_num_occurrences(sample.num_occurrences);
    event.set_read_index(sample.read_index);
    if (buffered_) {
      Hold(std::move(event));
    } else {
      v1::SolveResponse response;
      *response.mutable_sample() = std::move(event);
      emit_(std::move(response));
    }
  }
  MaybeProgress();
}

void StreamingSink::MaybeProgress() {
  const absl::Time now = absl::Now();
  if (now - last_progress_ >= progress_interval_ &&
      reads_done_ < reads_total_) {
    last_progress_ = now;
    v1::SolveResponse response;
    v1::Progress* progress = response.mutable_progress();
    progress->set_reads_done(reads_done_);
    progress->set_reads_total(reads_total_);
    progress->set_best_energy(best_energy_);
    progress->set_valid_found(valid_);
    progress->set_elapsed_seconds(Seconds(now - start_));
    emit_(std::move(response));
  }
}

v1::SampleEvent StreamingSink::best() const {
  absl::MutexLock lock(&mu_);
  if (best_ == nullptr) return v1::SampleEvent();
  v1::SampleEvent event = *best_;
  event.set_energy(best_energy_);
  return event;
}

void StreamingSink::Flush() {
  absl::MutexLock lock(&mu_);
  if (!buffered_) return;
  std::vector<v1::SampleEvent> events = std::move(held_);
  if (params_.aggregate()) {
    std::map<std::string, size_t> index;
    std::vector<v1::SampleEvent> merged;
    for (v1::SampleEvent& e : events) {
      auto [it, inserted] = index.emplace(e.bits(), merged.size());
      if (inserted) {
        merged.push_back(std::move(e));
      } else {
        v1::SampleEvent& m = merged[it->second];
        m.set_num_occurrences(m.num_occurrences() + e.num_occurrences());
      }
    }
    events = std::move(merged);
  }
  std::sort(events.begin(), events.end(), &StreamingSink::Before);
  if (params_.max_sample_events() > 0 &&
      events.size() > params_.max_sample_events()) {
    events.resize(params_.max_sample_events());
  }
  for (v1::SampleEvent& e : events) {
    v1::SolveResponse response;
    *response.mutable_sample() = std::move(e);
    emit_(std::move(response));
  }
}

bool StreamingSink::Before(const v1::SampleEvent& a, const v1::SampleEvent& b) {
  return OrderKey(a.valid(), a.energy(), a.bits()) <
         OrderKey(b.valid(), b.energy(), b.bits());
}

bool StreamingSink::Capped() const {
  return !params_.aggregate() && params_.max_sample_events() > 0;
}

bool StreamingSink::Kept(bool valid, double energy,
                         const std::string& bits) const {
  if (!buffered_ || !Capped() || held_.size() < params_.max_sample_events())
    return true;
  const v1::SampleEvent& worst = held_.front();
  return OrderKey(valid, energy, bits) <
         OrderKey(worst.valid(), worst.energy(), worst.bits());
}

void StreamingSink::Hold(v1::SampleEvent event) {
  if (!Capped()) {
    held_.push_back(std::move(event));
    return;
  }
  // A heap of the max_sample_events best, the worst on top: a long run holds
  // that many events, not one per read.
  if (held_.size() >= params_.max_sample_events()) {
    std::pop_heap(held_.begin(), held_.end(), &StreamingSink::Before);
    held_.pop_back();
  }
  held_.push_back(std::move(event));
  std::push_heap(held_.begin(), held_.end(), &StreamingSink::Before);
}

StreamingSink::Decoded StreamingSink::DecodeOnce(
    const std::vector<uint8_t>& bits) {
  // At most this many states, and this much memory: a state of a
  // 10^6-variable model and its board take about 7 MB, and a thousand of
  // them would outweigh the model many times.
  static constexpr size_t kMaxMemo = 1024;
  static constexpr size_t kMaxMemoBytes = size_t{64} << 20;
  {
    absl::MutexLock lock(&memo_mu_);
    auto it = memo_.find(bits);
    if (it != memo_.end()) return it->second;
  }
  const std::string packed = PackBits(bits);
  Decoded decoded;
  if (compiler_.EveryBoardValid()) {
    // A raw model's boards need no validation, and are rarely read twice
    // across solves: not worth a place in the problem's cache.
    auto event = DecodeBoard(bits, packed);
    event->set_valid(true);
    decoded = std::move(event);
  } else {
    // Valid boards (the ground states a solved puzzle's reads end in) are
    // also kept with the compiled problem, for the next solves of the same
    // puzzle; half the cache at most, so that the samplers' derived data
    // (schedules, kernel models) still fit beside a puzzle of many boards.
    const std::string key = absl::StrCat("valid_board/", packed);
    decoded = problem_.derived.Find<v1::SampleEvent>(key);
    if (decoded == nullptr) {
      decoded = Validated(DecodeBoard(bits, packed));
      if (decoded->valid()) {
        problem_.derived.PutShared(key, decoded, DerivedCache::kMaxEntries / 2);
      }
    }
  }
  const size_t bytes = bits.size() + decoded->SpaceUsedLong();
  absl::MutexLock lock(&memo_mu_);
  if (memo_.size() < kMaxMemo && memo_bytes_ + bytes <= kMaxMemoBytes &&
      memo_.emplace(bits, decoded).second)
    memo_bytes_ += bytes;
  return decoded;
}

std::shared_ptr<v1::SampleEvent> StreamingSink::DecodeBoard(
    const std::vector<uint8_t>& bits, const std::string& packed) const {
  const std::vector<uint8_t> full = problem_.variables.Expand(bits);
  auto event = std::make_shared<v1::SampleEvent>();
  event->set_bits(full == bits ? packed : PackBits(full));
  event->set_num_variables(static_cast<uint32_t>(full.size()));
  *event->mutable_solution() = compiler_.Decode(spec_, problem_, full);
  return event;
}

StreamingSink::Decoded StreamingSink::Validated(
    std::shared_ptr<v1::SampleEvent> event) const {
  auto report = compiler_.ValidateDecoded(spec_, problem_, event->solution());
  if (report.ok()) {
    event->set_valid(report->valid());
    *event->mutable_violations() = std::move(*report->mutable_violations());
  } else {
    event->set_valid(false);
    *event->add_violations() =
        MakeViolation("decode_error", "", report.status().message());
  }
  return event;
}

void StreamingSink::UpdateBest(const Decoded& decoded, double energy,
                               double rank) {
  const bool better =
      best_ == nullptr || (decoded->valid() && !best_->valid()) ||
      (decoded->valid() == best_->valid() &&
       (rank < best_rank_ || (rank == best_rank_ && energy < best_energy_)));
  if (better) {
    best_ = decoded;
    best_energy_ = energy;
    best_rank_ = rank;
  }
}

}  // namespace qs
