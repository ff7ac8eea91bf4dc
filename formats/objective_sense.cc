// Which raw models maximise their objective; see objective_sense.h.
#include "formats/objective_sense.h"

namespace qs::formats {

std::optional<v1::Sense> ObjectiveSense(const v1::PuzzleSpec& puzzle) {
  if (puzzle.has_maxcut()) return v1::MAXIMIZE;
  if (puzzle.has_qubo())
    return puzzle.qubo().sense() == v1::MAXIMIZE ? v1::MAXIMIZE : v1::MINIMIZE;
  return std::nullopt;
}

}  // namespace qs::formats
