// Chess-piece compiler: [Mata Ali & Mencia 2024] §2.6, the Coloured Chess Piece
// Problem (eq. 23-25) and the Max Chess Pieces Problem (eq. 26-27) with
// per-piece weights, the reduction of pre-placed pieces (the set A_I), and a
// validator of the rules (one piece per region, no threats, maximality for the
// Max problem).
#include "core/families/chess/chess.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"

namespace qs {
namespace {

constexpr uint32_t kMaxSide = 1000;

struct Move {
  int drow;
  int dcol;
  bool slide;
};

struct Piece {
  char symbol;
  std::string name;
  std::vector<Move> moves;
  double weight = 1;
};

struct Chess {
  int rows = 0;
  int cols = 0;
  bool max_variant = false;
  std::vector<Piece> pieces;
  std::vector<int>
      piece_of_cell;  // index into pieces, -1 for a cell that takes no piece
  std::vector<int> region_of_cell;  // empty without regions
  int num_regions = 0;
  std::vector<int> placed;
  double penalty = 0;            // lambda of eq. 27
  std::vector<int> var_of_cell;  // -1 for a cell that takes no piece
  std::vector<int> cell_of_var;
  // C(M_Pij)_ij for each cell that takes a piece: the cells taking a piece it
  // reaches, sorted.
  std::vector<std::vector<int>> reach;

  int size() const { return rows * cols; }
  bool Reaches(int from, int to) const {
    return std::binary_search(reach[from].begin(), reach[from].end(), to);
  }
};

std::string CellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

// The board letter of a piece type; '?' for a malformed one (rejected by
// CheckSpec).
char PieceSymbol(const v1::ChessPiece& piece) {
  if (piece.has_custom()) {
    const std::string& symbol = piece.custom().symbol();
    return symbol.size() == 1 ? static_cast<char>(std::toupper(
                                    static_cast<unsigned char>(symbol[0])))
                              : '?';
  }
  switch (piece.standard()) {
    case v1::PIECE_QUEEN:
      return 'Q';
    case v1::PIECE_ROOK:
      return 'R';
    case v1::PIECE_BISHOP:
      return 'B';
    case v1::PIECE_KNIGHT:
      return 'N';
    case v1::PIECE_KING:
      return 'K';
    default:
      return '?';
  }
}

std::vector<Move> StandardMoves(v1::StandardPiece piece) {
  std::vector<Move> moves;
  auto add_all = [&](std::initializer_list<std::pair<int, int>> deltas,
                     bool slide) {
    for (auto [dr, dc] : deltas) moves.push_back({dr, dc, slide});
  };
  const std::initializer_list<std::pair<int, int>> orthogonal = {
      {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  const std::initializer_list<std::pair<int, int>> diagonal = {
      {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
  switch (piece) {
    case v1::PIECE_QUEEN:
      add_all(orthogonal, true);
      add_all(diagonal, true);
      break;
    case v1::PIECE_ROOK:
      add_all(orthogonal, true);
      break;
    case v1::PIECE_BISHOP:
      add_all(diagonal, true);
      break;
    case v1::PIECE_KNIGHT:
      add_all({{-2, -1},
               {-2, 1},
               {-1, -2},
               {-1, 2},
               {1, -2},
               {1, 2},
               {2, -1},
               {2, 1}},
              false);
      break;
    case v1::PIECE_KING:
      add_all(orthogonal, false);
      add_all(diagonal, false);
      break;
    default:
      break;
  }
  return moves;
}

absl::StatusOr<Piece> CheckPiece(const v1::ChessPiece& spec, int index,
                                 bool max_variant) {
  const std::string field = absl::StrCat("chess.pieces[", index, "]");
  Piece piece;
  switch (spec.kind_case()) {
    case v1::ChessPiece::kStandard: {
      static constexpr struct {
        v1::StandardPiece type;
        char symbol;
        const char* name;
      } kStandard[] = {{v1::PIECE_QUEEN, 'Q', "queen"},
                       {v1::PIECE_ROOK, 'R', "rook"},
                       {v1::PIECE_BISHOP, 'B', "bishop"},
                       {v1::PIECE_KNIGHT, 'N', "knight"},
                       {v1::PIECE_KING, 'K', "king"}};
      bool known = false;
      for (const auto& s : kStandard) {
        if (s.type != spec.standard()) continue;
        piece.symbol = s.symbol;
        piece.name = s.name;
        piece.moves = StandardMoves(s.type);
        known = true;
      }
      if (!known) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".standard: unknown piece type ",
                         static_cast<int>(spec.standard()),
                         " (queen 1, rook 2, bishop 3, knight 4, king 5)"));
      }
      break;
    }
    case v1::ChessPiece::kCustom: {
      const std::string& symbol = spec.custom().symbol();
      const char upper = symbol.size() == 1
                             ? static_cast<char>(std::toupper(
                                   static_cast<unsigned char>(symbol[0])))
                             : 0;
      if (upper < 'A' || upper > 'Z' ||
          absl::string_view("QRBNK").find(upper) != absl::string_view::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".custom.symbol: '", symbol,
                         "' is not one letter other than Q, R, B, N, K"));
      }
      piece.symbol = upper;
      piece.name = absl::StrCat("piece ", std::string(1, upper));
      if (spec.custom().moves().empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            field, ".custom.moves: a piece needs at least one move"));
      }
      for (int m = 0; m < spec.custom().moves_size(); ++m) {
        const v1::PieceMove& move = spec.custom().moves(m);
        if (move.drow() == 0 && move.dcol() == 0) {
          return absl::InvalidArgumentError(absl::StrCat(
              field, ".custom.moves[", m, "]: (0,0) is not a move"));
        }
        if (std::abs(move.drow()) > static_cast<int>(kMaxSide) ||
            std::abs(move.dcol()) > static_cast<int>(kMaxSide)) {
          return absl::InvalidArgumentError(
              absl::StrCat(field, ".custom.moves[", m, "]: (", move.drow(), ",",
                           move.dcol(), ") is longer than any board"));
        }
        piece.moves.push_back({move.drow(), move.dcol(), move.slide()});
      }
      break;
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": no piece type set (standard or custom)"));
  }
  if (!max_variant && spec.weight() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ".weight: weights apply to the CHESS_MAX variant only, got ",
        spec.weight()));
  }
  if (spec.weight() != 0) {
    if (!(spec.weight() > 0) || !std::isfinite(spec.weight())) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".weight: must be > 0, got ", spec.weight()));
    }
    piece.weight = spec.weight();
  }
  return piece;
}

