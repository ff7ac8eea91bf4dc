// Text formats of Takuzu / Tango puzzles ([Mata Ali & Mencia 2025] §2: Takuzu
// and LinkedIn Tango; sun = 0, moon = 1). User documentation: takuzu_text.md.
//
// Kind "takuzu" takes either
// - a Simon Tatham's Unruly game ID, as `sgt-unruly --generate N` prints it:
//   "WxH[u][dD]:DESC". W is the width (columns), H the height (rows; H = W
//   when "xH" is left out), "u" asks for unique rows and columns, "dD" (a
//   difficulty letter) is accepted and ignored. DESC is run-length encoded in
//   row-major order: a letter skips (letter - 'a') blank cells, then places a
//   0 for a lower-case letter or a 1 for an upper-case one ('z' / 'Z' skip 25
//   cells and place nothing). The letters cover W * H + 1 cells: the last one
//   places nothing. Example: "6x6:abECBDHBdDb". Unique lines apply only with
//   "u".
// - or a grid of '0', '1' and '.' (blank), rows separated by '/' or new lines,
//   spaces ignored, e.g. "1..0/..../0.../...1". A grid follows the Takuzu
//   rules, so unique lines apply.
//
// Kind "tango" takes a board with signs: cell rows interleaved with sign rows,
// separated by '/' or new lines, spaces ignored everywhere. Line 1 is the top
// cell row, line 2 the signs between rows 1 and 2, line 3 the second cell row,
// and so on (2N - 1 lines for N rows).
// - A cell row lists its cells left to right: '0' or a sun ('☀', '🌞', 'S'),
//   '1' or a moon ('☾', '☽', '🌙', 'M'), '.' for a blank. Between two cells
//   may stand '=' (same value) or 'x' ('X', '×', '✕': different values).
// - A sign row has one mark per column, for the cell above and the cell below
//   it: '=' or 'x' as above, '.' or '-' for none; an empty sign row has no
//   signs.
// Example, a 4x4 Tango with three signs: cells (1,1) and (1,2) are equal
// ("1=."), cell (2,3) differs from cell (3,3) (the "x" below it) and cell
// (4,2) from cell (4,3) (". .x. ."):
//     1=. . 0
//     . . . .
//     . . . 1
//     . . x .
//     0 . . .
//     . . . .
//     . .x. .
// or on one line: "1=..0/..../...1/..x./0.../..../..x..". Tango has no
// unique-lines rule.
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace {

// Splits on '/' and new lines, keeping empty pieces (an empty Tango sign row)
// but dropping a trailing line break.
std::vector<std::string> SplitLines(absl::string_view text) {
  std::vector<std::string> lines(1);
  for (char ch : text) {
    if (ch == '/' || ch == '\n') {
      lines.emplace_back();
    } else if (ch != '\r') {
      lines.back().push_back(ch);
    }
  }
  while (lines.size() > 1 &&
         lines.back().find_first_not_of(" \t") == std::string::npos)
    lines.pop_back();
  size_t first = 0;
  while (first + 1 < lines.size() &&
         lines[first].find_first_not_of(" \t") == std::string::npos)
    ++first;
  lines.erase(lines.begin(),
              lines.begin() + static_cast<std::ptrdiff_t>(first));
  return lines;
}

// Code points of a UTF-8 line; INVALID_ARGUMENT on malformed bytes.
absl::StatusOr<std::vector<char32_t>> DecodeUtf8(absl::string_view text,
                                                 absl::string_view where) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    int extra = 0;
    char32_t cp = 0;
    if (lead < 0x80) {
      cp = lead;
    } else if ((lead & 0xE0) == 0xC0) {
      extra = 1, cp = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
      extra = 2, cp = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
      extra = 3, cp = lead & 0x07;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": invalid UTF-8 at byte ", i));
    }
    for (int k = 1; k <= extra; ++k) {
      if (i + k >= text.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": truncated UTF-8 at byte ", i));
      }
      const unsigned char cont = static_cast<unsigned char>(text[i + k]);
      if ((cont & 0xC0) != 0x80)
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": invalid UTF-8 at byte ", i));
      cp = (cp << 6) | (cont & 0x3F);
    }
    out.push_back(cp);
    i += 1 + extra;
  }
  return out;
}

