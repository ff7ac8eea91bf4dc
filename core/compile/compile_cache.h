// CompileCache: the compiled problems of recently seen puzzles
// (docs/architecture.md §5 step 5), so that a puzzle solved again (a benchmark
// loop, more reads with a new seed, the same board from many clients) skips
// compiling. Keyed by the compiler's kind and the deterministic serialization
// of the PuzzleSpec and CompileOptions, so only byte-identical requests share
// an entry; compilers are pure functions of those two messages, which makes a
// hit exact. Least recently used entries leave first when either the entry or
// the byte budget is exceeded. Errors are not cached. Thread-safe.
#ifndef QS_CORE_COMPILE_COMPILE_CACHE_H_
#define QS_CORE_COMPILE_COMPILE_CACHE_H_

#include <cstdint>
#include <list>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "core/compile/compiler.h"

namespace qs {

struct CompileCacheOptions {
  int64_t max_entries = 256;               // 0 disables the cache
  int64_t max_bytes = int64_t{256} << 20;  // approximate, see ProblemBytes
};

struct CompileCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  int64_t entries = 0;
  int64_t bytes = 0;
};

// Approximate heap bytes of a compiled problem (both models, the variable
// map, labels), what the byte budget counts.
int64_t ProblemBytes(const CompiledProblem& problem);

class CompileCache {
 public:
  using Problem = std::shared_ptr<const CompiledProblem>;

  explicit CompileCache(CompileCacheOptions options);

  // The problem of (spec, options): from the cache, or compiled by `compiler`
  // and kept. `hit` (optional) says which. Two threads missing the same key
  // at once both compile; the second result replaces the first.
  absl::StatusOr<Problem> GetOrCompile(const PuzzleCompiler& compiler,
                                       const v1::PuzzleSpec& spec,
                                       const v1::CompileOptions& options,
                                       bool* hit = nullptr);

  CompileCacheStats stats() const;
  const CompileCacheOptions& options() const { return options_; }

 private:
  struct Entry {
    std::string key;
    Problem problem;
    int64_t bytes = 0;
  };
  void EvictLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const CompileCacheOptions options_;
  mutable absl::Mutex mu_;
  // Most recently used first.
  std::list<Entry> lru_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::list<Entry>::iterator> index_
      ABSL_GUARDED_BY(mu_);
  CompileCacheStats stats_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qs

#endif  // QS_CORE_COMPILE_COMPILE_CACHE_H_
