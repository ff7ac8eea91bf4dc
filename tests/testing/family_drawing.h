// A registered family's drawing, called as SolveEngine::Draw calls it, for
// the families' drawing tests.
#ifndef QS_TESTS_TESTING_FAMILY_DRAWING_H_
#define QS_TESTS_TESTING_FAMILY_DRAWING_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/families/builtin.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

// NOT_FOUND when the family is not registered or draws nothing.
inline absl::StatusOr<v1::BoardPicture> DrawWithFamily(
    const std::string& family_name, const v1::PuzzleSpec& spec,
    const v1::PuzzleSolution* solution = nullptr) {
  const FamilyInfo* family = BuiltinFamilies().Find(family_name);
  if (family == nullptr || family->draw == nullptr)
    return absl::NotFoundError(
        absl::StrCat("the ", family_name, " family draws nothing"));
  return family->draw(spec, solution);
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_FAMILY_DRAWING_H_
