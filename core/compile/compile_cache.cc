// CompileCache: an LRU of compiled problems keyed by the request's bytes.
#include "core/compile/compile_cache.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/compile/preprocess_stage.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace qs {
namespace {

int64_t ModelBytes(const Qubo& model) {
  int64_t bytes =
      static_cast<int64_t>(model.linear_terms().size() * sizeof(double) +
                           model.row_start().size() * sizeof(int64_t) +
                           model.adjacency().size() * sizeof(Neighbor));
  for (const std::string& label : model.labels())
    bytes += static_cast<int64_t>(sizeof(std::string) + label.capacity());
  return bytes;
}

int64_t HuboBytes(const std::optional<Hubo>& hubo) {
  if (!hubo) return 0;
  int64_t bytes = 0;
  for (const HuboTerm& term : hubo->terms) {
    bytes += static_cast<int64_t>(sizeof(HuboTerm) +
                                  term.variables.capacity() * sizeof(int32_t));
  }
  return bytes;
}

// Map fields would make plain serialization order-dependent; deterministic
// serialization sorts them, so equal messages give equal keys.
void AppendDeterministic(const google::protobuf::MessageLite& message,
                         std::string* out) {
  google::protobuf::io::StringOutputStream stream(out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeWithCachedSizes(&coded);
}

std::string CacheKey(const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
                     const v1::CompileOptions& options) {
  // ByteSizeLong sets the cached sizes SerializeWithCachedSizes uses. The
  // spec's length keeps apart (spec, options) pairs whose concatenations
  // coincide.
  const size_t spec_bytes = spec.ByteSizeLong();
  options.ByteSizeLong();
  std::string key = absl::StrCat(compiler.kind(), "/", spec_bytes, "/");
  AppendDeterministic(spec, &key);
  AppendDeterministic(options, &key);
  return key;
}

}  // namespace

int64_t ProblemBytes(const CompiledProblem& problem) {
  return static_cast<int64_t>(sizeof(CompiledProblem)) +
         ModelBytes(problem.full_model) + ModelBytes(problem.model) +
         static_cast<int64_t>(problem.variables.num_full()) *
             static_cast<int64_t>(sizeof(VariableMap::Source)) +
         static_cast<int64_t>(problem.variables.num_reduced()) *
             static_cast<int64_t>(sizeof(int32_t)) +
         HuboBytes(problem.higher_order);
}

CompileCache::CompileCache(CompileCacheOptions options) : options_(options) {}

absl::StatusOr<CompileCache::Problem> CompileCache::GetOrCompile(
    const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
    const v1::CompileOptions& options, bool* hit) {
  if (hit != nullptr) *hit = false;
  if (options_.max_entries <= 0) {
    ASSIGN_OR_RETURN(CompiledProblem problem,
                     CompileProblem(compiler, spec, options));
    return std::make_shared<const CompiledProblem>(std::move(problem));
  }
  std::string key = CacheKey(compiler, spec, options);
  {
    absl::MutexLock lock(&mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      ++stats_.hits;
      if (hit != nullptr) *hit = true;
      return it->second->problem;
    }
    ++stats_.misses;
  }
  ASSIGN_OR_RETURN(CompiledProblem compiled,
                   CompileProblem(compiler, spec, options));
  auto problem = std::make_shared<const CompiledProblem>(std::move(compiled));
  const int64_t bytes =
      ProblemBytes(*problem) + static_cast<int64_t>(key.size());
  // A problem over the whole budget would only push everything else out.
  if (bytes > options_.max_bytes) return problem;

  absl::MutexLock lock(&mu_);
  if (auto it = index_.find(key); it != index_.end()) {
    stats_.bytes -= it->second->bytes;
    lru_.erase(it->second);
    index_.erase(it);
  }
  lru_.push_front({key, problem, bytes});
  index_.emplace(std::move(key), lru_.begin());
  stats_.bytes += bytes;
  EvictLocked();
  return problem;
}

void CompileCache::EvictLocked() {
  while (!lru_.empty() &&
         (static_cast<int64_t>(lru_.size()) > options_.max_entries ||
          stats_.bytes > options_.max_bytes)) {
    const Entry& last = lru_.back();
    stats_.bytes -= last.bytes;
    index_.erase(last.key);
    lru_.pop_back();
  }
}

CompileCacheStats CompileCache::stats() const {
  absl::MutexLock lock(&mu_);
  CompileCacheStats stats = stats_;
  stats.entries = static_cast<int64_t>(lru_.size());
  return stats;
}

}  // namespace qs
