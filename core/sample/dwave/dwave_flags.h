// The D-Wave backend's server flags (--dwave_*), declared here beside the
// backend: qs_server lists them in its --help and RegisterBuiltinBackends
// reads them unless its host passes DwaveOptions of its own (tests).
#ifndef QS_CORE_SAMPLE_DWAVE_DWAVE_FLAGS_H_
#define QS_CORE_SAMPLE_DWAVE_DWAVE_FLAGS_H_

#include "absl/status/statusor.h"
#include "core/sample/dwave/dwave_options.h"

namespace qs {

// The --dwave_* flags as options; INVALID_ARGUMENT naming the flag for a
// value out of its range.
absl::StatusOr<DwaveOptions> DwaveOptionsFromFlags();

}  // namespace qs

#endif  // QS_CORE_SAMPLE_DWAVE_DWAVE_FLAGS_H_
