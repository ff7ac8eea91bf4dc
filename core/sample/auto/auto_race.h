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
#include <vector>

#include "absl/status/statusor.h"
#include "core/backend/backend.h"
#include "core/base/interrupter.h"
#include "core/sample/auto/auto_plan.h"

namespace qs {

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
