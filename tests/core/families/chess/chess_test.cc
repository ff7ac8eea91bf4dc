// Energy and rule tests of the chess-piece QUBOs ([Mata Ali & Mencia 2024]
// §2.6): the Coloured Chess Piece Problem (eq. 25, valid boards at energy 0)
// and the Max Chess Pieces Problem (eq. 27). On 4x4 boards the exact ground
// states are compared with boards found by brute force over the rules, where
// threats follow real chess (sliding pieces are blocked by the first piece in
// their way), which also checks that the paper's unblocked reach sets C(M) give
// the same valid boards. The default lambda of the Max problem is shown to
// never prefer a threatening placement, and the bound lambda > max weight to be
// tight.
#include "core/families/chess/chess.h"

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/one_hot_groups.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::HasSubstr;

// A board written as rows separated by '/': a piece letter for a cell that
// takes that piece, '.' for a cell that takes none; region letters likewise.
// Besides Q R B N K the tests use two custom pieces: 'F' slides forward (up)
// only and steps one cell sideways; 'C' is the camel, jumping (1,3) and (3,1).
struct Layout {
  Layout(std::string pieces_grid, std::string region_grid = "")
      : pieces(std::move(pieces_grid)), regions(std::move(region_grid)) {}
  std::string pieces;
  std::string regions;  // empty: no regions
  v1::ChessVariant variant = v1::CHESS_VARIANT_UNSPECIFIED;
  std::map<char, double> weights;
  std::vector<int> placed;
  double penalty = 0;
};

std::vector<v1::PieceMove> CustomMoves(char symbol) {
  std::vector<std::tuple<int, int, bool>> moves;
  if (symbol == 'F') moves = {{-1, 0, true}, {0, -1, false}, {0, 1, false}};
  if (symbol == 'C') {
    for (int a : {-1, 1}) {
      for (int b : {-3, 3}) {
        moves.push_back({a, b, false});
        moves.push_back({b, a, false});
      }
    }
  }
  std::vector<v1::PieceMove> out;
  for (auto [dr, dc, slide] : moves) {
    v1::PieceMove m;
    m.set_drow(dr);
    m.set_dcol(dc);
    m.set_slide(slide);
    out.push_back(m);
  }
  return out;
}

v1::PuzzleSpec ChessSpec(const Layout& layout) {
  const std::vector<std::string> rows = absl::StrSplit(layout.pieces, '/');
  v1::PuzzleSpec spec;
  v1::ChessPuzzle* chess = spec.mutable_chess();
  chess->set_rows(rows.size());
  chess->set_cols(rows[0].size());
  chess->set_variant(layout.variant);
  const std::map<char, v1::StandardPiece> standard = {{'Q', v1::PIECE_QUEEN},
                                                      {'R', v1::PIECE_ROOK},
                                                      {'B', v1::PIECE_BISHOP},
                                                      {'N', v1::PIECE_KNIGHT},
                                                      {'K', v1::PIECE_KING}};
  std::map<char, int> palette;
  for (const std::string& row : rows) {
    for (char ch : row) {
      if (ch == '.') {
        chess->add_cell_pieces(0);
        continue;
      }
      if (!palette.count(ch)) {
        v1::ChessPiece* piece = chess->add_pieces();
        if (standard.count(ch)) {
          piece->set_standard(standard.at(ch));
        } else {
          piece->mutable_custom()->set_symbol(std::string(1, ch));
          for (const v1::PieceMove& m : CustomMoves(ch))
            *piece->mutable_custom()->add_moves() = m;
        }
        if (layout.weights.count(ch)) piece->set_weight(layout.weights.at(ch));
        palette[ch] = chess->pieces_size();
      }
      chess->add_cell_pieces(palette[ch]);
    }
  }
  if (!layout.regions.empty()) {
    std::map<char, int> ids;
    for (char ch : layout.regions) {
      if (ch == '/') continue;
      if (!ids.count(ch)) ids.emplace(ch, static_cast<int>(ids.size()));
      chess->add_regions(ids[ch]);
    }
  }
  for (int cell : layout.placed) chess->add_placed(cell);
  chess->set_penalty(layout.penalty);
  return spec;
}

