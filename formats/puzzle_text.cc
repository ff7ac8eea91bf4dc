// Dispatch from a puzzle kind to its text parser: the one list of every text
// format.
#include "formats/puzzle_text.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace qs::formats {
namespace {

struct Format {
  std::string kind;
  absl::StatusOr<v1::PuzzleSpec> (*parse_puzzle)(absl::string_view);
  absl::StatusOr<v1::PuzzleSolution> (*parse_board)(const v1::PuzzleSpec&,
                                                    absl::string_view);
  // Null for kinds without a writer.
  absl::StatusOr<std::string> (*format_puzzle)(const v1::PuzzleSpec&);
  const char* description;
  const char* example;  // docs/formats.md
};

const std::vector<Format>& Formats() {
  static const auto* const formats = new std::vector<Format>{
      {"sudoku", &ParseSudokuText, &ParseSudokuBoard, &FormatSudokuText,
       "Sudoku (9x9, 4x4, 16x16, 25x25)",
       ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8....."
       "9...4..65.."},
      {"nqueens", &ParseNQueensText, &ParseBinaryBoard, nullptr,
       "N-queens and its generalizations (NxM, torus, attack distance, "
       "pre-placed queens)",
       "8"},
      {"queens", &ParseQueensText, &ParseBinaryBoard, &FormatQueensText,
       "LinkedIn Queens: one queen per row, column and region, none adjacent",
       "ACCCDDDD/AACCDDDH/AACCCGDD/AFFFFGGD/GFFFGGDD/GGFFGGBB/EGGFGBBB/"
       "GGGGGBBB"},
      {"tents", &ParseTentsText, &ParseBinaryBoard, &FormatTentsText,
       "Tents & Trees (Simon Tatham's Tents game IDs or a grid)",
       "8x8:abjcedccdfcdd,1,3,0,1,3,1,2,1,1,2,1,2,2,1,1,2"},
      {"chess", &ParseChessText, &ParseChessBoard, nullptr,
       "chess-piece placement: maximum independent sets, coloured regions, "
       "custom pieces",
       "QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD"},
      {"takuzu", &ParseTakuzuText, &ParseTakuzuBoard, &FormatTakuzuText,
       "Takuzu / Unruly (Simon Tatham's game IDs or a 0/1/. grid)",
       "6x6u:CibfEFcab"},
      {"tango", &ParseTangoText, &ParseTakuzuBoard, &FormatTangoText,
       "LinkedIn Tango: suns and moons with = and x signs",
       "..01../=...../.....1/....=./.0x..x../.=..../...x.../....x./....../"
       "....../......"},
      {"qubo", &ParseQuboPuzzleText, &ParseBinaryBoard, nullptr,
       "a raw QUBO or Ising model (text, qbsolv, OR-Library, COO, Ising "
       "formats)",
       "3 4 0.5\n0 0 -1\n1 1 -1\n2 2 2\n0 1 3"},
      {"maxcut", &ParseMaxCutText, &ParseBinaryBoard, &FormatMaxCutText,
       "weighted Max-Cut of a graph (rudy / G-set format)",
       "4 5\n1 2 1\n2 3 1\n3 4 1\n4 1 1\n1 3 -1"},
  };
  return *formats;
}

absl::StatusOr<const Format*> FindFormat(absl::string_view kind) {
  for (const Format& format : Formats()) {
    if (format.kind == kind) return &format;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown puzzle kind '", kind, "' (one of ",
                   absl::StrJoin(PuzzleKinds(), ", "), ")"));
}

}  // namespace

std::vector<TextKind> TextKinds() {
  std::vector<TextKind> kinds;
  for (const Format& format : Formats())
    kinds.push_back({format.kind, format.description, format.example,
                     format.format_puzzle != nullptr});
  return kinds;
}

std::vector<std::string> PuzzleKinds() {
  std::vector<std::string> kinds;
  for (const Format& format : Formats()) kinds.push_back(format.kind);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

absl::StatusOr<v1::PuzzleSpec> ParsePuzzleText(absl::string_view kind,
                                               absl::string_view text) {
  auto format = FindFormat(kind);
  if (!format.ok()) return format.status();
  return (*format)->parse_puzzle(text);
}

absl::StatusOr<std::string> FormatPuzzleText(absl::string_view kind,
                                             const v1::PuzzleSpec& puzzle) {
  auto format = FindFormat(kind);
  if (!format.ok()) return format.status();
  if ((*format)->format_puzzle == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("puzzle kind '", kind, "' has no text writer"));
  }
  return (*format)->format_puzzle(puzzle);
}

absl::StatusOr<v1::PuzzleSolution> ParseBoardText(absl::string_view kind,
                                                  const v1::PuzzleSpec& puzzle,
                                                  absl::string_view text) {
  auto format = FindFormat(kind);
  if (!format.ok()) return format.status();
  return (*format)->parse_board(puzzle, text);
}

absl::StatusOr<v1::PuzzleSolution> ParseBinaryBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  v1::PuzzleSolution board;
  uint32_t width = 0;
  for (absl::string_view row :
       absl::StrSplit(text, absl::ByAnyChar("/\n"), absl::SkipWhitespace())) {
    row = absl::StripAsciiWhitespace(row);
    if (width == 0) width = static_cast<uint32_t>(row.size());
    if (row.size() != width) {
      return absl::InvalidArgumentError(
          absl::StrCat("board row ", board.rows_size() + 1, " has ", row.size(),
                       " cells, the first row has ", width));
    }
    for (size_t c = 0; c < row.size(); ++c) {
      switch (row[c]) {
        case '1':
        case 'Q':
        case 'T':
          board.add_cells(1);
          break;
        case '0':
        case '.':
        case 'A':
        case '#':
        case '_':
          board.add_cells(0);
          break;
        default:
          return absl::InvalidArgumentError(absl::StrCat(
              "board row ", board.rows_size() + 1, " column ", c + 1,
              ": unexpected character '", std::string(1, row[c]), "'"));
      }
    }
    board.add_rows(std::string(row));
  }
  if (board.rows_size() == 0)
    return absl::InvalidArgumentError("board: no rows");
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(width);
  return board;
}

}  // namespace qs::formats
