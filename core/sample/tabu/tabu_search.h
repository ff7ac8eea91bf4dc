// One restart of tabu search over a QUBO (docs/tabu.md): from a start, make
// the best-improvement single flip that is not tabu (or is tabu but leads
// below the restart's best: aspiration) until a move cap, a stall cap, a
// target or the interrupter ends it. Every variable keeps its flip cost
// delta_i = (1 - 2 x_i)(a_i + sum_j b_ij x_j); a move updates the costs of the
// flipped variable's neighbours only (O(deg)), and picking a move scans the n
// costs with SIMD (n proposals evaluated per move). Ties between equal best
// costs are broken uniformly at random from the restart's own stream, so the
// result depends on the start and the seed alone, never on the CPU.
#ifndef QS_CORE_SAMPLE_TABU_TABU_SEARCH_H_
#define QS_CORE_SAMPLE_TABU_TABU_SEARCH_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/base/interrupter.h"
#include "core/qubo/qubo.h"

namespace qs {

struct TabuRunOptions {
  int tenure = 1;           // a flipped variable is tabu for this many moves
  int64_t max_moves = 0;    // moves of the restart, at most
  int64_t stall_moves = 0;  // moves without a new best that end it
  // Energy (offset included) at or below which the restart ends at once.
  std::optional<double> target_energy;
};

struct TabuRunResult {
  std::vector<uint8_t> best;  // the lowest-energy state met
  double best_energy = 0;     // its energy, offset included (exact)
  int64_t moves = 0;
  int64_t attempts = 0;  // flip costs compared: n per move
  bool interrupted = false;
};

// Runs one restart from `start` (0/1 per variable). Polls the interrupter
// about every kTabuPollWork cost evaluations.
TabuRunResult RunTabu(const Qubo& model, std::vector<uint8_t> start,
                      uint64_t seed, const TabuRunOptions& options,
                      Interrupter& interrupter);

// Cost evaluations (scanned costs plus neighbour updates) between two polls
// of the interrupter: a fraction of a millisecond.
inline constexpr int64_t kTabuPollWork = int64_t{1} << 18;

}  // namespace qs

#endif  // QS_CORE_SAMPLE_TABU_TABU_SEARCH_H_