// The rules, written out independently of the compiler.
class Oracle {
 public:
  explicit Oracle(const Layout& layout) : layout_(layout) {
    const std::vector<std::string> rows = absl::StrSplit(layout.pieces, '/');
    rows_ = static_cast<int>(rows.size());
    cols_ = static_cast<int>(rows[0].size());
    for (const std::string& row : rows) piece_ += row;
    std::string regions = layout.regions;
    regions.erase(std::remove(regions.begin(), regions.end(), '/'),
                  regions.end());
    region_ = regions;
    for (int cell = 0; cell < rows_ * cols_; ++cell) {
      if (piece_[cell] != '.') cells_.push_back(cell);
    }
  }

  // Real chess threats: a sliding piece reaches up to and including the first
  // piece in its way.
  bool AnyThreat(const std::vector<uint8_t>& occupied) const {
    for (int a = 0; a < rows_ * cols_; ++a) {
      if (!occupied[a]) continue;
      for (auto [dr, dc, slide] : Moves(piece_[a])) {
        int r = a / cols_ + dr, c = a % cols_ + dc;
        while (r >= 0 && r < rows_ && c >= 0 && c < cols_) {
          if (occupied[r * cols_ + c]) return true;
          if (!slide) break;
          r += dr;
          c += dc;
        }
      }
    }
    return false;
  }

  bool PlacedPresent(const std::vector<uint8_t>& occupied) const {
    for (int cell : layout_.placed) {
      if (!occupied[cell]) return false;
    }
    return true;
  }

  bool OnePerRegion(const std::vector<uint8_t>& occupied) const {
    std::map<char, int> count;
    for (int cell = 0; cell < rows_ * cols_; ++cell) {
      count[region_[cell]] += 0;
      if (occupied[cell]) ++count[region_[cell]];
    }
    for (const auto& [id, n] : count) {
      if (n != 1) return false;
    }
    return true;
  }

  double Weight(const std::vector<uint8_t>& occupied) const {
    double w = 0;
    for (int cell = 0; cell < rows_ * cols_; ++cell) {
      if (occupied[cell])
        w += layout_.weights.count(piece_[cell])
                 ? layout_.weights.at(piece_[cell])
                 : 1.0;
    }
    return w;
  }

  // Every placement on the cells that take a piece.
  std::vector<std::vector<uint8_t>> AllBoards() const {
    std::vector<std::vector<uint8_t>> out;
    for (uint32_t mask = 0; mask < (1u << cells_.size()); ++mask) {
      std::vector<uint8_t> occupied(rows_ * cols_, 0);
      for (size_t k = 0; k < cells_.size(); ++k)
        occupied[cells_[k]] = (mask >> k) & 1;
      out.push_back(occupied);
    }
    return out;
  }

  std::set<std::vector<uint8_t>> ColouredSolutions() const {
    std::set<std::vector<uint8_t>> out;
    for (const auto& b : AllBoards()) {
      if (!AnyThreat(b) && OnePerRegion(b) && PlacedPresent(b)) out.insert(b);
    }
    return out;
  }

  std::set<std::vector<uint8_t>> MaxSolutions(double* best_weight) const {
    std::set<std::vector<uint8_t>> out;
    *best_weight = -1;
    for (const auto& b : AllBoards()) {
      if (AnyThreat(b) || !PlacedPresent(b)) continue;
      const double w = Weight(b);
      if (w > *best_weight) {
        *best_weight = w;
        out.clear();
      }
      if (w == *best_weight) out.insert(b);
    }
    return out;
  }

 private:
  static std::vector<std::tuple<int, int, bool>> Moves(char piece) {
    std::vector<std::tuple<int, int, bool>> moves;
    for (int dr = -3; dr <= 3; ++dr) {
      for (int dc = -3; dc <= 3; ++dc) {
        const int ar = std::abs(dr), ac = std::abs(dc);
        if (ar + ac == 0) continue;
        const bool step = ar <= 1 && ac <= 1;
        switch (piece) {
          case 'Q':
            if (step) moves.push_back({dr, dc, true});
            break;
          case 'R':
            if (step && ar + ac == 1) moves.push_back({dr, dc, true});
            break;
          case 'B':
            if (step && ar + ac == 2) moves.push_back({dr, dc, true});
            break;
          case 'N':
            if (ar * ac == 2) moves.push_back({dr, dc, false});
            break;
          case 'K':
            if (step) moves.push_back({dr, dc, false});
            break;
          case 'F':
            if (dr == -1 && dc == 0) moves.push_back({dr, dc, true});
            if (dr == 0 && ac == 1) moves.push_back({dr, dc, false});
            break;
          case 'C':
            if (ar * ac == 3) moves.push_back({dr, dc, false});
            break;
        }
      }
    }
    return moves;
  }

