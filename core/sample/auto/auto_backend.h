// The "auto" backend (docs/auto.md): the default of every solve. It reads the
// compiled model's features, picks backends and their parameters from a rule
// table built from measurements (auto_plan.h), races them (auto_race.h) and
// stops when the answer is known: a valid board or a proof that there is none
// for a puzzle; the target, a proven optimum or agreeing rounds for a raw
// model; else its time limit (the request's, or 10 s).
#ifndef QS_CORE_SAMPLE_AUTO_AUTO_BACKEND_H_
#define QS_CORE_SAMPLE_AUTO_AUTO_BACKEND_H_

#include <memory>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/backend/backend.h"
#include "core/backend/registry.h"
#include "core/base/worker_pool.h"

namespace qs {

inline constexpr absl::string_view kAutoBackend = "auto";
// The time limit of a solve that sets none.
inline constexpr absl::Duration kAutoDefaultTimeLimit = absl::Seconds(10);

// `registry` holds the backends it races; it must outlive the backend (the
// backend may be registered in it). `pool` is the pool the samplers share: its
// size (a round of bit-sliced cpu-sa gives each thread a word) and its
// occupancy (the share of it a solve gets) size the rounds.
std::unique_ptr<Backend> NewAutoBackend(const BackendRegistry* registry,
                                        const WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_AUTO_AUTO_BACKEND_H_
