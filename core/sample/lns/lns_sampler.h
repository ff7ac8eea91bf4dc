// LnsSampler: large-neighbourhood search (backend "lns", README.md, after
// [Shaw 1998]). Each read is an iterated local search [Lourenço et al. 2003]:
// passes of windows, each re-solved exactly with the rest of the state held
// (window_dp.h), until a few passes in a row gain nothing; then a random region
// is flipped and the search descends again, keeping the new local optimum when
// it is no worse. On a 2D lattice (lattice.h) the windows are strips of rows or
// columns and the kicks rectangles; elsewhere both are breadth-first balls.
// Reads are tasks of the shared WorkerPool; read r depends on DeriveSeed(seed,
// r) alone.
#ifndef QS_CORE_SAMPLE_LNS_LNS_SAMPLER_H_
#define QS_CORE_SAMPLE_LNS_LNS_SAMPLER_H_

#include <memory>
#include <optional>

#include "core/base/worker_pool.h"
#include "core/qubo/qubo.h"
#include "core/sample/lns/lattice.h"
#include "core/sample/sampler.h"

namespace qs {

// Passes of a read when the request leaves num_sweeps unset.
inline constexpr int kDefaultLnsPasses = 1000;
// Rows of a lattice strip: a frontier of 13, 2^13 energies per step.
inline constexpr int kLnsStripHeight = 12;
// The widest frontier of a breadth-first window elsewhere.
inline constexpr int kLnsBallFrontier = 12;
// Passes in a row without a gain that end a descent.
inline constexpr int kLnsStallPasses = 4;
// The largest side of a lattice kick's rectangle.
inline constexpr int kLnsKickSide = 30;

// The model's lattice shape, kept with the compiled problem when `derived`
// is set.
std::shared_ptr<const std::optional<LatticeShape>> CachedLattice(
    const Qubo& model, DerivedCache* derived);

std::unique_ptr<Sampler> NewLnsSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_LNS_LNS_SAMPLER_H_