  Layout layout_;
  int rows_ = 0;
  int cols_ = 0;
  std::string piece_;
  std::string region_;
  std::vector<int> cells_;
};

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction = v1::REDUCTION_DEFAULT) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewChessCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

std::vector<uint8_t> CellsOf(const v1::PuzzleSolution& solution) {
  return std::vector<uint8_t>(solution.cells().begin(), solution.cells().end());
}

v1::PuzzleSolution Board(const std::vector<uint8_t>& occupied) {
  v1::PuzzleSolution solution;
  for (uint8_t v : occupied) solution.add_cells(v);
  return solution;
}

// Ground states of the default (reduced) model, as boards.
std::set<std::vector<uint8_t>> GroundBoards(const v1::PuzzleSpec& spec,
                                            const CompiledProblem& problem,
                                            double* energy) {
  auto compiler = NewChessCompiler();
  auto ground = FindGroundStates(problem.model, 100000, nullptr);
  EXPECT_TRUE(ground.ok()) << ground.status();
  EXPECT_EQ(ground->count, static_cast<int64_t>(ground->states.size()));
  *energy = ground->energy;
  std::set<std::vector<uint8_t>> boards;
  for (const auto& state : ground->states) {
    boards.insert(CellsOf(
        compiler->Decode(spec, problem, problem.variables.Expand(state))));
  }
  return boards;
}

// Number of groups of `problem.one_hot_groups` that do not hold exactly one 1
// in the reduced state of the full assignment `bits`.
int GroupsBrokenBy(const CompiledProblem& problem,
                   const std::vector<uint8_t>& bits) {
  return testing::GroupsBroken(problem.one_hot_groups,
                               problem.variables.Restrict(bits));
}

std::vector<Layout> ColouredLayouts() {
  const std::string quadrants = "AABB/AABB/CCDD/CCDD";
  std::vector<Layout> layouts = {
      {"QQQQ/QQQQ/QQQQ/QQQQ", quadrants},
      {"QRBN/NBRQ/RQNB/BNQR", quadrants},
      {"NN.K/N.KK/.NNK/KK.N", "AAAA/BBBB/CCCC/DDDD"},
      {"FCFC/CFCF/FCFC/CFCF", "ABCD/ABCD/ABCD/ABCD"},
      {"RRRR/RRRR/RRRR/RRRR", "AABB/ACBB/CCDD/CDDD"},
      {"QQQQ/QQQQ/QQQQ/QQQQ", quadrants},
      {"BKBK/NRNR/BKBK/NRNR", "ABBB/AACB/DACC/DDDC"},
  };
  layouts[5].placed = {1};  // a queen at (1,2) from the start
  layouts[6].placed = {4};  // a knight at (2,1)
  return layouts;
}

TEST(ChessCompilerTest, ColouredGroundStatesAreTheValidBoards) {
  auto compiler = NewChessCompiler();
  const std::vector<int> expected_solutions = {2, 2, 3, 71, 8, 1, 2};
  // Exactly-one groups: the regions, then the rows and the columns where every
  // line is a threat clique (queens, rooks) and the lines are as many as the
  // regions. The placed queen settles its region, row and column and leaves
  // regions C, D, rows 3, 4 and columns 3, 4 (column 1 is region C again); the
  // placed knight leaves regions C and D (B keeps one open cell).
  const std::vector<size_t> expected_groups = {12, 4, 4, 4, 12, 6, 2};
  const std::vector<Layout> layouts = ColouredLayouts();
  for (size_t k = 0; k < layouts.size(); ++k) {
    SCOPED_TRACE(layouts[k].pieces + " " + layouts[k].regions);
    const v1::PuzzleSpec spec = ChessSpec(layouts[k]);
    const CompiledProblem problem = CompileOrDie(spec);
    EXPECT_EQ(problem.ground_energy, 0.0);
    double energy = 0;
    const std::set<std::vector<uint8_t>> ground =
        GroundBoards(spec, problem, &energy);
    const std::set<std::vector<uint8_t>> valid =
        Oracle(layouts[k]).ColouredSolutions();
    EXPECT_EQ(static_cast<int>(valid.size()), expected_solutions[k]);
    ASSERT_FALSE(valid.empty());
    EXPECT_EQ(energy, 0.0);
    EXPECT_EQ(ground, valid);
    EXPECT_EQ(problem.one_hot_groups.size(), expected_groups[k]);
    for (const auto& board : ground) {
      auto report = compiler->Validate(spec, Board(board));
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid());
      auto bits = compiler->Encode(spec, problem, Board(board));
      ASSERT_OK(bits);
      EXPECT_EQ(GroupsBrokenBy(problem, *bits), 0);
    }
  }
}