absl::StatusOr<Chess> CheckSpec(const v1::ChessPuzzle& spec) {
  Chess g;
  if (spec.rows() < 1 || spec.rows() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "chess.rows: must be 1..", kMaxSide, ", got ", spec.rows()));
  }
  if (spec.cols() > kMaxSide) {
    return absl::InvalidArgumentError(
        absl::StrCat("chess.cols: must be 0 (square) or 1..", kMaxSide,
                     ", got ", spec.cols()));
  }
  g.rows = static_cast<int>(spec.rows());
  g.cols = spec.cols() == 0 ? g.rows : static_cast<int>(spec.cols());
  switch (spec.variant()) {
    case v1::CHESS_VARIANT_UNSPECIFIED:
      g.max_variant = spec.regions().empty();
      break;
    case v1::CHESS_COLOURED:
      g.max_variant = false;
      break;
    case v1::CHESS_MAX:
      g.max_variant = true;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "chess.variant: unknown variant ", static_cast<int>(spec.variant())));
  }
  if (spec.pieces().empty()) {
    return absl::InvalidArgumentError(
        "chess.pieces: at least one piece type is needed");
  }
  for (int k = 0; k < spec.pieces_size(); ++k) {
    ASSIGN_OR_RETURN(Piece piece, CheckPiece(spec.pieces(k), k, g.max_variant));
    for (int j = 0; j < k; ++j) {
      if (spec.pieces(k).has_custom() && g.pieces[j].symbol == piece.symbol) {
        return absl::InvalidArgumentError(absl::StrCat(
            "chess.pieces[", k, "].custom.symbol: '",
            std::string(1, piece.symbol), "' is already pieces[", j, "]"));
      }
    }
    g.pieces.push_back(std::move(piece));
  }

  const int n = g.size();
  if (spec.cell_pieces().empty()) {
    if (spec.pieces_size() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "chess.cell_pieces: empty (every cell takes pieces[0]), but ",
          spec.pieces_size(), " piece types are listed"));
    }
    g.piece_of_cell.assign(n, 0);
  } else {
    if (spec.cell_pieces_size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("chess.cell_pieces: expected ", n, " values (", g.rows,
                       "x", g.cols, " cells), got ", spec.cell_pieces_size()));
    }
    for (int cell = 0; cell < n; ++cell) {
      const uint32_t p = spec.cell_pieces(cell);
      if (p > static_cast<uint32_t>(spec.pieces_size())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "chess.cell_pieces[", cell, "]: piece ", p, " out of range 0..",
            spec.pieces_size(), " at cell ", CellName(cell, g.cols)));
      }
      g.piece_of_cell.push_back(static_cast<int>(p) - 1);
    }
  }
  g.var_of_cell.assign(n, -1);
  for (int cell = 0; cell < n; ++cell) {
    if (g.piece_of_cell[cell] < 0) continue;
    g.var_of_cell[cell] = static_cast<int>(g.cell_of_var.size());
    g.cell_of_var.push_back(cell);
  }

  if (g.max_variant) {
    if (!spec.regions().empty()) {
      return absl::InvalidArgumentError(
          "chess.regions: the CHESS_MAX variant has no regions ([Mata Ali & "
          "Mencia 2024] eq. "
          "26-27)");
    }
  } else {
    if (spec.regions_size() != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "chess.regions: expected ", n, " region ids (", g.rows, "x", g.cols,
          " cells, one each), got ", spec.regions_size()));
    }
    std::vector<int> cells_taking_piece(n, 0);
    for (int cell = 0; cell < n; ++cell) {
      const uint32_t id = spec.regions(cell);
      if (id >= static_cast<uint32_t>(n)) {
        return absl::InvalidArgumentError(
            absl::StrCat("chess.regions[", cell, "]: region id ", id,
                         " out of range 0..", n - 1));
      }
      g.region_of_cell.push_back(static_cast<int>(id));
      g.num_regions = std::max(g.num_regions, static_cast<int>(id) + 1);
      if (g.piece_of_cell[cell] >= 0) ++cells_taking_piece[id];
    }
    std::vector<uint8_t> used(g.num_regions, 0);
    for (int id : g.region_of_cell) used[id] = 1;
    for (int id = 0; id < g.num_regions; ++id) {
      if (!used[id]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "chess.regions: region id ", id, " is unused (ids must be 0..",
            g.num_regions - 1, ", each on some cell)"));
      }
      if (cells_taking_piece[id] == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "chess.regions: region ", id, " has no cell that takes a piece"));
      }
    }
  }

  g.reach.assign(n, {});
  for (int cell = 0; cell < n; ++cell) {
    if (g.piece_of_cell[cell] < 0) continue;
    std::vector<int>& reach = g.reach[cell];
    const int r = cell / g.cols, c = cell % g.cols;
    for (const Move& m : g.pieces[g.piece_of_cell[cell]].moves) {
      for (int k = 1;; ++k) {
        const int64_t tr = r + static_cast<int64_t>(k) * m.drow,
                      tc = c + static_cast<int64_t>(k) * m.dcol;
        if (tr < 0 || tr >= g.rows || tc < 0 || tc >= g.cols) break;
        const int target = static_cast<int>(tr) * g.cols + static_cast<int>(tc);
        if (g.piece_of_cell[target] >= 0) reach.push_back(target);
        if (!m.slide) break;
      }
    }
    std::sort(reach.begin(), reach.end());
    reach.erase(std::unique(reach.begin(), reach.end()), reach.end());
  }

  std::vector<int> placed_at(n, -1);
  for (int k = 0; k < spec.placed_size(); ++k) {
    const uint32_t cell = spec.placed(k);
    const std::string field = absl::StrCat("chess.placed[", k, "]");
    if (cell >= static_cast<uint32_t>(n)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cell ", cell, " out of range 0..", n - 1));
    }
    if (g.piece_of_cell[cell] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ": cell ", CellName(cell, g.cols), " takes no piece"));
    }
    if (placed_at[cell] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cell ", CellName(cell, g.cols),
                       " is already chess.placed[", placed_at[cell], "]"));
    }
    for (int other : g.placed) {
      if (!g.region_of_cell.empty() &&
          g.region_of_cell[other] == g.region_of_cell[cell]) {
        return absl::InvalidArgumentError(absl::StrCat(
            field, ": region ", g.region_of_cell[cell],
            " already holds the piece placed at ", CellName(other, g.cols)));
      }
      if (g.Reaches(cell, other) || g.Reaches(other, cell)) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": the ", g.pieces[g.piece_of_cell[cell]].name,
                         " at ", CellName(cell, g.cols), " and the ",
                         g.pieces[g.piece_of_cell[other]].name, " placed at ",
                         CellName(other, g.cols), " threaten each other"));
      }
    }
    placed_at[cell] = k;
    g.placed.push_back(static_cast<int>(cell));
  }

  double max_weight = 0;
  for (const Piece& p : g.pieces) max_weight = std::max(max_weight, p.weight);
  if (g.max_variant) {
    g.penalty = spec.penalty() == 0 ? 2 * max_weight : spec.penalty();
    if (!(g.penalty > max_weight) || !std::isfinite(g.penalty)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "chess.penalty: lambda must exceed the largest piece weight ",
          max_weight,
          " so that no threatening placement is ever preferred, got ",
          spec.penalty()));
    }
  } else if (spec.penalty() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "chess.penalty: lambda applies to the CHESS_MAX variant only, got ",
        spec.penalty()));
  }
  return g;
}

