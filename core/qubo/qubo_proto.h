// Conversion between the core Qubo and the wire message qs.v1.QuboModel (BINARY
// or SPIN form). Validation errors name the offending field, e.g. "qubo.i[3]:
// 800 >= num_variables 729".
#ifndef QS_CORE_QUBO_QUBO_PROTO_H_
#define QS_CORE_QUBO_QUBO_PROTO_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/qubo/qubo.h"
#include "qs/v1/qubo.pb.h"

namespace qs {

// Builds a Qubo from a wire model; SPIN models are converted exactly (s = 2x -
// 1). `field` prefixes error messages ("puzzle.qubo").
absl::StatusOr<Qubo> QuboFromProto(const v1::QuboModel& model,
                                   absl::string_view field = "qubo");
// BINARY wire form: linear terms as (i, i, w), then couplers sorted by (i, j);
// labels when present.
v1::QuboModel QuboToProto(const Qubo& qubo);

}  // namespace qs

#endif  // QS_CORE_QUBO_QUBO_PROTO_H_