std::vector<Layout> MaxLayouts() {
  std::vector<Layout> layouts = {
      {"NNNN/NNNN/NNNN/NNNN"}, {"KKKK/KKKK/KKKK/KKKK"}, {"QQQQ/QQQQ/QQQQ/QQQQ"},
      {"BBBB/BBBB/BBBB/BBBB"}, {"RRRR/RRRR/RRRR/RRRR"}, {"QNBR/KRNQ/BQKN/RBNK"},
      {"F.CF/CFFC/.CF./FCFC"}, {"NNNN/NNNN/NNNN/NNNN"},
  };
  layouts[5].weights = {{'Q', 4}, {'R', 2}, {'B', 1.5}, {'N', 1}, {'K', 0.5}};
  layouts[6].weights = {{'F', 2}, {'C', 0.25}};
  layouts[7].placed = {1};
  for (Layout& layout : layouts) layout.variant = v1::CHESS_MAX;
  return layouts;
}

TEST(ChessCompilerTest, MaxGroundStatesAreTheHeaviestThreatFreeBoards) {
  auto compiler = NewChessCompiler();
  const std::vector<double> expected_weight = {8, 4, 4, 6, 4, 12, 8.5, 8};
  const std::vector<Layout> layouts = MaxLayouts();
  for (size_t k = 0; k < layouts.size(); ++k) {
    SCOPED_TRACE(layouts[k].pieces);
    const v1::PuzzleSpec spec = ChessSpec(layouts[k]);
    const CompiledProblem problem = CompileOrDie(spec);
    EXPECT_FALSE(problem.ground_energy.has_value());
    double energy = 0, best_weight = 0;
    const std::set<std::vector<uint8_t>> ground =
        GroundBoards(spec, problem, &energy);
    const std::set<std::vector<uint8_t>> best =
        Oracle(layouts[k]).MaxSolutions(&best_weight);
    EXPECT_EQ(best_weight, expected_weight[k]);
    EXPECT_EQ(energy, -best_weight);
    EXPECT_EQ(ground, best);
    for (const auto& board : ground) {
      auto report = compiler->Validate(spec, Board(board));
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid());
    }
  }
}

TEST(ChessCompilerTest, DefaultLambdaNeverPrefersAThreateningPlacement) {
  // Over every board of the full model: a board with a threat scores above the
  // optimum, and removing one of its pieces lowers its energy (lambda > max
  // weight; the argument is in chess.h), so no descent ends on a threatening
  // placement.
  for (const Layout& layout : MaxLayouts()) {
    if (!layout.placed.empty()) continue;
    SCOPED_TRACE(layout.pieces);
    const v1::PuzzleSpec spec = ChessSpec(layout);
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    auto compiler = NewChessCompiler();
    const Oracle oracle(layout);
    double best_weight = 0;
    oracle.MaxSolutions(&best_weight);
    int threatening = 0;
    for (const auto& board : oracle.AllBoards()) {
      if (!oracle.AnyThreat(board)) continue;
      ++threatening;
      auto bits = compiler->Encode(spec, problem, Board(board));
      ASSERT_OK(bits);
      const double energy = problem.full_model.Energy(*bits);
      ASSERT_GT(energy, -best_weight);
      bool improved = false;
      for (int cell = 0; cell < static_cast<int>(board.size()) && !improved;
           ++cell) {
        if (!board[cell]) continue;
        std::vector<uint8_t> fewer = board;
        fewer[cell] = 0;
        auto fewer_bits = compiler->Encode(spec, problem, Board(fewer));
        ASSERT_OK(fewer_bits);
        improved = problem.full_model.Energy(*fewer_bits) < energy;
      }
      ASSERT_TRUE(improved);
    }
    EXPECT_GT(threatening, 1000);
  }
}

