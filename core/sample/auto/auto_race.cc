// The race of the "auto" backend: threads, rounds, the shared best sample and
// the stop rules.
#include "core/sample/auto/auto_race.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/backend/requested_budget.h"
#include "core/base/rng.h"

namespace qs {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// The sweeps of a round whose parameters set none (the engine's default).
constexpr uint32_t kDefaultRoundSweeps = 1000;
// Weight of the newest round in a kernel's measured speed.
constexpr double kSpeedWeight = 0.3;

// Energies of the same state computed along different paths differ in the
// last bits.
bool AtOrBelow(double energy, double bound) {
  return energy <= bound + 1e-9 * std::max(1.0, std::abs(bound));
}

struct RacerState {
  uint32_t rounds = 0;
  uint32_t reads = 0;
  absl::Duration elapsed;
  absl::Duration cpu_time;
  int64_t sweeps = 0;
  int64_t attempts = 0;
  int64_t accepted = 0;
  double round_best = kInf;  // lowest energy of the running round
  uint32_t reads_cut_short = 0;
  // A sized racer's reads per round, fixed by its first round (0: not yet).
  uint32_t round_reads = 0;
  // The last round's attempts and wall time: the rate this racer gets now.
  int64_t last_attempts = 0;
  absl::Duration last_elapsed;
  // The moves its last round reported (BackendInfo.moves; empty for the
  // exact engines).
  std::string moves;
  absl::Status error;
};

class Race {
 public:
  Race(const BackendJob& job, const std::vector<Racer>& racers,
       const RaceOptions& options, SampleSink& sink, Interrupter& parent)
      : job_(job),
        racers_(racers),
        options_(options),
        sink_(sink),
        parent_(parent),
        stop_(&parent),
        states_(racers.size()),
        keeps_best_state_(std::any_of(
            racers.begin(), racers.end(),
            [](const Racer& r) { return r.plan.resumes_from_best; })),
        start_(absl::Now()) {
    // Every racer polls the interrupter between sweeps or search steps.
    stop_.SetCancelCheck([this] {
      LaunchDue();
      return false;
    });
  }

  // The leader runs on the calling thread: no thread hop before the answer
  // a lone leader usually gives. A follower gets a thread of its own when
  // its head start has run out, launched from the racers' own polls of the
  // race's interrupter: a race its leader ends within the head start starts
  // no thread, and waits on none.
  void Run() {
    LaunchDue();
    if (!racers_.empty()) RunRacer(0);
    LaunchRemaining();
    std::vector<std::thread> threads;
    {
      absl::MutexLock lock(&launch_mu_);
      threads.swap(threads_);
    }
    for (std::thread& t : threads) t.join();
  }

  absl::StatusOr<BackendResult> Result();

 private:
  // What a racer's backend sees as its sink.
  class RacerSink final : public SampleSink {
   public:
    RacerSink(Race* race, size_t index) : race_(race), index_(index) {}
    void OnSample(Sample sample) override {
      race_->OnSample(index_, std::move(sample));
    }
    std::optional<bool> IsValidBoard(
        const std::vector<uint8_t>& bits) override {
      return race_->sink_.IsValidBoard(bits);
    }

   private:
    Race* const race_;
    const size_t index_;
  };

