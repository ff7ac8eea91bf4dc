// The built-in backends, in the order ListBackends shows them.
#include "core/solve/builtin_backends.h"

#include "core/base/status_macros.h"
#include "core/sample/auto/auto_backend.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/dwave/dwave_flags.h"
#include "core/sample/dwave/dwave_sampler.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "core/sample/lns/lns_sampler.h"
#include "core/sample/pa/pa_sampler.h"
#include "core/sample/pt/pt_sampler.h"
#include "core/sample/qaoa/qaoa_backend.h"
#include "core/sample/sat/sat_backend.h"
#include "core/sample/sb/sb_sampler.h"
#include "core/sample/sqa/sqa_sampler.h"
#include "core/sample/tabu/tabu_sampler.h"

namespace qs {

absl::Status RegisterBuiltinBackends(BackendRegistry& registry,
                                     const BackendOptions& options) {
  if (options.pool == nullptr)
    return absl::InvalidArgumentError("BackendOptions.pool is required");
  // "auto" races the others, found through the registry it is part of.
  RETURN_IF_ERROR(registry.Register(NewAutoBackend(&registry, options.pool)));
  RETURN_IF_ERROR(registry.Register(NewCpuSaSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewBruteForceSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewPtSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewPaSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewSqaSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewTabuSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewSbSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewLnsSampler(options.pool)));
  RETURN_IF_ERROR(registry.Register(NewSatBackend()));
  ASSIGN_OR_RETURN(const int64_t qaoa_memory,
                   options.qaoa_max_memory_bytes
                       ? absl::StatusOr<int64_t>(*options.qaoa_max_memory_bytes)
                       : QaoaMaxMemoryFromFlags());
  RETURN_IF_ERROR(registry.Register(NewQaoaBackend(options.pool, qaoa_memory)));
  // Always listed; Available() says what is missing (a token) or unreachable.
  ASSIGN_OR_RETURN(const DwaveOptions dwave,
                   options.dwave ? absl::StatusOr<DwaveOptions>(*options.dwave)
                                 : DwaveOptionsFromFlags());
  RETURN_IF_ERROR(registry.Register(NewDwaveSampler(dwave)));
  return absl::OkStatus();
}

}  // namespace qs