TEST(ChessCompilerTest, LambdaAtTheLargestWeightWouldTie) {
  // The knight reaches the queen, the queen does not reach the knight: eq. 24
  // gives the pair 1.
  Layout layout{"Q../..N"};
  layout.variant = v1::CHESS_MAX;
  const v1::PuzzleSpec spec = ChessSpec(layout);
  auto compiler = NewChessCompiler();
  const CompiledProblem by_default = CompileOrDie(spec, v1::REDUCTION_NONE);
  ASSERT_EQ(by_default.full_model.num_variables(), 2);
  EXPECT_EQ(by_default.full_model.QuadraticTerms(),
            (std::vector<QuboTerm>{{0, 1, 2.0}}));  // lambda = 2
  const double alone = by_default.full_model.Energy(std::vector<uint8_t>{1, 0});
  const double both = by_default.full_model.Energy(std::vector<uint8_t>{1, 1});
  EXPECT_EQ(alone, -1);
  const v1::PuzzleSolution decoded =
      compiler->Decode(spec, by_default, std::vector<uint8_t>{1, 0});
  EXPECT_THAT(decoded.rows(), ::testing::ElementsAre("Q##", "##."));
  EXPECT_THAT(decoded.cells(), ::testing::ElementsAre(1, 0, 0, 0, 0, 0));
  EXPECT_EQ(both, 0);
  // The energy is -W + lambda * T with T = 1 here: at lambda = 1 the
  // threatening pair would tie with the optimum, so lambda must exceed the
  // largest weight, and such a lambda is refused.
  Layout lambda_one = layout;
  lambda_one.penalty = 1;
  EXPECT_THAT(
      compiler->Compile(ChessSpec(lambda_one), v1::CompileOptions()),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("chess.penalty")));
  Layout lambda_above = layout;
  lambda_above.penalty = 1.0 + 1.0 / 64;
  const CompiledProblem just_above =
      CompileOrDie(ChessSpec(lambda_above), v1::REDUCTION_NONE);
  EXPECT_EQ(just_above.full_model.Energy(std::vector<uint8_t>{1, 1}),
            -2 + 1.0 + 1.0 / 64);
  EXPECT_GT(just_above.full_model.Energy(std::vector<uint8_t>{1, 1}), alone);
}

TEST(ChessCompilerTest, ThreatTermCountsEachPieceThatReachesTheOther) {
  // Eq. 24 sums over ordered pairs: 1 when one piece reaches the other, 2 when
  // both do.
  Layout layout{"Q.Q/..N", "AAB/AAC"};
  const CompiledProblem problem =
      CompileOrDie(ChessSpec(layout), v1::REDUCTION_NONE);
  std::map<std::pair<int, int>, double> couplers;
  for (const QuboTerm& t : problem.full_model.QuadraticTerms())
    couplers[{t.i, t.j}] = t.w;
  EXPECT_EQ(couplers[std::make_pair(0, 1)],
            2.0);  // the queens at (1,1) and (1,3) reach each other
  EXPECT_EQ(couplers[std::make_pair(0, 2)],
            1.0);  // the knight at (2,3) reaches (1,1), not vice versa
  EXPECT_EQ(couplers[std::make_pair(1, 2)],
            1.0);  // the queen at (1,3) reaches (2,3), not vice versa
  EXPECT_EQ(couplers.size(), 3u);
}

// 8 queens, regions drawn around the queens of one solution (each cell joins
// its nearest queen); `queens` is that solution.
Layout EightQueensColoured(std::vector<uint8_t>& queens) {
  const std::vector<int> queen_col = {0, 4, 7, 5, 2, 6, 1, 3};
  Layout coloured{
      "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/"
      "QQQQQQQQ"};
  queens.assign(64, 0);
  for (int r = 0; r < 8; ++r) {
    queens[r * 8 + queen_col[r]] = 1;
    if (r > 0) coloured.regions += '/';
    for (int c = 0; c < 8; ++c) {
      int nearest = 0;
      for (int q = 1; q < 8; ++q) {
        if (std::abs(q - r) + std::abs(queen_col[q] - c) <
            std::abs(nearest - r) + std::abs(queen_col[nearest] - c)) {
          nearest = q;
        }
      }
      coloured.regions += static_cast<char>('A' + nearest);
    }
  }
  return coloured;
}