std::string Show(char32_t cp) {
  if (cp < 0x80) return std::string(1, static_cast<char>(cp));
  return absl::StrCat("U+",
                      absl::Hex(static_cast<uint32_t>(cp), absl::kZeroPad4));
}

// -1 blank, 0 / 1 a value, -2 not a cell character.
int CellValue(char32_t cp) {
  switch (cp) {
    case U'.':
      return -1;
    case U'0':
    case U'S':
    case U'\u2600':      // ☀ black sun with rays
    case U'\U0001F31E':  // 🌞 sun with face
      return 0;
    case U'1':
    case U'M':
    case U'\u263D':      // ☽ first quarter moon
    case U'\u263E':      // ☾ last quarter moon
    case U'\U0001F319':  // 🌙 crescent moon
      return 1;
    default:
      return -2;
  }
}

// 0 '=', 1 'x', -1 no sign, -2 not a sign character.
int SignValue(char32_t cp) {
  switch (cp) {
    case U'=':
      return 0;
    case U'x':
    case U'X':
    case U'\u00D7':  // ×
    case U'\u2715':  // ✕
      return 1;
    case U'.':
    case U'-':
      return -1;
    default:
      return -2;
  }
}

bool Ignored(char32_t cp) {
  return cp == U' ' || cp == U'\t' || cp == U'\uFE0F';
}  // FE0F: emoji style

v1::TakuzuPuzzle::Cell ToCell(int value) {
  return value < 0
             ? v1::TakuzuPuzzle::BLANK
             : (value == 0 ? v1::TakuzuPuzzle::ZERO : v1::TakuzuPuzzle::ONE);
}

void AddSign(v1::TakuzuPuzzle& puzzle, int r1, int c1, int r2, int c2,
             int kind) {
  v1::TakuzuSign* sign = puzzle.add_signs();
  sign->mutable_a()->set_row(r1);
  sign->mutable_a()->set_col(c1);
  sign->mutable_b()->set_row(r2);
  sign->mutable_b()->set_col(c2);
  sign->set_kind(kind == 0 ? v1::TakuzuSign::EQUAL : v1::TakuzuSign::DIFFERENT);
}

absl::StatusOr<v1::PuzzleSpec> ParseUnrulyId(absl::string_view id) {
  const size_t colon = id.find(':');
  const absl::string_view params = id.substr(0, colon);
  const absl::string_view desc = id.substr(colon + 1);
  size_t p = 0;
  auto number = [&]() -> int64_t {
    int64_t value = 0;
    const size_t start = p;
    while (p < params.size() &&
           std::isdigit(static_cast<unsigned char>(params[p])) &&
           p - start < 6) {
      value = value * 10 + (params[p++] - '0');
    }
    return p == start ? -1 : value;
  };
  const int64_t width = number();
  int64_t height = width;
  if (p < params.size() && params[p] == 'x') {
    ++p;
    height = number();
  }
  bool unique = false;
  if (p < params.size() && params[p] == 'u') {
    unique = true;
    ++p;
  }
  if (p < params.size() && params[p] == 'd' && p + 1 < params.size()) p += 2;
  if (width <= 0 || height <= 0 || p != params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("takuzu text: '", params,
                     "' is not an Unruly parameter string (WxH, then optional "
                     "'u' and 'd<difficulty>')"));
  }
  // The cell array is allocated before the description is read, so the
  // sides are bounded first (a 6-digit side would ask for gigabytes).
  constexpr int64_t kMaxUnrulySide = 1024;
  if (width > kMaxUnrulySide || height > kMaxUnrulySide) {
    return absl::InvalidArgumentError(
        absl::StrCat("takuzu text: board ", width, "x", height,
                     " is larger than ", kMaxUnrulySide, "x", kMaxUnrulySide));
  }
  const int64_t cells = width * height;
  v1::PuzzleSpec spec;
  v1::TakuzuPuzzle* puzzle = spec.mutable_takuzu();
  puzzle->set_rows(static_cast<uint32_t>(height));
  puzzle->set_cols(static_cast<uint32_t>(width));
  puzzle->set_unique_lines(unique);
  std::vector<int> values(cells, -1);
  int64_t pos = 0;
  for (size_t k = 0; k < desc.size(); ++k) {
    const char ch = desc[k];
    if (ch == 'z' || ch == 'Z') {
      pos += 25;
    } else if (ch >= 'a' && ch < 'z') {
      pos += ch - 'a';
      if (pos < cells) values[pos] = 0;
      ++pos;
    } else if (ch >= 'A' && ch < 'Z') {
      pos += ch - 'A';
      if (pos < cells) values[pos] = 1;
      ++pos;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "takuzu text: Unruly description character '", std::string(1, ch),
          "' at offset ", k, " is not a letter"));
    }
    if (pos > cells + 1) break;
  }
  if (pos != cells + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "takuzu text: the Unruly description covers ", pos, " cells; a ", width,
        "x", height, " grid needs ", cells + 1));
  }
  for (int v : values) puzzle->add_cells(ToCell(v));
  return spec;
}

}  // namespace

