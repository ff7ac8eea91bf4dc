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
#include "absl/time/time.h"
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

// Settings of the D-Wave backend ("dwave"), filled from the server's --dwave_*
// flags.
struct DwaveOptions {
  // SAPI base URL; wins over the region. Empty: resolved from the region
  // through the Metadata API.
  std::string endpoint;
  std::string region;  // empty: na-west-1
  std::string
      metadata_endpoint;  // empty: https://cloud.dwavesys.com/metadata/v1/
  // The API token: this value if set (tests), else env DWAVE_API_TOKEN, else
  // the first line of token_file.
  std::string token;
  std::string token_file;
  // Solver selection: a name, or the least-loaded online QPU solver of the
  // topology ("pegasus", "zephyr", or empty for any).
  std::string solver;
  std::string topology;
  double chain_strength_prefactor = 1.414;
  absl::Duration embedding_timeout = absl::Seconds(120);
  int embedding_tries = 10;
  size_t embedding_cache_size = 64;
  absl::Duration connect_timeout = absl::Seconds(60);
  absl::Duration request_timeout = absl::Seconds(120);
  int max_attempts = 8;
  absl::Duration backoff_base = absl::Milliseconds(100);
  absl::Duration backoff_max = absl::Seconds(30);
  int poll_timeout_seconds = 30;  // long-poll wait per request (1..30)
  // Upper bound of a whole solve when the request sets no deadline.
  absl::Duration solve_timeout = absl::Minutes(30);
  // How long a solver definition (and the Available() probe) stays cached.
  absl::Duration solver_cache_ttl = absl::Minutes(15);
  absl::Duration status_cache_ttl = absl::Seconds(60);
};

// What the built-in backends need from their host.
struct BackendOptions {
  WorkerPool* pool = nullptr;  // shared compute pool; required
  DwaveOptions dwave;
};

inline constexpr absl::string_view kDefaultBackend = "cpu-sa";

// Registers every built-in backend (defined in core/sample/builtin.cc).
absl::Status RegisterBuiltinSamplers(SamplerRegistry& registry,
                                     const BackendOptions& options);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_REGISTRY_H_