TEST(ChessCompilerTest,
     KnownSolutionsScoreTheGroundEnergyAndEveryChangeHigher) {
  auto compiler = NewChessCompiler();
  std::vector<uint8_t> queens;
  const Layout coloured = EightQueensColoured(queens);
  // 32 knights on the light squares; 16 kings on the even rows and columns.
  Layout knights{
      "NNNNNNNN/NNNNNNNN/NNNNNNNN/NNNNNNNN/NNNNNNNN/NNNNNNNN/NNNNNNNN/"
      "NNNNNNNN"};
  Layout kings{
      "KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/"
      "KKKKKKKK"};
  knights.variant = kings.variant = v1::CHESS_MAX;
  std::vector<uint8_t> light(64, 0), spread(64, 0);
  for (int cell = 0; cell < 64; ++cell) {
    light[cell] = (cell / 8 + cell % 8) % 2 == 0;
    spread[cell] = (cell / 8) % 2 == 0 && (cell % 8) % 2 == 0;
  }
  const struct {
    Layout layout;
    std::vector<uint8_t> board;
    double energy;
  } cases[] = {
      {coloured, queens, 0}, {knights, light, -32}, {kings, spread, -16}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.layout.pieces.substr(0, 1));
    const v1::PuzzleSpec spec = ChessSpec(c.layout);
    const CompiledProblem problem = CompileOrDie(spec);
    auto bits = compiler->Encode(spec, problem, Board(c.board));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), c.energy);
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)),
              c.energy);
    const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
    auto report = compiler->Validate(spec, decoded);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    for (int cell = 0; cell < 64; ++cell) {
      std::vector<uint8_t> changed = *bits;
      changed[cell] ^= 1;
      EXPECT_GT(problem.full_model.Energy(changed), c.energy)
          << "cell " << cell;
      auto changed_report =
          compiler->Validate(spec, compiler->Decode(spec, problem, changed));
      ASSERT_OK(changed_report);
      EXPECT_FALSE(changed_report->valid()) << "cell " << cell;
    }
  }
}

TEST(ChessCompilerTest, OneHotGroupsHoldOnePieceInTheSolution) {
  auto compiler = NewChessCompiler();
  std::vector<uint8_t> queens;
  const v1::PuzzleSpec spec = ChessSpec(EightQueensColoured(queens));
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    // The 8 regions first, then the 8 rows and the 8 columns: queens threaten
    // along lines, and 8 regions take 8 queens.
    ASSERT_EQ(problem.one_hot_groups.size(), 24u);
    EXPECT_EQ(testing::MalformedGroups(problem.one_hot_groups,
                                       problem.model.num_variables()),
              0);
    EXPECT_EQ(problem.one_hot_groups[8],
              (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(problem.one_hot_groups[16],
              (std::vector<int32_t>{0, 8, 16, 24, 32, 40, 48, 56}));
    auto bits = compiler->Encode(spec, problem, Board(queens));
    ASSERT_OK(bits);
    EXPECT_EQ(GroupsBrokenBy(problem, *bits), 0);
  }
  // No rows or columns where a line's pieces need not threaten one another,
  // nor where the lines outnumber the regions; no groups in the Max problem.
  const CompiledProblem mixed =
      CompileOrDie(ChessSpec({"QRBN/NBRQ/RQNB/BNQR", "AABB/AABB/CCDD/CCDD"}));
  EXPECT_EQ(mixed.one_hot_groups.size(), 4u);
  const CompiledProblem two_regions =
      CompileOrDie(ChessSpec({"QQQQ/QQQQ/QQQQ/QQQQ", "AAAA/AAAA/BBBB/BBBB"}));
  EXPECT_EQ(two_regions.one_hot_groups.size(), 2u);
  for (const Layout& layout : MaxLayouts())
    EXPECT_TRUE(CompileOrDie(ChessSpec(layout)).one_hot_groups.empty());
}

TEST(ChessCompilerTest, PlacedPiecesLeaveTheOptimization) {
  Layout layout{"QQQQ/QQQQ/QQQQ/QQQQ", "AABB/AABB/CCDD/CCDD"};
  layout.placed = {1};
  const v1::PuzzleSpec spec = ChessSpec(layout);
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.model.num_variables(), 15);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_EQ(full.stages.size(), 3u);
  EXPECT_EQ(full.stages[1].name, "placed");
  EXPECT_EQ(full.stages[1].fixed_one, 1);
  EXPECT_EQ(full.stages[2].name, "implied");
  // Free: (2,4), (3,1), (3,3), (4,1), (4,3), (4,4); the rest share the queen's
  // row, column, diagonals or region.
  EXPECT_EQ(full.model.num_variables(), 6);
  EXPECT_EQ(full.stages[2].fixed_zero, 9);
}

