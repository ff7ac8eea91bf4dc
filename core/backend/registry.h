// BackendRegistry: backend name -> Backend, for everything that answers a
// Solve. Filled once at start-up by RegisterBuiltinBackends
// (core/solve/builtin_backends.h, the one list of every backend) and
// read-only afterwards.
#ifndef QS_CORE_BACKEND_REGISTRY_H_
#define QS_CORE_BACKEND_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/backend/backend.h"
#include "core/base/registry.h"

namespace qs {

// The backend of a request that names none: "auto" picks and races the others.
inline constexpr absl::string_view kDefaultBackend = "auto";
// What draws solutions by sampling when a request names no backend there
// (Generate's sampling): a sampler, not a race that a rules solver may win.
inline constexpr absl::string_view kDefaultSamplingBackend = "cpu-sa";

class BackendRegistry {
 public:
  // ALREADY_EXISTS when the name is taken.
  absl::Status Register(std::unique_ptr<Backend> backend) {
    std::string name(backend->name());
    return backends_.Register(std::move(backend), std::move(name));
  }
  // The backend of that name ("" is the default backend), or null.
  const Backend* Find(absl::string_view name) const {
    return backends_.Find(name.empty() ? kDefaultBackend : name);
  }
  // The backend of that name; INVALID_ARGUMENT naming `field` and the known
  // backends when the name is unknown.
  absl::StatusOr<const Backend*> Get(absl::string_view name,
                                     absl::string_view field) const {
    return backends_.Get(name.empty() ? kDefaultBackend : name, field);
  }
  // Every backend, in registration order.
  std::vector<const Backend*> All() const { return backends_.All(); }

  // The backend a request's parameters name: `backend`; else the backend
  // whose own parameter message they carry (a client that sets cpu_sa without
  // naming cpu-sa meant cpu-sa, the default before auto); else the default.
  std::string NameFor(const v1::SolveParams& params) const {
    if (!params.backend().empty()) return params.backend();
    const auto* oneof =
        params.GetDescriptor()->FindOneofByName("backend_params");
    if (const auto* field =
            params.GetReflection()->GetOneofFieldDescriptor(params, oneof)) {
      for (const Backend* backend : All())
        if (backend->params_field() == field->name())
          return std::string(backend->name());
    }
    return std::string(kDefaultBackend);
  }

 private:
  Registry<Backend> backends_{"backend"};
};

}  // namespace qs

#endif  // QS_CORE_BACKEND_REGISTRY_H_