absl::StatusOr<Qubo> BuildFullModel(const Chess& g) {
  const int num_vars = static_cast<int>(g.cell_of_var.size());
  QuboBuilder builder(num_vars);
  for (int v = 0; v < num_vars; ++v) {
    const int cell = g.cell_of_var[v];
    builder.SetLabel(
        v,
        absl::StrCat("r", cell / g.cols + 1, "c", cell % g.cols + 1,
                     std::string(1, g.pieces[g.piece_of_cell[cell]].symbol)));
  }
  const double threat_weight = g.max_variant ? g.penalty : 1.0;
  // Eq. 24 sums over ordered pairs: a pair gets one threat_weight per piece
  // that reaches the other.
  for (int v = 0; v < num_vars; ++v) {
    for (int target : g.reach[g.cell_of_var[v]])
      builder.AddQuadratic(v, g.var_of_cell[target], threat_weight);
  }
  if (g.max_variant) {
    for (int v = 0; v < num_vars; ++v)
      builder.AddLinear(v, -g.pieces[g.piece_of_cell[g.cell_of_var[v]]].weight);
  } else {
    // (1 - sum x)^2 = 1 - sum x + 2 sum_{a<b} x_a x_b.
    std::vector<std::vector<int>> members(g.num_regions);
    for (int v = 0; v < num_vars; ++v)
      members[g.region_of_cell[g.cell_of_var[v]]].push_back(v);
    for (const std::vector<int>& region : members)
      AddSquaredCount(builder, region, 1.0);
  }
  return std::move(builder).Build();
}