TEST(ChessCompilerTest, ValidatorNamesTheBrokenRules) {
  auto compiler = NewChessCompiler();
  Layout coloured{"QN.K/QNRK/BBRR/QQQQ", "AABB/AABB/CCDD/CCDD"};
  coloured.placed = {15};
  v1::PuzzleSolution board;
  // The queen at (1,1) reaches the rook at (3,3); (1,3) takes no piece, so
  // region 1 stays empty.
  for (const char* row : {"Q.N.", "....", "..R.", "...."}) board.add_rows(row);
  auto report = compiler->Validate(ChessSpec(coloured), board);
  ASSERT_OK(report);
  std::vector<std::string> rules;
  for (const auto& v : report->violations())
    rules.push_back(v.rule() + "@" + v.location());
  EXPECT_THAT(rules, Contains("no_piece_allowed@cell (1,3)"));
  EXPECT_THAT(rules, Contains("threat@cells (1,1) and (3,3)"));
  EXPECT_THAT(rules, Contains("region_count@region 1"));
  EXPECT_THAT(rules, Contains("region_count@region 2"));
  EXPECT_THAT(rules, ::testing::Not(Contains("region_count@region 0")));
  EXPECT_THAT(rules, ::testing::Not(Contains("region_count@region 3")));
  EXPECT_EQ(report->violations_size(), 5);
  EXPECT_THAT(rules, Contains("placed_missing@cell (4,4)"));
  EXPECT_FALSE(report->valid());
  v1::PuzzleSolution wrong;
  for (const char* row : {"N...", "....", "....", "...."}) wrong.add_rows(row);
  report = compiler->Validate(ChessSpec(coloured), wrong);
  ASSERT_OK(report);
  ASSERT_GE(report->violations_size(), 1);
  EXPECT_EQ(report->violations(0).rule(), "wrong_piece");

  Layout max{"KKK/KKK/KKK"};
  v1::PuzzleSolution corner;
  for (const char* row : {"K..", "...", "..."}) corner.add_rows(row);
  report = compiler->Validate(ChessSpec(max), corner);
  ASSERT_OK(report);
  rules.clear();
  for (const auto& v : report->violations())
    rules.push_back(v.rule() + "@" + v.location());
  EXPECT_THAT(rules, ::testing::UnorderedElementsAre(
                         "can_add_piece@cell (1,3)", "can_add_piece@cell (3,1)",
                         "can_add_piece@cell (3,2)", "can_add_piece@cell (3,3)",
                         "can_add_piece@cell (2,3)"));
}

