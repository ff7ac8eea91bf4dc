// Chess-piece boards as text ([Mata Ali & Mencia 2024] §2.6, the Coloured Chess
// Piece Problem and the Max Chess Pieces Problem). Lines are separated by
// newlines or '/'; blank lines and comment lines starting with "# " (a hash and
// a space) are skipped.
//
//   variant max | coloured  optional; without it: coloured when a region grid
//                           is given, else max
//   piece Z 1,2 -1,2 0,1*   a custom piece: its letter, then its moves
//                           "drow,dcol" (drow down, dcol right); a trailing '*'
//                           makes the move slide any number of steps
//   weight Q 3              max variant: what one piece of that letter is worth
//                           (default 1)
//   penalty 8               max variant: lambda of the threat term (default
//                           twice the largest weight)
//   QQNN                    the board, one line per row: the letter of the
//   QQ.N                    piece a cell may take (Q R B N K or a custom
//   qQNN                    letter), '.' or '#' for a cell that takes no piece,
//                           the lower-case letter for a piece placed from the
//                           start
//   regions                 the region grid follows, one line per row, a letter
//   AABB                    or digit per cell (a region is the set of cells
//   ...                     with the same character)
//   8x8 N                   instead of a board: every cell of an 8x8 board
//                           takes a knight
//
// So `QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD` is four queens, one per
// quadrant, none threatened, and `8x8 N` asks for the most knights on a
// chessboard. Solved boards come back as rows of piece letters on occupied
// cells, '.' on empty ones and '#' on cells that take no piece.
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace {

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("chess text: ", what));
}

const std::map<char, v1::StandardPiece>& StandardLetters() {
  static const auto* const letters =
      new std::map<char, v1::StandardPiece>{{'Q', v1::PIECE_QUEEN},
                                            {'R', v1::PIECE_ROOK},
                                            {'B', v1::PIECE_BISHOP},
                                            {'N', v1::PIECE_KNIGHT},
                                            {'K', v1::PIECE_KING}};
  return *letters;
}

absl::StatusOr<v1::PieceMove> ParseMove(absl::string_view token,
                                        absl::string_view where) {
  v1::PieceMove move;
  if (absl::ConsumeSuffix(&token, "*")) move.set_slide(true);
  const std::vector<absl::string_view> parts = absl::StrSplit(token, ',');
  int32_t drow = 0, dcol = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &drow) ||
      !absl::SimpleAtoi(parts[1], &dcol)) {
    return TextError(absl::StrCat(where, ": move '", token,
                                  "' is not drow,dcol (with an optional '*')"));
  }
  move.set_drow(drow);
  move.set_dcol(dcol);
  return move;
}

// Parses the directives and collects the grids; pieces are numbered in order of
// first appearance.
class ChessTextParser {
 public:
  absl::StatusOr<v1::PuzzleSpec> Parse(absl::string_view text) {
    std::vector<absl::string_view> lines;
    for (absl::string_view line :
         absl::StrSplit(text, absl::ByAnyChar("\n/"))) {
      line = absl::StripAsciiWhitespace(line);
      // Rows may start with '#' (a cell that takes no piece): comments are "#
      // ...".
      if (!line.empty() && !absl::StartsWith(line, "# ")) lines.push_back(line);
    }
    bool in_regions = false;
    for (size_t k = 0; k < lines.size(); ++k) {
      const std::string where = absl::StrCat("line ", k + 1);
      const std::vector<absl::string_view> words =
          absl::StrSplit(lines[k], absl::ByAnyChar(" \t"), absl::SkipEmpty());
      const std::string keyword = absl::AsciiStrToLower(words[0]);
      if (keyword == "regions" && words.size() == 1) {
        if (in_regions)
          return TextError(absl::StrCat(where, ": a second 'regions' line"));
        in_regions = true;
      } else if (keyword == "variant" && words.size() == 2) {
        const std::string value = absl::AsciiStrToLower(words[1]);
        if (value == "max") {
          chess_.set_variant(v1::CHESS_MAX);
        } else if (value == "coloured" || value == "colored") {
          chess_.set_variant(v1::CHESS_COLOURED);
        } else {
          return TextError(absl::StrCat(where, ": variant '", words[1],
                                        "' is not max or coloured"));
        }
      } else if (keyword == "piece" && words.size() >= 3) {
        if (auto status = DefinePiece(words, where); !status.ok())
          return status;
      } else if (keyword == "weight" && words.size() == 3) {
        double weight = 0;
        if (words[1].size() != 1 || !absl::SimpleAtod(words[2], &weight)) {
          return TextError(
              absl::StrCat(where, ": expected 'weight <letter> <number>'"));
        }
        weights_[static_cast<char>(
            std::toupper(static_cast<unsigned char>(words[1][0])))] = weight;
      } else if (keyword == "penalty" && words.size() == 2) {
        double penalty = 0;
        if (!absl::SimpleAtod(words[1], &penalty))
          return TextError(
              absl::StrCat(where, ": expected 'penalty <number>'"));
        chess_.set_penalty(penalty);
      } else if (words.size() == 2 && !in_regions && board_.empty() &&
                 fill_ == 0) {
        if (auto status = ParseFill(words, where); !status.ok()) return status;
      } else if (words.size() == 1) {
        (in_regions ? region_rows_ : board_).push_back(std::string(words[0]));
      } else {
        return TextError(absl::StrCat(where, ": cannot read '", lines[k], "'"));
      }
    }
    return Build();
  }

