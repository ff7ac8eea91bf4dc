// The direction of a raw model's own objective, for the clients'
// conversions between that objective and the energy the samplers minimise
// (`qsolve --target_objective`, the `--export` writers): the formats library
// reads and writes those models, so it knows which of them maximise.
#ifndef QS_FORMATS_OBJECTIVE_SENSE_H_
#define QS_FORMATS_OBJECTIVE_SENSE_H_

#include <optional>

#include "qs/v1/puzzles.pb.h"
#include "qs/v1/qubo.pb.h"

namespace qs::formats {

// A QuboModel's own sense; MAXIMIZE for a Max-Cut graph (energy = -cut
// weight); a constrained model's (read from its text when it has one);
// nullopt for a puzzle, which has no objective of its own.
std::optional<v1::Sense> ObjectiveSense(const v1::PuzzleSpec& puzzle);

}  // namespace qs::formats

#endif  // QS_FORMATS_OBJECTIVE_SENSE_H_
