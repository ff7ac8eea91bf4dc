// SamplerRegistry: backend name -> sampler, or puzzle solver for the backends
// that work on a puzzle's rules (core/sample/puzzle_solver.h). Filled once at
// start-up by RegisterBuiltinSamplers (core/sample/builtin.cc, the one list of
// every backend) and read-only afterwards.
#ifndef QS_CORE_SAMPLE_REGISTRY_H_
#define QS_CORE_SAMPLE_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/worker_pool.h"
#include "core/sample/puzzle_solver.h"
#include "core/sample/sampler.h"

namespace qs {

class SamplerRegistry {
 public:
  // ALREADY_EXISTS when the name is taken (by a sampler or a puzzle solver).
  absl::Status Register(std::unique_ptr<Sampler> sampler);
  absl::Status RegisterPuzzleSolver(std::unique_ptr<PuzzleSolver> solver);
  // The sampler of that name. INVALID_ARGUMENT naming the known backends when
  // the name is unknown, or saying so when it names a puzzle solver.
  absl::StatusOr<const Sampler*> Get(absl::string_view name) const;
  // The puzzle solver of that name, or null.
  const PuzzleSolver* FindPuzzleSolver(absl::string_view name) const;
  // Every sampler, in registration order.
  std::vector<const Sampler*> All() const;
  // Every puzzle solver, in registration order.
  std::vector<const PuzzleSolver*> PuzzleSolvers() const;

 private:
  std::vector<std::string> Names() const;

  std::vector<std::unique_ptr<Sampler>> samplers_;
  std::vector<std::unique_ptr<PuzzleSolver>> puzzle_solvers_;
  absl::flat_hash_map<std::string, const Sampler*> by_name_;
  absl::flat_hash_map<std::string, const PuzzleSolver*> solvers_by_name_;
};

// What the built-in backends need from their host.
struct BackendOptions {
  WorkerPool* pool = nullptr;  // shared compute pool; required
};

inline constexpr absl::string_view kDefaultBackend = "cpu-sa";

// Registers every built-in backend (defined in core/sample/builtin.cc).
absl::Status RegisterBuiltinSamplers(SamplerRegistry& registry,
                                     const BackendOptions& options);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_REGISTRY_H_
