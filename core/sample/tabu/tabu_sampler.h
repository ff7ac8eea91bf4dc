// TabuSampler: multistart tabu search (backend "tabu", docs/tabu.md). Reads
// are restarts, run as WorkerPool tasks in rounds of kTabuRoundSize: the
// restarts of the first round start from random (or the caller's) states;
// later rounds start every odd restart from a state of the elite (the best
// distinct results of the rounds before), with a share of its variables
// flipped at random. Restart r draws everything from DeriveSeed(seed, r) and
// the elite changes only between rounds, in restart order, so the same seed
// gives the same samples whatever the thread count. Each restart streams its
// best state when it ends.
#ifndef QS_CORE_SAMPLE_TABU_TABU_SAMPLER_H_
#define QS_CORE_SAMPLE_TABU_TABU_SAMPLER_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

inline constexpr int kTabuRoundSize = 8;

// What the schema (TabuParams' field options) cannot check: stall_sweeps
// within the server's sweep limit. INVALID_ARGUMENT naming the field.
absl::Status CheckTabuParams(const v1::TabuParams& wire, uint32_t max_sweeps,
                             absl::string_view prefix = "params");

// The tenure a model of n variables gets by default: min(20, n / 4), at least
// 1, at most n - 1 (D-Wave's TabuSampler and Palubeckis' MST2 rule).
int DefaultTabuTenure(int n);

std::unique_ptr<Sampler> NewTabuSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_TABU_TABU_SAMPLER_H_
