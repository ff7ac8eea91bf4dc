// Which raw models maximise their objective; see objective_sense.h.
#include "formats/objective_sense.h"

#include "formats/model_text.h"

namespace qs::formats {

std::optional<v1::Sense> ObjectiveSense(const v1::PuzzleSpec& puzzle) {
  if (puzzle.has_maxcut()) return v1::MAXIMIZE;
  if (puzzle.has_qubo())
    return puzzle.qubo().sense() == v1::MAXIMIZE ? v1::MAXIMIZE : v1::MINIMIZE;
  if (puzzle.has_model()) {
    // A model's sense is its text's (a text that does not read has none: the
    // server refuses it with its line).
    v1::Sense sense = puzzle.model().sense();
    if (!puzzle.model().text().empty()) {
      auto model =
          ParseModelText(puzzle.model().text(), puzzle.model().format());
      if (!model.ok()) return std::nullopt;
      sense = model->sense();
    }
    return sense == v1::MAXIMIZE ? v1::MAXIMIZE : v1::MINIMIZE;
  }
  return std::nullopt;
}

}  // namespace qs::formats
