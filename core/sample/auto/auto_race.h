// The race of the "auto" backend: each chosen backend runs on its own thread
// (never as a task of the shared worker pool, which the samplers themselves
// fill and wait on), samplers in rounds with new derived seeds, exact engines
// once. Their samples go to the solve's sink as they come, renumbered, and
// the race stops when the answer is known: a valid board, a proof that there
// is none, the target energy, a proven optimum, K rounds agreeing on the best
// energy, or the solve's own stop (time limit, cancel, deadline).
#ifndef QS_CORE_SAMPLE_AUTO_AUTO_RACE_H_
#define QS_CORE_SAMPLE_AUTO_AUTO_RACE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/backend/backend.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/sample/auto/auto_plan.h"

namespace qs {

// How fast each sampler's kernel runs on this server: spin-update attempts
// per CPU second of one thread, learned from every round of every race (the
// last rounds weigh most). Thread-safe.
class KernelSpeeds {
 public:
  // Attempts per CPU second of `backend`'s kernel; none until a round of it
  // was measured.
  std::optional<double> Get(const std::string& backend) const;
  void Record(const std::string& backend, int64_t attempts,
              absl::Duration cpu_time);

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, double> speed_ ABSL_GUARDED_BY(mu_);
};

// What sizes a round to the time left (RacerPlan::sized_to_time).
struct RoundTiming {
  absl::Duration time_left;
  // Attempts per second this call's racer gets: measured on its last round,
  // or estimated from the kernel's speed and the pool's share.
  double attempts_per_second = 0;
  int64_t attempts_per_read_sweep = 0;  // the model's variables
  uint32_t reads = 0;
  // The rate was measured on this call's last round (else estimated).
  bool measured = false;
};

// Share of the time left one round may take: a round sized to all of it
// would be cut by any slowdown, and the next round still gets a complete
// schedule in what remains (docs/auto.md, "Rounds under a time limit").
inline constexpr double kAutoRoundTimeShare = 0.5;
// ... and the share a round may take when its rate is only estimated: solves
// that arrive together each see the pool before the others have joined it,
// and then get a fraction of what they counted on.
inline constexpr double kAutoFirstRoundTimeShare = 0.25;
// A round runs at least this many sweeps, however little time is left; one
// cut short is still delivered as it stands. A kernel this server has not
// timed yet runs a first round of this many sweeps, which measures it, unless
// the planned round fits the time even at kAutoSlowestAttemptsPerCpuSecond:
// no assumed speed holds for a Release and a sanitizer build alike.
inline constexpr uint32_t kAutoMinRoundSweeps = 16;
// Attempts per CPU second of one thread below any kernel and build: the
// bit-sliced kernel runs about 8e9 in Release, and sanitizer builds several
// times slower.
inline constexpr double kAutoSlowestAttemptsPerCpuSecond = 5e7;

// The sweeps of a round that `planned` sweeps would take: cut so that the
// round takes at most kAutoRoundTimeShare of the time left
// (kAutoFirstRoundTimeShare at an estimated rate), never below
// kAutoMinRoundSweeps nor above `planned`.
uint32_t RoundSweepsForTime(uint32_t planned, const RoundTiming& timing);

struct RaceOptions {
  // A puzzle: boards are validated, and the first valid one ends the race
  // when stop_at_valid.
  bool puzzle = false;
  bool stop_at_valid = false;
  // Raw models: a read at or below it ends the race.
  std::optional<double> target_energy;
  // Raw models: a proven lower bound of the energy (the roof dual); a read
  // that reaches it is optimal.
  std::optional<double> lower_bound;
  // Raw models: rounds that end at the best energy, with none lower found
  // since, that end the race; 0: no such rule.
  int agreeing_rounds = 0;
  uint64_t seed = 0;
  // The samplers' pool (its size and occupancy) and the kernels' speeds, for
  // racers sized to the time; may be null (no sizing).
  const WorkerPool* pool = nullptr;
  KernelSpeeds* speeds = nullptr;
  // The kernel class the samplers run on this model ("bitsliced" or "float"):
  // speeds are kept per backend and class.
  std::string kernel_class = "float";
};

struct Racer {
  const Backend* backend = nullptr;
  RacerPlan plan;
};

// Runs the race and reports it as one backend's result: the summed
// statistics, result.exact from sat's proof of infeasibility, solved_by,
// and info.auto_ with the raced backends and the stop rule (the caller adds
// the table's rule). An error of a racer is returned only when no racer
// delivered a sample and the race was not stopped.
absl::StatusOr<BackendResult> RunRace(const BackendJob& job,
                                      const std::vector<Racer>& racers,
                                      const RaceOptions& options,
                                      SampleSink& sink,
                                      Interrupter& interrupter);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_AUTO_AUTO_RACE_H_