absl::StatusOr<v1::PuzzleSpec> ParseTakuzuText(absl::string_view text) {
  const size_t start = text.find_first_not_of(" \t\r\n");
  const size_t end = text.find_last_not_of(" \t\r\n");
  if (start == absl::string_view::npos)
    return absl::InvalidArgumentError("takuzu text: empty");
  text = text.substr(start, end - start + 1);
  if (text.find('#') != absl::string_view::npos) {
    return absl::InvalidArgumentError(
        "takuzu text: an Unruly random-seed ID ('params#seed') names no "
        "puzzle; pass the game ID "
        "('params:description') that sgt-unruly --generate prints");
  }
  if (text.find(':') != absl::string_view::npos) return ParseUnrulyId(text);

  const std::vector<std::string> lines = SplitLines(text);
  v1::PuzzleSpec spec;
  v1::TakuzuPuzzle* puzzle = spec.mutable_takuzu();
  std::vector<int> values;
  int cols = -1;
  for (size_t r = 0; r < lines.size(); ++r) {
    int count = 0;
    for (size_t k = 0; k < lines[r].size(); ++k) {
      const char ch = lines[r][k];
      if (ch == ' ' || ch == '\t') continue;
      if (ch != '0' && ch != '1' && ch != '.') {
        return absl::InvalidArgumentError(
            absl::StrCat("takuzu text: row ", r + 1, ": unexpected character '",
                         std::string(1, ch), "' (use 0, 1 and .)"));
      }
      values.push_back(ch == '.' ? -1 : ch - '0');
      ++count;
    }
    if (cols >= 0 && count != cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("takuzu text: row ", r + 1, " has ", count,
                       " cells, row 1 has ", cols));
    }
    cols = count;
  }
  if (cols <= 0) return absl::InvalidArgumentError("takuzu text: no cells");
  puzzle->set_rows(static_cast<uint32_t>(lines.size()));
  puzzle->set_cols(static_cast<uint32_t>(cols));
  puzzle->set_unique_lines(true);
  for (int v : values) puzzle->add_cells(ToCell(v));
  return spec;
}