 private:
  absl::Status DefinePiece(const std::vector<absl::string_view>& words,
                           absl::string_view where) {
    if (words[1].size() != 1 ||
        !std::isalpha(static_cast<unsigned char>(words[1][0]))) {
      return TextError(absl::StrCat(where, ": the piece letter '", words[1],
                                    "' is not one letter"));
    }
    const char letter = static_cast<char>(
        std::toupper(static_cast<unsigned char>(words[1][0])));
    if (StandardLetters().count(letter) || custom_.count(letter)) {
      return TextError(absl::StrCat(where, ": piece '", std::string(1, letter),
                                    "' is already defined"));
    }
    v1::CustomPiece piece;
    piece.set_symbol(std::string(1, letter));
    for (size_t k = 2; k < words.size(); ++k) {
      auto move = ParseMove(words[k], where);
      if (!move.ok()) return move.status();
      *piece.add_moves() = *move;
    }
    custom_[letter] = piece;
    return absl::OkStatus();
  }

  // "RxC L": every cell of an R x C board takes the piece L.
  absl::Status ParseFill(const std::vector<absl::string_view>& words,
                         absl::string_view where) {
    const std::vector<absl::string_view> size =
        absl::StrSplit(words[0], absl::ByAnyChar("xX"));
    uint32_t rows = 0, cols = 0;
    if (size.size() != 2 || !absl::SimpleAtoi(size[0], &rows) ||
        !absl::SimpleAtoi(size[1], &cols) || rows == 0 || cols == 0 ||
        words[1].size() != 1) {
      return TextError(absl::StrCat(
          where, ": expected '<rows>x<cols> <piece letter>', got '", words[0],
          " ", words[1], "'"));
    }
    chess_.set_rows(rows);
    chess_.set_cols(cols);
    fill_ = static_cast<char>(
        std::toupper(static_cast<unsigned char>(words[1][0])));
    return absl::OkStatus();
  }

  // The index (1-based) of a piece letter in chess_.pieces, adding it on first
  // use.
  absl::StatusOr<uint32_t> PieceIndex(char letter, absl::string_view where) {
    if (auto it = index_.find(letter); it != index_.end()) return it->second;
    v1::ChessPiece* piece = chess_.add_pieces();
    if (auto it = StandardLetters().find(letter);
        it != StandardLetters().end()) {
      piece->set_standard(it->second);
    } else if (auto custom = custom_.find(letter); custom != custom_.end()) {
      *piece->mutable_custom() = custom->second;
    } else {
      return TextError(
          absl::StrCat(where, ": unknown piece '", std::string(1, letter),
                       "' (Q R B N K, or a letter defined by a 'piece' line)"));
    }
    index_[letter] = chess_.pieces_size();
    return chess_.pieces_size();
  }