// Exactly-one groups over the full model's variables (CompiledProblem::
// one_hot_groups) of the Coloured problem, which holds exactly one piece in
// every region (eq. 25): the regions first, then the rows and then the columns
// when every line of that direction is a threat clique (of any two of its
// pieces one reaches the other, so a valid board has at most one piece in each)
// and there are as many lines holding variables as regions (so the board's one
// piece per region fills every line once: the N-queens or N-rooks lines under
// N regions). The Max problem has none.
std::vector<std::vector<int32_t>> FullOneHotGroups(const Chess& g) {
  std::vector<std::vector<int32_t>> groups;
  if (g.max_variant) return groups;
  const int num_vars = static_cast<int>(g.cell_of_var.size());
  groups.resize(g.num_regions);
  for (int v = 0; v < num_vars; ++v)
    groups[g.region_of_cell[g.cell_of_var[v]]].push_back(v);
  // Per line: its variables and its pairs one of which reaches the other,
  // each pair counted once (from its first cell, or from its second when the
  // first does not reach it).
  std::vector<int64_t> row_vars(g.rows, 0), col_vars(g.cols, 0);
  std::vector<int64_t> row_pairs(g.rows, 0), col_pairs(g.cols, 0);
  for (int v = 0; v < num_vars; ++v) {
    const int a = g.cell_of_var[v];
    ++row_vars[a / g.cols];
    ++col_vars[a % g.cols];
    for (int b : g.reach[a]) {
      if (b < a && g.Reaches(b, a)) continue;
      if (b / g.cols == a / g.cols) ++row_pairs[a / g.cols];
      if (b % g.cols == a % g.cols) ++col_pairs[a % g.cols];
    }
  }
  auto add_lines = [&](const std::vector<int64_t>& vars,
                       const std::vector<int64_t>& pairs, bool rows) {
    int lines = 0;
    for (size_t k = 0; k < vars.size(); ++k) {
      if (vars[k] == 0) continue;
      if (pairs[k] != vars[k] * (vars[k] - 1) / 2) return;
      ++lines;
    }
    if (lines != g.num_regions) return;
    const size_t first = groups.size();
    groups.resize(first + vars.size());
    for (int v = 0; v < num_vars; ++v) {
      const int cell = g.cell_of_var[v];
      groups[first + (rows ? cell / g.cols : cell % g.cols)].push_back(v);
    }
  };
  add_lines(row_vars, row_pairs, true);
  add_lines(col_vars, col_pairs, false);
  return groups;
}