  void RunRacer(size_t index);
  // Starts the followers whose head start has run out (racers are ordered by
  // it).
  void LaunchDue();
  // Once the leader is done: the followers not started yet start now, unless
  // the race is over.
  void LaunchRemaining();
  void Launch(size_t index) ABSL_EXCLUSIVE_LOCKS_REQUIRED(launch_mu_) {
    threads_.emplace_back([this, index] { RunRacer(index); });
  }
  // One round of a racer; false when the racer is done.
  bool RunRound(size_t index, uint32_t round);
  BackendJob RoundJob(size_t index, uint32_t round, v1::SolveParams& params);
  std::string SpeedKey(size_t index) const {
    return racers_[index].plan.backend + "/" + options_.kernel_class;
  }
  // The reads and sweeps of racer `index`'s next round, sized to the time
  // left (RacerPlan::sized_to_time).
  void SizeRound(size_t index, v1::SolveParams& params);
  void OnSample(size_t index, Sample sample);
  void OnExactEnd(size_t index, const BackendResult& result)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void OnRoundEnd(size_t index) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CheckRawStop(double energy) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Stop(const char* rule) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (stop_rule_.empty()) stop_rule_ = rule;
    stop_.Interrupt(StopReason::kTargetReached);
  }
  StopReason FinalStopReason() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string FinalStopRule() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FillInfo(v1::AutoInfo& info) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The moves of each raced sampler that ran ("pt: single-flip+one-hot-swap;
  // tabu: single-flip"), for BackendInfo.moves.
  std::string RacedMoves() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const BackendJob& job_;
  const std::vector<Racer>& racers_;
  const RaceOptions& options_;
  SampleSink& sink_;
  Interrupter& parent_;
  // Stops every racer: the race's own stop rules, or the parent's.
  Interrupter stop_;

  // The followers' threads; next_follower_ is the first not started.
  absl::Mutex launch_mu_;
  std::vector<std::thread> threads_ ABSL_GUARDED_BY(launch_mu_);
  std::atomic<size_t> next_follower_{1};

  mutable absl::Mutex mu_;
  std::vector<RacerState> states_ ABSL_GUARDED_BY(mu_);
  // Some racer resumes from the best state (RacerPlan::resumes_from_best).
  const bool keeps_best_state_;
  const absl::Time start_;
  uint32_t next_read_index_ ABSL_GUARDED_BY(mu_) = 0;
  // The best sample delivered, ordered as the engine's sink orders them
  // (valid first, then energy), and who delivered it.
  bool has_best_ ABSL_GUARDED_BY(mu_) = false;
  bool best_valid_ ABSL_GUARDED_BY(mu_) = false;
  double best_energy_ ABSL_GUARDED_BY(mu_) = kInf;
  // The best sample's state, kept when a racer resumes from it.
  std::vector<uint8_t> best_state_ ABSL_GUARDED_BY(mu_);
  std::string solved_by_ ABSL_GUARDED_BY(mu_);
  std::optional<absl::Duration> first_valid_ ABSL_GUARDED_BY(mu_);
  std::optional<double> proven_optimum_ ABSL_GUARDED_BY(mu_);
  std::optional<v1::ExactSummary> exact_ ABSL_GUARDED_BY(mu_);
  // Each racer's rounds that ended at agree_energy_, the best energy, since
  // it was found.
  std::vector<int> agreeing_ ABSL_GUARDED_BY(mu_);
  double agree_energy_ ABSL_GUARDED_BY(mu_) = kInf;
  std::string stop_rule_ ABSL_GUARDED_BY(mu_);
};

BackendJob Race::RoundJob(size_t index, uint32_t round,
                          v1::SolveParams& params) {
  const Racer& racer = racers_[index];
  params = racer.plan.params;
  if (racer.plan.sweeps_growth > 1 && params.has_num_sweeps()) {
    const double sweeps =
        params.num_sweeps() *
        std::pow(racer.plan.sweeps_growth, std::min(round, 64u));
    params.set_num_sweeps(
        static_cast<uint32_t>(std::min<double>(sweeps, racer.plan.max_sweeps)));
  }
  if (racer.plan.sized_to_time) SizeRound(index, params);
  // Racer i's round r: unrelated to every other racer's and round's streams.
  const uint64_t seed = DeriveSeed(DeriveSeed(options_.seed, index), round);
  params.set_seed(seed);
  BackendJob job;
  job.spec = job_.spec;
  job.problem = job_.problem;
  job.params = &params;
  const JobBudget budget =
      racer.backend->Budget(params, RequestedBudget(params));
  job.num_reads = budget.num_reads;
  job.num_sweeps = budget.num_sweeps;
  job.seed = seed;
  if (!options_.puzzle) job.target_energy = options_.target_energy;
  // The caller's starting states seed the first round only.
  if (round == 0) {
    job.initial_states = job_.initial_states;
  } else if (racer.plan.resumes_from_best) {
    absl::MutexLock lock(&mu_);
    if (!best_state_.empty()) job.initial_states = {best_state_};
  }
  return job;
}

void Race::SizeRound(size_t index, v1::SolveParams& params) {
  const absl::Time deadline = parent_.deadline();
  if (deadline == absl::InfiniteFuture() || options_.pool == nullptr) return;
  const RacerPlan& plan = racers_[index].plan;
  // The threads this call may count on: the pool's over the solves sharing
  // it now, this one included.
  const double threads = options_.pool->num_threads();
  const double share_threads =
      threads / static_cast<double>(options_.pool->active_groups() + 1);
  RoundTiming timing;
  {
    absl::MutexLock lock(&mu_);
    RacerState& state = states_[index];
    if (plan.reads_per_thread > 0) {
      if (state.round_reads == 0) {
        state.round_reads =
            plan.reads_per_thread *
            static_cast<uint32_t>(std::clamp(share_threads, 1.0, threads));
      }
      params.set_num_reads(state.round_reads);
    }
    if (state.last_attempts > 0 && state.last_elapsed > absl::ZeroDuration()) {
      timing.attempts_per_second =
          state.last_attempts / absl::ToDoubleSeconds(state.last_elapsed);
      timing.measured = true;
    }
  }
  timing.time_left = deadline - absl::Now();
  timing.reads = params.has_num_reads() ? params.num_reads() : 100;
  timing.attempts_per_read_sweep = job_.problem->model.num_variables();
  const uint32_t planned =
      params.has_num_sweeps() ? params.num_sweeps() : kDefaultRoundSweeps;
  if (!timing.measured) {
    // No round of this call measured yet: the kernel's speed per thread, as
    // earlier rounds measured it, on the threads this round's reads can use
    // of those this call counts on; never measured, a short round times it.
    const std::optional<double> speed =
        options_.speeds == nullptr ? std::nullopt
                                   : options_.speeds->Get(SpeedKey(index));
    const double words =
        plan.reads_per_thread > 0
            ? static_cast<double>(timing.reads) / plan.reads_per_thread
            : threads;
    timing.attempts_per_second =
        speed.value_or(kAutoSlowestAttemptsPerCpuSecond) *
        std::min(words, share_threads);
    if (!speed && RoundSweepsForTime(planned, timing) < planned) {
      params.set_num_sweeps(std::min(planned, kAutoMinRoundSweeps));
      return;
    }
  }
  params.set_num_sweeps(RoundSweepsForTime(planned, timing));
}

void Race::LaunchDue() {
  if (next_follower_.load(std::memory_order_acquire) >= racers_.size()) return;
  const absl::Duration elapsed = absl::Now() - start_;
  absl::MutexLock lock(&launch_mu_);
  size_t next = next_follower_.load(std::memory_order_relaxed);
  while (next < racers_.size() && elapsed >= racers_[next].plan.start_after) {
    Launch(next++);
  }
  next_follower_.store(next, std::memory_order_release);
}

void Race::LaunchRemaining() {
  absl::MutexLock lock(&launch_mu_);
  size_t next = next_follower_.load(std::memory_order_relaxed);
  if (stop_.reason() == StopReason::kNone) {
    while (next < racers_.size()) Launch(next++);
  }
  next_follower_.store(racers_.size(), std::memory_order_release);
}

void Race::RunRacer(size_t index) {
  for (uint32_t round = 0; RunRound(index, round); ++round) {
  }
}

bool Race::RunRound(size_t index, uint32_t round) {
  if (stop_.ShouldStop()) return false;
  const Racer& racer = racers_[index];
  v1::SolveParams params;
  const BackendJob job = RoundJob(index, round, params);
  {
    absl::MutexLock lock(&mu_);
    states_[index].round_best = kInf;
  }
  RacerSink sink(this, index);
  const absl::Time round_start = absl::Now();
  absl::StatusOr<BackendResult> result = racer.backend->Solve(job, sink, stop_);
  absl::MutexLock lock(&mu_);
  RacerState& state = states_[index];
  ++state.rounds;
  state.elapsed += absl::Now() - round_start;
  if (!result.ok()) {
    // A racer stopped by the race may answer with an error (exact
    // enumeration does): not the solve's.
    if (stop_.reason() == StopReason::kNone) state.error = result.status();
    return false;
  }
  state.sweeps += result->sweeps_done;
  if (!result->info.moves().empty()) state.moves = result->info.moves();
  if (racer.plan.supplies_board)
    state.reads_cut_short += static_cast<uint32_t>(result->reads_cut_short);
  state.last_attempts = result->spin_update_attempts;
  state.last_elapsed = absl::Now() - round_start;
  if (options_.speeds != nullptr && result->stop_reason == StopReason::kNone)
    options_.speeds->Record(SpeedKey(index), result->spin_update_attempts,
                            result->cpu_time);
  state.attempts += result->spin_update_attempts;
  state.accepted += result->accepted_flips;
  state.cpu_time += result->cpu_time;
  if (racer.plan.exact) {
    OnExactEnd(index, *result);
    return false;
  }
  if (stop_.reason() != StopReason::kNone || !racer.plan.restarts) return false;
  OnRoundEnd(index);
  return stop_.reason() == StopReason::kNone;
}

void Race::OnSample(size_t index, Sample sample) {
  const Racer& racer = racers_[index];
  // Decoding runs outside the lock; the sink remembers the verdict.
  const bool valid =
      options_.puzzle && sink_.IsValidBoard(sample.bits).value_or(false);
  absl::MutexLock lock(&mu_);
  RacerState& state = states_[index];
  state.round_best = std::min(state.round_best, sample.energy);
  if (!racer.plan.supplies_board) return;
  state.reads += static_cast<uint32_t>(sample.num_occurrences);
  const double energy = sample.energy;
  const bool better = !has_best_ || (valid && !best_valid_) ||
                      (valid == best_valid_ && energy < best_energy_);
  if (better) {
    has_best_ = true;
    best_valid_ = valid;
    best_energy_ = energy;
    solved_by_ = racer.plan.backend;
    if (keeps_best_state_) best_state_ = sample.bits;
  }
  sample.read_index = next_read_index_++;
  sink_.OnSample(std::move(sample));
  if (valid && !first_valid_) first_valid_ = absl::Now() - start_;
  if (valid && options_.stop_at_valid) Stop("valid board");
  if (valid && proven_optimum_ && AtOrBelow(energy, *proven_optimum_))
    Stop("proven optimum");
  if (!options_.puzzle) CheckRawStop(energy);
}

void Race::CheckRawStop(double energy) {
  if (options_.target_energy && AtOrBelow(energy, *options_.target_energy))
    Stop("target energy");
  if (proven_optimum_ && AtOrBelow(energy, *proven_optimum_))
    Stop("proven optimum");
  if (options_.lower_bound && AtOrBelow(energy, *options_.lower_bound)) {
    proven_optimum_ = *options_.lower_bound;
    Stop("proven optimum");
  }
}

void Race::OnExactEnd(size_t index, const BackendResult& result) {
  if (result.exact) {
    // The puzzle's rules: a proof that no board exists ends the race (and
    // is the summary's ExactSummary). A board sat found is one like any
    // other: its search stopped at one, so it says nothing of uniqueness.
    // A search that ran to its end with boards found (a model's objective
    // bounded until no board is better) proved its last board optimal.
    if (result.exact->status() == v1::SATISFIABLE && result.exact->complete() &&
        racers_[index].plan.supplies_board) {
      const double optimum = states_[index].round_best;
      if (!std::isfinite(optimum)) return;
      proven_optimum_ = optimum;
      if (has_best_ && best_valid_ && AtOrBelow(best_energy_, optimum))
        Stop("proven optimum");
      return;
    }
    if (result.exact->status() != v1::UNSATISFIABLE) return;
    exact_ = *result.exact;
    solved_by_ = racers_[index].plan.backend;
    Stop("infeasible");
    return;
  }
  // Exact enumeration that ran to the end found the optimum. A puzzle's
  // race ends on it only at a valid board: a model's penalties may leave a
  // broken board lowest where no board keeps every rule, which sat proves.
  const double optimum = states_[index].round_best;
  if (result.stop_reason != StopReason::kNone || !std::isfinite(optimum))
    return;
  proven_optimum_ = optimum;
  if (has_best_ && (best_valid_ || !options_.puzzle) &&
      AtOrBelow(best_energy_, optimum))
    Stop("proven optimum");
}

void Race::OnRoundEnd(size_t index) {
  // Rounds that agree on an answer that breaks a rule (a model's least
  // violated one) do not end the race: a feasible one may still come.
  if (options_.agreeing_rounds <= 0 || !has_best_ ||
      (options_.puzzle && !best_valid_))
    return;
  const double round_best = states_[index].round_best;
  if (!AtOrBelow(round_best, best_energy_)) return;
  if (agree_energy_ != best_energy_) {
    agree_energy_ = best_energy_;
    agreeing_.assign(racers_.size(), 0);
  }
  ++agreeing_[index];
  // Every sampler must agree: one racer's quick rounds settling on a local
  // optimum do not end the race while another's longer ones go on (a
  // model's pt ladders beside tabu's restarts; docs/auto.md, "When a race
  // stops").
  for (size_t r = 0; r < racers_.size(); ++r) {
    if (!racers_[r].plan.exact && agreeing_[r] < options_.agreeing_rounds)
      return;
  }
  Stop("agreeing rounds");
}

StopReason Race::FinalStopReason() const {
  if (parent_.reason() != StopReason::kNone) return parent_.reason();
  if (stop_rule_ == "infeasible" || stop_rule_ == "agreeing rounds")
    return StopReason::kNone;
  return stop_rule_.empty() ? StopReason::kNone : StopReason::kTargetReached;
}

std::string Race::FinalStopRule() const {
  switch (parent_.reason()) {
    case StopReason::kNone:
      return stop_rule_.empty() ? "reads done" : stop_rule_;
    case StopReason::kTimeLimit:
      return "time limit";
    case StopReason::kTargetReached:
      return "valid board";  // the engine's stop_at_first_valid
    default:
      return "stopped";
  }
}

void Race::FillInfo(v1::AutoInfo& info) const {
  double seconds = 0, attempts = 0;
  for (const RacerState& s : states_) {
    seconds += absl::ToDoubleSeconds(s.elapsed);
    attempts += static_cast<double>(s.attempts);
  }
  for (size_t i = 0; i < racers_.size(); ++i) {
    const RacerState& s = states_[i];
    v1::RacedBackend* r = info.add_raced();
    r->set_name(racers_[i].plan.backend);
    r->set_rounds(s.rounds);
    r->set_reads(s.reads);
    r->set_seconds(absl::ToDoubleSeconds(s.elapsed));
    r->set_time_share(seconds > 0 ? r->seconds() / seconds : 0);
    r->set_spin_update_attempts(static_cast<uint64_t>(s.attempts));
    r->set_attempt_share(attempts > 0 ? s.attempts / attempts : 0);
    r->set_supplies_board(racers_[i].plan.supplies_board);
  }
  info.set_stop_rule(FinalStopRule());
  if (first_valid_)
    info.set_first_valid_seconds(absl::ToDoubleSeconds(*first_valid_));
  if (proven_optimum_) info.set_proven_optimum(*proven_optimum_);
}

absl::StatusOr<BackendResult> Race::Result() {
  absl::MutexLock lock(&mu_);
  BackendResult result;
  for (const RacerState& s : states_) {
    if (!s.error.ok() && !has_best_ && stop_rule_.empty()) return s.error;
    result.reads_done += static_cast<int>(s.reads);
    result.reads_cut_short += static_cast<int>(s.reads_cut_short);
    result.sweeps_done += s.sweeps;
    result.spin_update_attempts += s.attempts;
    result.accepted_flips += s.accepted;
    result.cpu_time += s.cpu_time;
  }
  result.stop_reason = FinalStopReason();
  result.seed = options_.seed;
  result.elapsed = absl::Now() - start_;
  result.exact = exact_;
  result.solved_by = solved_by_;
  FillInfo(*result.info.mutable_auto_());
  result.info.set_moves(RacedMoves());
  return result;
}

std::string Race::RacedMoves() const {
  std::vector<std::string> parts;
  for (size_t i = 0; i < racers_.size(); ++i) {
    if (!states_[i].moves.empty())
      parts.push_back(
          absl::StrCat(racers_[i].plan.backend, ": ", states_[i].moves));
  }
  return absl::StrJoin(parts, "; ");
}

}  // namespace

