// Text formats of puzzles for the command-line client: what people paste or keep in files, turned into a
// qs.v1.PuzzleSpec. One parser per puzzle kind (one file each), listed in puzzle_text.cc. Clients speak to
// the server only through the protos, so this library depends on qs_proto alone.
//
// Kinds and formats (details in each parser's file and in the README):
//   sudoku  81 characters (or 16, 256, 625 for other sizes), '0' or '.' blank; whitespace and '|', '-', '+'
//           grid decoration are ignored.
//   takuzu  an Unruly game ID as `sgt-unruly --generate` prints it ("8x8u:..."; "u" asks for unique
//           rows and columns), or a grid of 0, 1 and . with rows separated by '/' (Takuzu rules, unique
//           lines). Details in takuzu_text.cc.
//   tango   cell rows (0 / sun, 1 / moon, . blank; '=' or 'x' between two cells) interleaved with sign
//           rows (one '=', 'x' or '.' per column, for the cells above and below), separated by '/' or
//           new lines, e.g. "1=..0/..../...1/..x./0.../..../..x..". Details in takuzu_text.cc.
//   qubo    the "n m offset" + "i j w" text of ../shared/data/instances (qubo_text.h).
#ifndef QS_CLIENTS_FORMATS_PUZZLE_TEXT_H_
#define QS_CLIENTS_FORMATS_PUZZLE_TEXT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::formats {

// Parses `text` as a puzzle of `kind`. INVALID_ARGUMENT with the position of the first problem.
absl::StatusOr<v1::PuzzleSpec> ParsePuzzleText(absl::string_view kind, absl::string_view text);

// The kinds ParsePuzzleText understands, sorted.
std::vector<std::string> PuzzleKinds();

// One parser per kind (each defined in its own file).
absl::StatusOr<v1::PuzzleSpec> ParseSudokuText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseQuboPuzzleText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseTakuzuText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseTangoText(absl::string_view text);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_PUZZLE_TEXT_H_