// CompiledProblem::one_hot_groups from FullOneHotGroups: the reduced groups
// (ReducedOneHotGroups), each once (a region is a line again when the
// reduction leaves both the same cells).
std::vector<std::vector<int32_t>> ReducedGroups(
    const VariableMap& map,
    const std::vector<std::vector<int32_t>>& full_groups) {
  std::vector<std::vector<int32_t>> groups;
  std::set<std::vector<int32_t>> seen;
  for (std::vector<int32_t>& group : ReducedOneHotGroups(map, full_groups)) {
    if (seen.insert(group).second) groups.push_back(std::move(group));
  }
  return groups;
}

// A board read from a solution: which cells hold a piece (from cells, or from
// rows when there are no cells), and the pieces whose letter in the rows is not
// the type their cell takes.
struct BoardRead {
  std::vector<uint8_t> occupied;
  std::vector<std::pair<int, char>> wrong_pieces;
};

absl::StatusOr<BoardRead> ReadBoard(const Chess& g,
                                    const v1::PuzzleSolution& solution) {
  BoardRead board;
  const int n = g.size();
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", n, " values, got ",
                       solution.cells_size()));
    }
    for (int cell = 0; cell < n; ++cell) {
      const int v = solution.cells(cell);
      if (v != 0 && v != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", cell, "]: value ", v,
                         " is not 0 (empty) or 1 (a piece)"));
      }
      board.occupied.push_back(static_cast<uint8_t>(v));
    }
  }
  RETURN_IF_ERROR(CheckSolutionRows(solution, g.rows, g.cols));
  if (solution.rows_size() == 0) return board;
  const bool occupied_from_rows = board.occupied.empty();
  for (int r = 0; r < g.rows; ++r) {
    const std::string& row = solution.rows(r);
    for (int c = 0; c < g.cols; ++c) {
      const char ch =
          static_cast<char>(std::toupper(static_cast<unsigned char>(row[c])));
      const bool empty = ch == '.' || ch == '#';
      bool known = empty;
      for (const Piece& p : g.pieces) known = known || p.symbol == ch;
      if (!known) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.rows[", r, "][", c, "]: '", std::string(1, row[c]),
            "' is neither '.', '#' nor a piece of this board"));
      }
      const int cell = r * g.cols + c;
      if (occupied_from_rows) board.occupied.push_back(!empty);
      if (!empty && g.piece_of_cell[cell] >= 0 &&
          g.pieces[g.piece_of_cell[cell]].symbol != ch) {
        board.wrong_pieces.push_back({cell, ch});
      }
    }
  }
  return board;
}

class ChessCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "chess"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kChess;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const v1::ChessPuzzle& chess = spec.chess();
    if (chess.cell_pieces().empty()) {
      const int64_t rows = chess.rows();
      return SaturatingMul(
          rows, chess.cols() == 0 ? rows : static_cast<int64_t>(chess.cols()));
    }
    return std::count_if(chess.cell_pieces().begin(), chess.cell_pieces().end(),
                         [](uint32_t p) { return p != 0; });
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const Chess g, CheckSpec(spec.chess()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = g.rows;
    problem.width = g.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(g));
    // The Max problem's optimum is a maximum weighted independent set: no
    // closed form.
    if (!g.max_variant) problem.ground_energy = 0.0;
    const int n = problem.full_model.num_variables();
    problem.stages.push_back({"model", n, 0, 0});

    const std::vector<std::vector<int32_t>> groups = FullOneHotGroups(g);

    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      problem.one_hot_groups = ReducedGroups(problem.variables, groups);
      return problem;
    }
    std::vector<int8_t> assignment(n, -1);
    for (int cell : g.placed) assignment[g.var_of_cell[cell]] = 1;
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "placed", problem));
    if (reduction == v1::REDUCTION_CLUES) {
      problem.one_hot_groups = ReducedGroups(problem.variables, groups);
      return problem;
    }
    for (int placed : g.placed) {
      for (int v = 0; v < n; ++v) {
        const int cell = g.cell_of_var[v];
        if (cell == placed) continue;
        const bool same_region =
            !g.region_of_cell.empty() &&
            g.region_of_cell[cell] == g.region_of_cell[placed];
        if (same_region || g.Reaches(placed, cell) || g.Reaches(cell, placed))
          assignment[v] = 0;
      }
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "implied", problem));
    problem.one_hot_groups = ReducedGroups(problem.variables, groups);
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    v1::PuzzleSolution solution;
    solution.set_height(problem.height);
    solution.set_width(problem.width);
    const v1::ChessPuzzle& chess = spec.chess();
    int v = 0;
    for (int r = 0; r < problem.height; ++r) {
      std::string row;
      for (int c = 0; c < problem.width; ++c) {
        const int cell = r * problem.width + c;
        const int piece = chess.cell_pieces().empty()
                              ? 0
                              : static_cast<int>(chess.cell_pieces(cell)) - 1;
        int value = 0;
        char ch = piece >= 0 ? '.' : '#';
        if (piece >= 0) {
          if (bits[v]) {
            value = 1;
            ch = piece < chess.pieces_size() ? PieceSymbol(chess.pieces(piece))
                                             : '?';
          }
          ++v;
        }
        solution.add_cells(value);
        row.push_back(ch);
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const Chess g, CheckSpec(spec.chess()));
    ASSIGN_OR_RETURN(const BoardRead board, ReadBoard(g, solution));
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    auto cell_location = [&](int cell) {
      return absl::StrCat("cell ", CellName(cell, g.cols));
    };
    auto piece_name = [&](int cell) {
      return g.pieces[g.piece_of_cell[cell]].name;
    };
    const int n = g.size();
    // Pieces that count: on a cell that takes one.
    std::vector<uint8_t> piece(n, 0);
    for (int cell = 0; cell < n; ++cell) {
      if (!board.occupied[cell]) continue;
      if (g.piece_of_cell[cell] < 0) {
        add("no_piece_allowed", cell_location(cell),
            "a piece on a cell that takes none");
      } else {
        piece[cell] = 1;
      }
    }
    for (const auto& [cell, symbol] : board.wrong_pieces) {
      add("wrong_piece", cell_location(cell),
          absl::StrCat("'", std::string(1, symbol), "' on a cell that takes a ",
                       piece_name(cell)));
    }
    for (int cell : g.placed) {
      if (!piece[cell]) {
        add("placed_missing", cell_location(cell),
            absl::StrCat("the puzzle places a ", piece_name(cell), " here"));
      }
    }
    for (int a = 0; a < n; ++a) {
      if (!piece[a]) continue;
      for (int b : g.reach[a]) {
        if (!piece[b]) continue;
        const bool mutual = g.Reaches(b, a);
        if (mutual && b < a) continue;  // reported from b
        const std::string location =
            absl::StrCat("cells ", CellName(std::min(a, b), g.cols), " and ",
                         CellName(std::max(a, b), g.cols));
        add("threat", location,
            mutual ? absl::StrCat("the ", piece_name(a), " at ",
                                  CellName(a, g.cols), " and the ",
                                  piece_name(b), " at ", CellName(b, g.cols),
                                  " threaten each other")
                   : absl::StrCat("the ", piece_name(a), " at ",
                                  CellName(a, g.cols), " threatens the ",
                                  piece_name(b), " at ", CellName(b, g.cols)));
      }
    }
    if (g.max_variant) {
      std::vector<uint8_t> reached(n, 0);
      for (int a = 0; a < n; ++a) {
        if (!piece[a]) continue;
        for (int b : g.reach[a]) reached[b] = 1;
      }
      for (int cell = 0; cell < n; ++cell) {
        if (g.piece_of_cell[cell] < 0 || piece[cell] || reached[cell]) continue;
        bool reaches_piece = false;
        for (int b : g.reach[cell]) reaches_piece = reaches_piece || piece[b];
        if (!reaches_piece) {
          add("can_add_piece", cell_location(cell),
              absl::StrCat("a ", piece_name(cell),
                           " fits here without any threat: the placement is "
                           "not maximal"));
        }
      }
    } else {
      std::vector<int> count(g.num_regions, 0);
      for (int cell = 0; cell < n; ++cell)
        count[g.region_of_cell[cell]] += piece[cell];
      for (int id = 0; id < g.num_regions; ++id) {
        if (count[id] != 1) {
          add("region_count", absl::StrCat("region ", id),
              absl::StrCat(count[id],
                           " pieces; each region holds exactly one"));
        }
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const Chess g, CheckSpec(spec.chess()));
    ASSIGN_OR_RETURN(const BoardRead board, ReadBoard(g, solution));
    if (!board.wrong_pieces.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.rows: the piece at ",
                       CellName(board.wrong_pieces[0].first, g.cols),
                       " is not the type its cell takes"));
    }
    std::vector<uint8_t> bits(g.cell_of_var.size(), 0);
    for (int cell = 0; cell < g.size(); ++cell) {
      if (!board.occupied[cell]) continue;
      if (g.var_of_cell[cell] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution: the piece at ", CellName(cell, g.cols),
                         " stands on a cell that takes none"));
      }
      bits[g.var_of_cell[cell]] = 1;
    }
    return bits;
  }
};

}  // namespace

absl::StatusOr<ChessRules> ChessRulesOf(const v1::ChessPuzzle& chess) {
  ASSIGN_OR_RETURN(const Chess g, CheckSpec(chess));
  ChessRules rules;
  rules.num_variables = static_cast<int>(g.cell_of_var.size());
  rules.max_variant = g.max_variant;
  if (!g.max_variant) {
    rules.regions.resize(g.num_regions);
    for (int v = 0; v < rules.num_variables; ++v)
      rules.regions[g.region_of_cell[g.cell_of_var[v]]].push_back(v);
  }
  for (int v = 0; v < rules.num_variables; ++v) {
    for (int target : g.reach[g.cell_of_var[v]]) {
      const int w = g.var_of_cell[target];
      // A mutual threat once, from the smaller variable.
      if (w < v && g.Reaches(target, g.cell_of_var[v])) continue;
      rules.threats.emplace_back(std::min(v, w), std::max(v, w));
    }
  }
  for (int cell : g.placed) rules.placed.push_back(g.var_of_cell[cell]);
  return rules;
}

std::unique_ptr<PuzzleCompiler> NewChessCompiler() {
  return std::make_unique<ChessCompiler>();
}

}  // namespace qs
