// Text formats of puzzles for the command-line client: what people paste or
// keep in files, turned into a qs.v1.PuzzleSpec. One parser per puzzle kind
// (one file each), listed in puzzle_text.cc. Clients speak to the server only
// through the protos, so this library depends on qs_proto alone.
//
// Kinds and formats (details in each parser's file and in docs/formats.md):
//   sudoku  81 characters (or 16, 256, 625 for other sizes), '0' or '.' blank;
//   whitespace and '|', '-', '+'
//           grid decoration are ignored.
//   nqueens N or NxM and options: "8", "8 torus", "8x10 adjacent",
//           "7 queen=1,1" (queens_text.cc).
//   queens  LinkedIn Queens: rows of region letters separated by '/' or
//           newlines, lower case for a pre-placed queen, '#' for a cell off
//           the board: "AABB/aABB/CCDD/CCDD" (queens_text.cc).
//   tents   a Simon Tatham "Tents" game ID as `sgt-tents --generate` prints it
//           ("8x8:abjced...,1,3,0,...") or a grid: a line of column counts,
//           then rows of 'A' (tree) / '.' each ending in its count.
//   chess   rows of piece letters (Q R B N K or custom letters; '.' or '#'
//           for a cell that takes no piece; lower case for a placed piece),
//           an optional "regions" line and grid, "variant", "piece",
//           "weight", "penalty" lines, or "8x8 N" for a board of one piece
//           type (chess_text.cc).
//   takuzu  an Unruly game ID as `sgt-unruly --generate` prints it
//           ("8x8u:..."; "u" asks for unique rows and columns), or a grid of
//           0, 1 and . with rows separated by '/' (Takuzu rules, unique
//           lines). Details in takuzu_text.cc and takuzu_text.md.
//   tango   cell rows (0 / sun, 1 / moon, . blank; '=' or 'x' between two
//           cells) interleaved with sign rows (one '=', 'x' or '.' per column,
//           for the cells above and below), separated by '/' or new lines,
//           e.g. "1=..0/..../...1/..x./0.../..../..x..". Details in
//           takuzu_text.cc and takuzu_text.md.
//   qubo    a raw model in one of the formats of qubo_formats.h (text,
//           qbsolv, orlib, coo, ising), detected from the first lines.
//   maxcut  a graph in the rudy / G-set format: "N E", then E lines "i j w"
//           (1-based; maxcut_text.cc).
//   model   a constrained model in LP, OPB or QPLIB text, told from the first
//           lines (formats/model_text.h, docs/model-formats.md).
#ifndef QS_CLIENTS_FORMATS_PUZZLE_TEXT_H_
#define QS_CLIENTS_FORMATS_PUZZLE_TEXT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::formats {

// Parses `text` as a puzzle of `kind`. INVALID_ARGUMENT with the position of
// the first problem.
absl::StatusOr<v1::PuzzleSpec> ParsePuzzleText(absl::string_view kind,
                                               absl::string_view text);

// The kinds ParsePuzzleText understands, sorted.
std::vector<std::string> PuzzleKinds();

// A text kind as a client offers it: what it is and a small example.
struct TextKind {
  std::string kind;
  std::string description;
  std::string example;
  bool writer = false;  // FormatPuzzleText writes it
};
// Every text kind, in the order of the format list (families first, raw
// models after).
std::vector<TextKind> TextKinds();

// A kind's text format, defined next to its parser (for a family, in its
// folder: core/families/<family>/<kind>_text.cc, as <Name>TextFormat()) and
// listed by one line of puzzle_text.cc.
struct TextFormat {
  std::string kind;
  absl::StatusOr<v1::PuzzleSpec> (*parse_puzzle)(absl::string_view text);
  absl::StatusOr<v1::PuzzleSolution> (*parse_board)(
      const v1::PuzzleSpec& puzzle, absl::string_view text);
  // Null for kinds without a writer.
  absl::StatusOr<std::string> (*format_puzzle)(const v1::PuzzleSpec& puzzle);
  const char* description;
  const char* example;  // docs/formats.md
};

// Writes `puzzle` in the text format of `kind` on one line (rows separated by
// '/'), so that ParsePuzzleText(kind, text) gives the same puzzle back: what
// `qsolve generate` prints. Kinds with a writer: sudoku, queens (LinkedIn:
// square, adjacent diagonals, one queen per row, column and region, at most 26
// regions), takuzu (the grid form: balanced, unique lines, no signs), tango
// (signs between side neighbours only, no unique lines), tents (an sgt-tents
// game ID). INVALID_ARGUMENT when
// the kind has no writer or the format cannot express the puzzle.
absl::StatusOr<std::string> FormatPuzzleText(absl::string_view kind,
                                             const v1::PuzzleSpec& puzzle);

// Parses a board of a puzzle of `kind` (for Validate): rows separated by '/' or
// newlines, in the characters the solver prints (digits for Sudoku; 'Q'/'T'/'1'
// for a piece and '.'/'0'/'A'/'#' for none in the binary-board kinds). Cells
// are row-major as PuzzleSolution.cells.
absl::StatusOr<v1::PuzzleSolution> ParseBoardText(absl::string_view kind,
                                                  const v1::PuzzleSpec& puzzle,
                                                  absl::string_view text);

// Board parsers per kind (each next to its puzzle parser).
absl::StatusOr<v1::PuzzleSolution> ParseSudokuBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text);
// Boards whose cells are 0/1 (queens, tents, Takuzu, raw QUBO): '1', 'Q', 'T'
// are 1; '0', '.', 'A', '#',
// '_' are 0.
absl::StatusOr<v1::PuzzleSolution> ParseBinaryBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text);
// Chess-piece boards: a piece letter on an occupied cell is 1, '.' and '#' are
// 0; the rows keep the letters so that the server can check the piece types.
absl::StatusOr<v1::PuzzleSolution> ParseChessBoard(const v1::PuzzleSpec& puzzle,
                                                   absl::string_view text);
// Takuzu / Tango boards: '0' (or a sun), '1' (or a moon), '.' for an empty
// cell (cells value -1); rows separated by '/' or newlines.
absl::StatusOr<v1::PuzzleSolution> ParseTakuzuBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text);

// One writer per kind that has one (each next to its parser).
absl::StatusOr<std::string> FormatSudokuText(const v1::PuzzleSpec& puzzle);
absl::StatusOr<std::string> FormatQueensText(const v1::PuzzleSpec& puzzle);
absl::StatusOr<std::string> FormatTakuzuText(const v1::PuzzleSpec& puzzle);
// An sgt-tents game ID ("WxH:trees,column counts,row counts").
absl::StatusOr<std::string> FormatTentsText(const v1::PuzzleSpec& puzzle);
absl::StatusOr<std::string> FormatTangoText(const v1::PuzzleSpec& puzzle);
// The rudy / G-set text of a Max-Cut graph (several lines).
absl::StatusOr<std::string> FormatMaxCutText(const v1::PuzzleSpec& puzzle);

// One parser per kind (each defined in its own file).
absl::StatusOr<v1::PuzzleSpec> ParseSudokuText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseNQueensText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseQueensText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseTentsText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseChessText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseQuboPuzzleText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseMaxCutText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseTakuzuText(absl::string_view text);
absl::StatusOr<v1::PuzzleSpec> ParseTangoText(absl::string_view text);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_PUZZLE_TEXT_H_