  absl::StatusOr<v1::PuzzleSpec> Build() {
    if (fill_ != 0) {
      if (!board_.empty())
        return TextError(
            "a board grid and a '<rows>x<cols> <piece>' line cannot both be "
            "given");
      auto index = PieceIndex(fill_, "board");
      if (!index.ok()) return index.status();
    } else {
      if (board_.empty())
        return TextError(
            "no board: give rows of piece letters or '<rows>x<cols> <piece>'");
      const size_t width = board_[0].size();
      for (size_t r = 0; r < board_.size(); ++r) {
        const std::string where = absl::StrCat("board row ", r + 1);
        if (board_[r].size() != width) {
          return TextError(absl::StrCat(where, ": ", board_[r].size(),
                                        " cells, row 1 has ", width));
        }
        for (size_t c = 0; c < width; ++c) {
          const char ch = board_[r][c];
          if (ch == '.' || ch == '#') {
            chess_.add_cell_pieces(0);
            continue;
          }
          if (!std::isalpha(static_cast<unsigned char>(ch))) {
            return TextError(
                absl::StrCat(where, ": unexpected '", std::string(1, ch), "'"));
          }
          auto index = PieceIndex(
              static_cast<char>(std::toupper(static_cast<unsigned char>(ch))),
              where);
          if (!index.ok()) return index.status();
          chess_.add_cell_pieces(*index);
          if (std::islower(static_cast<unsigned char>(ch)))
            chess_.add_placed(static_cast<uint32_t>(r * width + c));
        }
      }
      chess_.set_rows(static_cast<uint32_t>(board_.size()));
      chess_.set_cols(static_cast<uint32_t>(width));
      // One piece type on every cell: the compact form the compiler reads as
      // "every cell takes pieces[0]".
      bool uniform = chess_.pieces_size() == 1;
      for (uint32_t p : chess_.cell_pieces()) uniform = uniform && p == 1;
      if (uniform) chess_.clear_cell_pieces();
    }
    if (!region_rows_.empty()) {
      if (region_rows_.size() != chess_.rows()) {
        return TextError(absl::StrCat("the region grid has ",
                                      region_rows_.size(), " rows, the board ",
                                      chess_.rows()));
      }
      std::map<char, uint32_t> ids;
      for (size_t r = 0; r < region_rows_.size(); ++r) {
        if (region_rows_[r].size() != chess_.cols()) {
          return TextError(
              absl::StrCat("region row ", r + 1, ": ", region_rows_[r].size(),
                           " cells, the board has ", chess_.cols()));
        }
        for (char ch : region_rows_[r]) {
          if (!std::isalnum(static_cast<unsigned char>(ch))) {
            return TextError(absl::StrCat("region row ", r + 1,
                                          ": unexpected '", std::string(1, ch),
                                          "' (regions are letters or digits)"));
          }
          const auto [it, added] =
              ids.emplace(ch, static_cast<uint32_t>(ids.size()));
          chess_.add_regions(it->second);
        }
      }
    }
    for (const auto& [letter, weight] : weights_) {
      auto it = index_.find(letter);
      if (it == index_.end()) {
        return TextError(absl::StrCat("weight for '", std::string(1, letter),
                                      "', which is not on the board"));
      }
      chess_.mutable_pieces(static_cast<int>(it->second) - 1)
          ->set_weight(weight);
    }
    v1::PuzzleSpec spec;
    *spec.mutable_chess() = chess_;
    return spec;
  }

  v1::ChessPuzzle chess_;
  std::map<char, v1::CustomPiece> custom_;
  std::map<char, uint32_t> index_;
  std::map<char, double> weights_;
  std::vector<std::string> board_;
  std::vector<std::string> region_rows_;
  char fill_ = 0;
};

}  // namespace

absl::StatusOr<v1::PuzzleSpec> ParseChessText(absl::string_view text) {
  return ChessTextParser().Parse(text);
}

absl::StatusOr<v1::PuzzleSolution> ParseChessBoard(const v1::PuzzleSpec& puzzle,
                                                   absl::string_view text) {
  v1::PuzzleSolution board;
  size_t width = 0;
  for (absl::string_view row :
       absl::StrSplit(text, absl::ByAnyChar("/\n"), absl::SkipWhitespace())) {
    row = absl::StripAsciiWhitespace(row);
    if (width == 0) width = row.size();
    if (row.size() != width) {
      return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                    " has ", row.size(),
                                    " cells, the first row has ", width));
    }
    std::string letters;
    for (size_t c = 0; c < row.size(); ++c) {
      const char ch = row[c];
      const bool empty = ch == '.' || ch == '#';
      if (!empty && !std::isalpha(static_cast<unsigned char>(ch))) {
        return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                      " column ", c + 1, ": unexpected '",
                                      std::string(1, ch),
                                      "' (piece letters, '.' and '#')"));
      }
      board.add_cells(empty ? 0 : 1);
      letters.push_back(
          static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    }
    board.add_rows(letters);
  }
  if (board.rows_size() == 0) return TextError("board: no rows");
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(static_cast<uint32_t>(width));
  return board;
}

TextFormat ChessTextFormat() {
  return {"chess",
          &ParseChessText,
          &ParseChessBoard,
          nullptr,
          "chess-piece placement: maximum independent sets, coloured regions, "
          "custom pieces",
          "QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD"};
}

}  // namespace qs::formats
