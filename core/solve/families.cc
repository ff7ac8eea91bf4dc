// SolveEngine::ListFamilies: the families and raw model kinds the service
// takes, from the family registry (core/families/) and the text formats, so
// that clients offer what the server has instead of lists of their own
// (docs/api.md).
#include <string>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/builtin.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"

namespace qs {
namespace {

// A solution drawn over the puzzle must be one of its boards: Solve's
// solutions are; a client's own may not be.
absl::Status CheckSolutionFits(const v1::BoardPicture& picture,
                               const v1::DrawRequest& request) {
  const size_t cells = size_t{picture.rows()} * picture.cols();
  if (static_cast<size_t>(picture.cells_size()) != cells) {
    return absl::InternalError(absl::StrCat("drawing: ", picture.cells_size(),
                                            " cells for a ", picture.rows(),
                                            "x", picture.cols(), " board"));
  }
  if (request.has_solution() &&
      static_cast<size_t>(request.solution().cells_size()) != cells) {
    return absl::InvalidArgumentError(
        absl::StrCat("solution.cells: ", request.solution().cells_size(),
                     " cells for a board of ", cells));
  }
  return absl::OkStatus();
}

}  // namespace

v1::ListFamiliesResponse SolveEngine::ListFamilies() const {
  absl::flat_hash_map<std::string, formats::TextKind> texts;
  for (formats::TextKind& kind : formats::TextKinds()) {
    std::string name = kind.kind;
    texts.emplace(std::move(name), std::move(kind));
  }
  v1::ListFamiliesResponse response;
  for (const FamilyInfo* info : BuiltinFamilies().All()) {
    for (const std::string& kind : info->text_kinds) {
      auto text = texts.find(kind);
      if (text == texts.end()) continue;  // the families' test keeps them
      absl::StatusOr<v1::PuzzleSpec> example =
          formats::ParsePuzzleText(kind, text->second.example);
      if (!example.ok()) continue;  // the formats' test keeps every example
      const auto* field = v1::PuzzleSpec::descriptor()->FindFieldByNumber(
          example->puzzle_case());
      // A registry of the engine's own (tests) may leave a family out.
      if (field == nullptr || !compilers_->ForSpec(*example).ok()) continue;
      v1::FamilyDescription& family = *response.add_families();
      family.set_kind(kind);
      family.set_puzzle_field(std::string(field->name()));
      family.set_description(text->second.description);
      family.set_rules(info->rules != nullptr);
      family.set_generate(BuiltinGenerators().Get(kind).ok());
      family.set_example(text->second.example);
      family.set_board(info->board);
      family.set_draws(info->draw != nullptr);
      family.set_writer(text->second.writer);
    }
  }
  return response;
}

absl::StatusOr<v1::ParseResponse> SolveEngine::Parse(
    const v1::ParseRequest& request) const {
  if (request.kind().empty())
    return absl::InvalidArgumentError("kind: a text kind is required");
  v1::ParseResponse response;
  absl::StatusOr<v1::PuzzleSpec> puzzle =
      formats::ParsePuzzleText(request.kind(), request.text());
  if (!puzzle.ok()) {
    const bool unknown_kind =
        !absl::c_linear_search(formats::PuzzleKinds(), request.kind());
    return absl::InvalidArgumentError(absl::StrCat(
        unknown_kind ? "kind: " : "text: ", puzzle.status().message()));
  }
  *response.mutable_puzzle() = *std::move(puzzle);
  if (!request.board().empty()) {
    absl::StatusOr<v1::PuzzleSolution> board = formats::ParseBoardText(
        request.kind(), response.puzzle(), request.board());
    if (!board.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("board: ", board.status().message()));
    *response.mutable_board() = *std::move(board);
  }
  absl::StatusOr<const PuzzleCompiler*> compiler =
      compilers_->ForSpec(response.puzzle());
  if (compiler.ok()) response.set_family(std::string((*compiler)->kind()));
  return response;
}

absl::StatusOr<v1::DrawResponse> SolveEngine::Draw(
    const v1::DrawRequest& request) const {
  absl::StatusOr<const PuzzleCompiler*> compiler =
      compilers_->ForSpec(request.puzzle());
  if (!compiler.ok()) return compiler.status();
  const FamilyInfo* family = BuiltinFamilies().Find((*compiler)->kind());
  if (family == nullptr || family->draw == nullptr) {
    return absl::UnimplementedError(absl::StrCat(
        "puzzle: the ", (*compiler)->kind(), " family draws no boards"));
  }
  // The puzzle alone first: its size is what a solution must fit.
  absl::StatusOr<v1::BoardPicture> picture =
      family->draw(request.puzzle(), nullptr);
  if (!picture.ok()) return picture.status();
  RETURN_IF_ERROR(CheckSolutionFits(*picture, request));
  if (request.has_solution()) {
    picture = family->draw(request.puzzle(), &request.solution());
    if (!picture.ok()) return picture.status();
  }
  v1::DrawResponse response;
  *response.mutable_picture() = *std::move(picture);
  return response;
}

}  // namespace qs