absl::StatusOr<v1::PuzzleSpec> ParseTangoText(absl::string_view text) {
  const std::vector<std::string> lines = SplitLines(text);
  if (lines.size() % 2 == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("tango text: ", lines.size(),
                     " lines; expected cell rows with one sign row between "
                     "each two (2N - 1 lines)"));
  }
  v1::PuzzleSpec spec;
  v1::TakuzuPuzzle* puzzle = spec.mutable_takuzu();
  const int rows = static_cast<int>(lines.size() + 1) / 2;
  std::vector<int> values;
  int cols = -1;
  struct PendingSign {
    int r1, c1, r2, c2, kind;
  };
  std::vector<PendingSign> signs;
  for (int r = 0; r < rows; ++r) {
    const std::string where =
        absl::StrCat("tango text: line ", 2 * r + 1, " (row ", r + 1, ")");
    auto decoded = DecodeUtf8(lines[2 * r], where);
    if (!decoded.ok()) return decoded.status();
    int count = 0;
    int pending = -1;  // a sign seen after the last cell
    for (char32_t cp : *decoded) {
      if (Ignored(cp)) continue;
      const int cell = CellValue(cp);
      if (cell != -2) {
        if (pending >= 0) {
          signs.push_back({r, count - 1, r, count, pending});
          pending = -1;
        }
        values.push_back(cell);
        ++count;
        continue;
      }
      const int sign = SignValue(cp);
      if (sign < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": unexpected character '", Show(cp), "'"));
      }
      if (count == 0 || pending >= 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": sign '", Show(cp), "' must stand between two cells"));
      }
      pending = sign;
    }
    if (pending >= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": a sign ends the row; signs stand between cells"));
    }
    if (cols >= 0 && count != cols) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", count, " cells, row 1 has ", cols));
    }
    cols = count;
    if (r + 1 == rows) break;
    const std::string sign_where = absl::StrCat(
        "tango text: line ", 2 * r + 2, " (signs below row ", r + 1, ")");
    auto sign_line = DecodeUtf8(lines[2 * r + 1], sign_where);
    if (!sign_line.ok()) return sign_line.status();
    int col = 0;
    for (char32_t cp : *sign_line) {
      if (Ignored(cp)) continue;
      const int sign = SignValue(cp);
      if (sign == -2) {
        return absl::InvalidArgumentError(
            absl::StrCat(sign_where, ": unexpected character '", Show(cp),
                         "' (use =, x, . or -)"));
      }
      if (col >= cols) {
        return absl::InvalidArgumentError(absl::StrCat(
            sign_where, ": more marks than the ", cols, " columns"));
      }
      if (sign >= 0) signs.push_back({r, col, r + 1, col, sign});
      ++col;
    }
    if (col != 0 && col != cols) {
      return absl::InvalidArgumentError(
          absl::StrCat(sign_where, ": ", col,
                       " marks; expected one per column (", cols, ") or none"));
    }
  }
  if (cols <= 0) return absl::InvalidArgumentError("tango text: no cells");
  puzzle->set_rows(static_cast<uint32_t>(rows));
  puzzle->set_cols(static_cast<uint32_t>(cols));
  for (int v : values) puzzle->add_cells(ToCell(v));
  for (const PendingSign& s : signs)
    AddSign(*puzzle, s.r1, s.c1, s.r2, s.c2, s.kind);
  return spec;
}

namespace {

// The grid and the signs of a Takuzu / Tango puzzle, or INVALID_ARGUMENT when
// the text formats cannot express it.
absl::Status CheckWritable(const v1::PuzzleSpec& puzzle,
                           absl::string_view format) {
  auto refuse = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat(format, " text: the format cannot express ", why));
  };
  if (!puzzle.has_takuzu()) return refuse("a puzzle of another family");
  const v1::TakuzuPuzzle& t = puzzle.takuzu();
  if (t.rows() == 0 || t.cols() == 0) return refuse("an empty board");
  if (!t.cells().empty() &&
      t.cells_size() != static_cast<int>(t.rows() * t.cols()))
    return refuse("a partial grid");
  if (!t.row_ones().empty() || !t.col_ones().empty() || t.diagonal() ||
      !t.regions().empty() || t.topology() != v1::TakuzuPuzzle::PLANE ||
      !t.equality_regions().empty() || !t.different_regions().empty())
    return refuse("rules beyond the balanced plane board");
  return absl::OkStatus();
}

char CellChar(const v1::TakuzuPuzzle& t, int cell) {
  if (t.cells().empty()) return '.';
  switch (t.cells(cell)) {
    case v1::TakuzuPuzzle::ZERO:
      return '0';
    case v1::TakuzuPuzzle::ONE:
      return '1';
    default:
      return '.';
  }
}

}  // namespace

absl::StatusOr<std::string> FormatTakuzuText(const v1::PuzzleSpec& puzzle) {
  if (absl::Status s = CheckWritable(puzzle, "takuzu"); !s.ok()) return s;
  const v1::TakuzuPuzzle& t = puzzle.takuzu();
  if (!t.unique_lines() || !t.signs().empty()) {
    return absl::InvalidArgumentError(
        "takuzu text: the grid form is a Takuzu (unique lines, no signs); "
        "write Tango puzzles as tango text");
  }
  std::string text;
  for (uint32_t r = 0; r < t.rows(); ++r) {
    if (r > 0) text.push_back('/');
    for (uint32_t c = 0; c < t.cols(); ++c)
      text.push_back(CellChar(t, static_cast<int>(r * t.cols() + c)));
  }
  return text;
}