TEST(ChessCompilerTest, RejectsBadInputNamingTheField) {
  auto compiler = NewChessCompiler();
  const v1::CompileOptions options;
  const Layout good_layout{"QN.K/QNRK/BBRR/QQQQ", "AABB/AABB/CCDD/CCDD"};
  const v1::PuzzleSpec good = ChessSpec(good_layout);
  ASSERT_OK(compiler->Compile(good, options));
  auto expect_error = [&](const v1::PuzzleSpec& spec,
                          const std::string& message) {
    EXPECT_THAT(
        compiler->Compile(spec, options),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
  };
  v1::PuzzleSpec spec = good;
  spec.mutable_chess()->mutable_pieces(1)->set_standard(
      static_cast<v1::StandardPiece>(9));
  expect_error(spec, "chess.pieces[1].standard: unknown piece type 9");
  spec = good;
  spec.mutable_chess()->mutable_pieces(0)->set_standard(
      v1::STANDARD_PIECE_UNSPECIFIED);
  expect_error(spec, "chess.pieces[0].standard: unknown piece type 0");
  spec = good;
  spec.mutable_chess()->mutable_pieces(0)->Clear();
  expect_error(spec, "chess.pieces[0]: no piece type set");
  spec = good;
  spec.mutable_chess()->mutable_pieces(0)->mutable_custom()->set_symbol("Q");
  expect_error(spec, "chess.pieces[0].custom.symbol");
  spec = good;
  spec.mutable_chess()->mutable_pieces(0)->mutable_custom()->set_symbol("Z");
  spec.mutable_chess()->mutable_pieces(0)->mutable_custom()->add_moves();
  expect_error(spec, "chess.pieces[0].custom.moves[0]: (0,0) is not a move");
  spec = good;
  spec.mutable_chess()->mutable_regions()->RemoveLast();
  expect_error(spec, "chess.regions: expected 16 region ids");
  spec = good;
  spec.mutable_chess()->set_regions(3, 16);
  expect_error(spec, "chess.regions[3]: region id 16 out of range 0..15");
  spec = good;
  spec.mutable_chess()->set_regions(15, 5);
  expect_error(spec, "chess.regions: region id 4 is unused");
  spec = good;
  spec.mutable_chess()->set_cell_pieces(0, 9);
  expect_error(spec, "chess.cell_pieces[0]: piece 9 out of range 0..5");
  spec = good;
  spec.mutable_chess()->mutable_cell_pieces()->RemoveLast();
  expect_error(spec, "chess.cell_pieces: expected 16 values");
  spec = good;
  spec.mutable_chess()->add_placed(2);
  expect_error(spec, "chess.placed[0]: cell (1,3) takes no piece");
  spec = good;
  spec.mutable_chess()->add_placed(0);
  spec.mutable_chess()->add_placed(5);
  expect_error(
      spec,
      "chess.placed[1]: region 0 already holds the piece placed at (1,1)");
  spec = good;
  spec.mutable_chess()->add_placed(0);
  spec.mutable_chess()->add_placed(15);
  expect_error(spec,
               "chess.placed[1]: the queen at (4,4) and the queen placed at "
               "(1,1) threaten each other");
  spec = good;
  spec.mutable_chess()->mutable_pieces(0)->set_weight(2);
  expect_error(
      spec,
      "chess.pieces[0].weight: weights apply to the CHESS_MAX variant only");
  spec = good;
  spec.mutable_chess()->set_penalty(3);
  expect_error(spec,
               "chess.penalty: lambda applies to the CHESS_MAX variant only");
  spec = good;
  spec.mutable_chess()->set_variant(v1::CHESS_MAX);
  expect_error(spec, "chess.regions: the CHESS_MAX variant has no regions");
  spec = good;
  spec.mutable_chess()->clear_regions();
  spec.mutable_chess()->set_variant(v1::CHESS_COLOURED);
  expect_error(spec, "chess.regions: expected 16 region ids");
  spec = good;
  spec.mutable_chess()->clear_regions();
  spec.mutable_chess()->mutable_pieces(2)->set_weight(-1);
  expect_error(spec, "chess.pieces[2].weight: must be > 0");
  spec = good;
  spec.mutable_chess()->clear_regions();
  spec.mutable_chess()->mutable_pieces(2)->set_weight(4);
  spec.mutable_chess()->set_penalty(4);
  expect_error(spec,
               "chess.penalty: lambda must exceed the largest piece weight 4");
  spec = good;
  spec.mutable_chess()->clear_pieces();
  expect_error(spec, "chess.pieces: at least one piece type");
  spec = good;
  spec.mutable_chess()->clear_cell_pieces();
  expect_error(spec,
               "chess.cell_pieces: empty (every cell takes pieces[0]), but 5 "
               "piece types");
  spec = good;
  spec.mutable_chess()->set_variant(static_cast<v1::ChessVariant>(7));
  expect_error(spec, "chess.variant: unknown variant 7");
  spec = good;
  spec.mutable_chess()->set_rows(0);
  expect_error(spec, "chess.rows");
  // A region whose cells all take no piece.
  expect_error(ChessSpec(Layout{"Q.Q/Q.Q", "ABA/ABA"}),
               "chess.regions: region 1 has no cell that takes a piece");
}

TEST(ChessCompilerTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("chess");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kChess);
  EXPECT_EQ((*compiler)->ModelVariables(ChessSpec({"QN.K/QNRK/BBRR/QQQQ"})),
            15);
  v1::PuzzleSpec single;
  single.mutable_chess()->set_rows(5);
  single.mutable_chess()->add_pieces()->set_standard(v1::PIECE_QUEEN);
  EXPECT_EQ((*compiler)->ModelVariables(single), 25);
  auto problem = (*compiler)->Compile(single, v1::CompileOptions());
  ASSERT_OK(problem);
  EXPECT_EQ(problem->model.num_variables(), 25);
}

}  // namespace
}  // namespace qs