std::optional<double> KernelSpeeds::Get(const std::string& backend) const {
  absl::MutexLock lock(&mu_);
  auto it = speed_.find(backend);
  if (it == speed_.end()) return std::nullopt;
  return it->second;
}

void KernelSpeeds::Record(const std::string& backend, int64_t attempts,
                          absl::Duration cpu_time) {
  const double seconds = absl::ToDoubleSeconds(cpu_time);
  // Rounds too short to time say little.
  if (attempts <= 0 || seconds < 1e-3) return;
  const double speed = attempts / seconds;
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = speed_.try_emplace(backend, speed);
  if (!inserted) it->second += kSpeedWeight * (speed - it->second);
}

uint32_t RoundSweepsForTime(uint32_t planned, const RoundTiming& timing) {
  const double seconds = absl::ToDoubleSeconds(timing.time_left);
  const double per_sweep = static_cast<double>(timing.reads) *
                           static_cast<double>(timing.attempts_per_read_sweep);
  if (timing.attempts_per_second <= 0 || per_sweep <= 0) return planned;
  const double share =
      timing.measured ? kAutoRoundTimeShare : kAutoFirstRoundTimeShare;
  const double affordable =
      share * std::max(0.0, seconds) * timing.attempts_per_second / per_sweep;
  const double sweeps = std::clamp<double>(
      affordable, kAutoMinRoundSweeps, std::max(planned, kAutoMinRoundSweeps));
  return std::min(planned, static_cast<uint32_t>(sweeps));
}

absl::StatusOr<BackendResult> RunRace(const BackendJob& job,
                                      const std::vector<Racer>& racers,
                                      const RaceOptions& options,
                                      SampleSink& sink,
                                      Interrupter& interrupter) {
  Race race(job, racers, options, sink, interrupter);
  race.Run();
  return race.Result();
}

}  // namespace qs