absl::StatusOr<std::string> FormatTangoText(const v1::PuzzleSpec& puzzle) {
  if (absl::Status s = CheckWritable(puzzle, "tango"); !s.ok()) return s;
  const v1::TakuzuPuzzle& t = puzzle.takuzu();
  if (t.unique_lines()) {
    return absl::InvalidArgumentError(
        "tango text: Tango has no unique-lines rule; write Takuzu puzzles as "
        "takuzu text");
  }
  const int rows = static_cast<int>(t.rows()),
            cols = static_cast<int>(t.cols());
  // right[cell] / down[cell]: the sign to the right of / below a cell.
  std::vector<char> right(rows * cols, 0), down(rows * cols, 0);
  for (const v1::TakuzuSign& sign : t.signs()) {
    int r1 = static_cast<int>(sign.a().row()),
        c1 = static_cast<int>(sign.a().col());
    int r2 = static_cast<int>(sign.b().row()),
        c2 = static_cast<int>(sign.b().col());
    if (r2 < r1 || (r2 == r1 && c2 < c1)) std::swap(r1, r2), std::swap(c1, c2);
    const char mark = sign.kind() == v1::TakuzuSign::EQUAL ? '=' : 'x';
    if (r1 >= rows || r2 >= rows || c1 >= cols || c2 >= cols) {
      return absl::InvalidArgumentError("tango text: a sign off the board");
    }
    char* slot = nullptr;
    if (r1 == r2 && c2 == c1 + 1) slot = &right[r1 * cols + c1];
    if (c1 == c2 && r2 == r1 + 1) slot = &down[r1 * cols + c1];
    if (slot == nullptr || *slot != 0) {
      return absl::InvalidArgumentError(
          "tango text: the format cannot express signs between cells that are "
          "not side neighbours, or two signs between the same cells");
    }
    *slot = mark;
  }
  std::string text;
  for (int r = 0; r < rows; ++r) {
    if (r > 0) {
      text.push_back('/');
      for (int c = 0; c < cols; ++c) {
        const char mark = down[(r - 1) * cols + c];
        text.push_back(mark == 0 ? '.' : mark);
      }
      text.push_back('/');
    }
    for (int c = 0; c < cols; ++c) {
      text.push_back(CellChar(t, r * cols + c));
      if (right[r * cols + c] != 0) text.push_back(right[r * cols + c]);
    }
  }
  return text;
}

absl::StatusOr<v1::PuzzleSolution> ParseTakuzuBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  v1::PuzzleSolution board;
  uint32_t width = 0;
  for (const std::string& line : SplitLines(text)) {
    const std::string where = absl::StrCat("board row ", board.rows_size() + 1);
    auto decoded = DecodeUtf8(line, where);
    if (!decoded.ok()) return decoded.status();
    std::string row;
    for (char32_t cp : *decoded) {
      if (Ignored(cp)) continue;
      const int value = CellValue(cp);
      if (value == -2) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": unexpected character '", Show(cp), "' (use 0, 1 or .)"));
      }
      board.add_cells(value);
      row.push_back(value < 0 ? '.' : static_cast<char>('0' + value));
    }
    if (board.rows_size() == 0) width = static_cast<uint32_t>(row.size());
    if (row.size() != width) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, " has ", row.size(), " cells, the first row has ", width));
    }
    board.add_rows(row);
  }
  if (board.rows_size() == 0 || width == 0) {
    return absl::InvalidArgumentError("board: no cells");
  }
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(width);
  return board;
}

TextFormat TakuzuTextFormat() {
  return {"takuzu",
          &ParseTakuzuText,
          &ParseTakuzuBoard,
          &FormatTakuzuText,
          "Takuzu / Unruly (Simon Tatham's game IDs or a 0/1/. grid)",
          "6x6u:CibfEFcab"};
}

TextFormat TangoTextFormat() {
  return {"tango",
          &ParseTangoText,
          &ParseTakuzuBoard,
          &FormatTangoText,
          "LinkedIn Tango: suns and moons with = and x signs",
          "..01../=...../.....1/....=./.0x..x../.=..../...x.../....x./....../"
          "....../......"};
}

}  // namespace qs::formats
