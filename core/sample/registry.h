// SamplerRegistry: backend name -> sampler. Filled once at start-up by
// RegisterBuiltinSamplers (core/sample/builtin.cc, the one list of every
// backend) and read-only afterwards.
#ifndef QS_CORE_SAMPLE_REGISTRY_H_
#define QS_CORE_SAMPLE_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"

namespace qs {

class SamplerRegistry {
 public:
  // ALREADY_EXISTS when the name is taken.
  absl::Status Register(std::unique_ptr<Sampler> sampler);
  // INVALID_ARGUMENT naming the known backends when the name is unknown.
  absl::StatusOr<const Sampler*> Get(absl::string_view name) const;
  // Every sampler, in registration order.
  std::vector<const Sampler*> All() const;

 private:
  std::vector<std::unique_ptr<Sampler>> samplers_;
  absl::flat_hash_map<std::string, const Sampler*> by_name_;
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
