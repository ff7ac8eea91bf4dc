// Energy, gadget, reduction and validation tests of the Towers QUBO
// (docs/towers.md): the clue gadget proved exhaustively on every line of
// sizes 4 and 5 (its minimum over the chain is 0 exactly when the line meets
// the clue, and at least 1 otherwise, reached only by the true chain), the
// ground energy 0 of solved sgt-towers puzzles in every reduction, every
// broken rule scoring higher and named by the validator, what the reduction
// clamps stage by stage, and the exact ground states of small puzzles.
#include "core/families/towers/towers.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// `sgt-towers --generate 1 5dx` and its unique solution.
constexpr char kGameId5[] = "5:/2/2//3///3/2////3/3/2///2//,u1c";
constexpr char kSolved5[] = "52413/35142/13524/24351/41235";

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("towers", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

std::vector<int> Heights(const std::string& rows) {
  std::vector<int> out;
  for (char ch : rows) {
    if (ch != '/') out.push_back(ch == '.' ? 0 : ch - '0');
  }
  return out;
}

v1::PuzzleSolution Board(const std::vector<int>& heights) {
  v1::PuzzleSolution board;
  for (int h : heights) board.add_cells(h);
  return board;
}

// A puzzle with every clue of a solved square (and no givens).
v1::PuzzleSpec AllClues(int n, const std::vector<int>& square) {
  v1::PuzzleSpec spec;
  v1::TowersPuzzle& t = *spec.mutable_towers();
  t.set_size(n);
  for (int side = 0; side < 4; ++side) {
    for (int i = 0; i < n; ++i) {
      std::vector<int> line;
      for (int cell : TowersLineCells(n, side, i)) line.push_back(square[cell]);
      const uint32_t clue = TowersVisible(line);
      side == 0   ? t.add_top(clue)
      : side == 1 ? t.add_bottom(clue)
      : side == 2 ? t.add_left(clue)
                  : t.add_right(clue);
    }
  }
  return spec;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewTowersCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return problem.ok() ? *std::move(problem) : CompiledProblem();
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations())
    rules.push_back(v.rule() + "@" + v.location());
  return rules;
}

// The gadget of one clue on its own: x of (k, h) = k * n + h - 1 for the line
// read from its side, the chain after the n^2 cell variables.
Qubo LineGadget(int n, int clue) {
  std::vector<int> cells(n);
  std::iota(cells.begin(), cells.end(), 0);
  QuboBuilder builder(n * n + TowersChainSize(n));
  AddTowersClueTerms(builder, n, cells, n * n, clue);
  auto model = std::move(builder).Build();
  EXPECT_OK(model);
  return *std::move(model);
}

// For a fixed line x (bits 0..n^2-1 of `bits`), the minimum over every chain
// assignment of the gadget for each clue 1..n (index clue - 1), how many
// chains reach it, and the last chain that did. Clue c's gadget differs from
// clue 1's by -2(c-1)S + (c-1)^2, S the seen count, so one Gray-code walk over
// the chain serves every clue.
struct LineMinima {
  std::vector<double> minimum;
  std::vector<int> at_minimum;
  std::vector<std::vector<uint8_t>> argmin;
};

LineMinima MinimiseOverChain(int n, const Qubo& clue1,
                             std::vector<uint8_t> bits) {
  const int m = TowersChainSize(n);
  const TowersChainRules rules = TowersChain(
      n,
      [&] {
        std::vector<int> c(n);
        std::iota(c.begin(), c.end(), 0);
        return c;
      }(),
      n * n);
  std::vector<uint8_t> is_seen(bits.size(), 0);
  for (int v : rules.seen) is_seen[v] = 1;
  for (int i = 0; i < m; ++i) bits[n * n + i] = 0;
  double energy = clue1.Energy(bits);
  int seen = 0;
  for (int v : rules.seen) seen += bits[v];
  LineMinima out;
  out.minimum.assign(n, 1e18);
  out.at_minimum.assign(n, 0);
  out.argmin.assign(n, {});
  for (uint64_t step = 0;; ++step) {
    for (int c = 1; c <= n; ++c) {
      const double e = energy - 2.0 * (c - 1) * seen + (c - 1.0) * (c - 1.0);
      if (e < out.minimum[c - 1]) {
        out.minimum[c - 1] = e;
        out.at_minimum[c - 1] = 0;
      }
      if (e == out.minimum[c - 1]) {
        ++out.at_minimum[c - 1];
        out.argmin[c - 1] = bits;
      }
    }
    if (step + 1 == (uint64_t{1} << m)) break;
    const int flip = n * n + std::countr_zero(step + 1);
    energy += clue1.FlipDelta(bits, flip);
    seen += is_seen[flip] ? (bits[flip] ? -1 : 1) : 0;
    bits[flip] ^= 1;
  }
  return out;
}

// Exhaustive proof of the clue gadget on every line of size n.
void ProveGadget(int n) {
  const Qubo clue1 = LineGadget(n, 1);
  for (int c = 2; c <= n; ++c) {
    // The gadgets differ only in the count term, as MinimiseOverChain uses.
    EXPECT_EQ(LineGadget(n, c).num_couplers(), clue1.num_couplers());
  }
  std::vector<int> line(n);
  std::iota(line.begin(), line.end(), 1);
  int lines = 0;
  do {
    std::vector<uint8_t> bits(n * n + TowersChainSize(n), 0);
    for (int k = 0; k < n; ++k) bits[k * n + line[k] - 1] = 1;
    const LineMinima minima = MinimiseOverChain(n, clue1, bits);
    const int visible = TowersVisible(line);
    std::vector<uint8_t> truth = bits;
    for (int state : TowersTrueStates(n, line)) truth[n * n + state] = 1;
    for (int c = 1; c <= n; ++c) {
      SCOPED_TRACE(::testing::PrintToString(line) + " clue " +
                   std::to_string(c));
      if (c == visible) {
        EXPECT_EQ(minima.minimum[c - 1], 0.0);
        EXPECT_EQ(minima.at_minimum[c - 1], 1);  // the true chain alone
        EXPECT_EQ(minima.argmin[c - 1], truth);
        // The clue's own gadget agrees with the shifted one.
        EXPECT_EQ(LineGadget(n, c).Energy(truth), 0.0);
      } else {
        EXPECT_GE(minima.minimum[c - 1], 1.0);
      }
    }
    ++lines;
  } while (std::next_permutation(line.begin(), line.end()));
  EXPECT_EQ(lines, n == 4 ? 24 : 120);
}

TEST(TowersGadgetTest, MinimumOverTheChainIsZeroExactlyWhenTheClueIsMetSize4) {
  EXPECT_EQ(TowersChainSize(4), 10);
  ProveGadget(4);
}

TEST(TowersGadgetTest, MinimumOverTheChainIsZeroExactlyWhenTheClueIsMetSize5) {
  EXPECT_EQ(TowersChainSize(5), 18);
  ProveGadget(5);
}

// Every assignment of size 3 (all 9 cell bits, Latin or not, and the chain's
// 4 bits) scores >= 0 for every clue: no reward term makes a cheat pay.
TEST(TowersGadgetTest, NonNegativeOnEveryAssignmentOfSize3) {
  for (int c = 1; c <= 3; ++c) {
    const Qubo gadget = LineGadget(3, c);
    ASSERT_EQ(gadget.num_variables(), 13);
    double lowest = 1e18;
    for (uint32_t a = 0; a < (1u << 13); ++a) {
      std::vector<uint8_t> bits(13);
      for (int i = 0; i < 13; ++i) bits[i] = (a >> i) & 1;
      lowest = std::min(lowest, gadget.Energy(bits));
    }
    EXPECT_EQ(lowest, 0.0) << "clue " << c;
  }
}

// Lines of size 4 whose cells are not one-hot still never score below 0.
TEST(TowersGadgetTest, NonNegativeOnLinesThatAreNoPermutationSize4) {
  const Qubo clue1 = LineGadget(4, 1);
  uint64_t state = 12345;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint8_t> bits(16 + TowersChainSize(4), 0);
    for (int i = 0; i < 16; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      bits[i] = (state >> 33) % 3 == 0;
    }
    const LineMinima minima = MinimiseOverChain(4, clue1, bits);
    for (double e : minima.minimum) EXPECT_GE(e, 0.0);
  }
}

TEST(TowersCompilerTest, ModelHasTheCellsAndOneChainPerClue) {
  const v1::PuzzleSpec spec = Parse(kGameId5);
  // 9 clues, 5^3 cell variables, 18 chain states per clue.
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  EXPECT_EQ(problem.full_model.num_variables(), 125 + 9 * 18);
  EXPECT_EQ(NewTowersCompiler()->ModelVariables(spec), 125 + 9 * 18);
  EXPECT_EQ(problem.ground_energy, 0.0);
  EXPECT_EQ(problem.full_model.labels()[(1 * 5 + 2) * 5 + 3], "r2c3h4");
  // The first clue is above column 2: its state (h 4, seen) at position 2.
  EXPECT_EQ(problem.full_model.labels()[125 + TowersChainState(5, 1, 4, true)],
            "top2k2h4s");
  // One-hot groups: 25 cells, 50 row and column heights, 3 positions per
  // chain.
  EXPECT_EQ(problem.one_hot_groups.size(), 25u + 50u + 9u * 3u);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  std::vector<std::string> names;
  for (const ReductionStage& stage : full.stages) names.push_back(stage.name);
  EXPECT_THAT(names, ElementsAre("model", "givens", "clue_n", "clue_1",
                                 "clue_bounds", "latin", "chains"));
  EXPECT_EQ(full.stages.back().variables, full.model.num_variables());
  EXPECT_LT(full.model.num_variables(), problem.model.num_variables());
  for (const auto& group : full.one_hot_groups) {
    EXPECT_GE(group.size(), 2u);
    for (int32_t v : group) EXPECT_LT(v, full.model.num_variables());
  }
}

TEST(TowersCompilerTest, SolutionScoresTheGroundEnergyInEveryModel) {
  const v1::PuzzleSpec spec = Parse(kGameId5);
  auto compiler = NewTowersCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem, Board(Heights(kSolved5)));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), 0.0);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)), 0.0);
    const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
    EXPECT_EQ(decoded.rows(0), "52413");
    auto report = compiler->Validate(spec, decoded);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << ::testing::PrintToString(RulesOf(*report));
  }
}

// Each broken rule costs energy and is named by the validator.
TEST(TowersCompilerTest, EveryBrokenRuleScoresHigherAndIsNamed) {
  const v1::PuzzleSpec spec = Parse(kGameId5);
  auto compiler = NewTowersCompiler();
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  const std::vector<int> solved = Heights(kSolved5);
  auto bits = compiler->Encode(spec, none, Board(solved));
  ASSERT_OK(bits);
  auto expect_broken = [&](const std::vector<uint8_t>& changed,
                           const std::string& rule) {
    EXPECT_GE(none.full_model.Energy(changed), 1.0) << rule;
    auto report =
        compiler->Validate(spec, compiler->Decode(spec, none, changed));
    ASSERT_OK(report);
    EXPECT_THAT(RulesOf(*report), Contains(rule));
  };
  // A cell without a height.
  std::vector<uint8_t> changed = *bits;
  changed[(0 * 5 + 0) * 5 + 4] = 0;
  expect_broken(changed, "empty_cell@cell (1,1)");
  // A cell with two heights.
  changed = *bits;
  changed[(2 * 5 + 3) * 5 + 0] = 1;
  expect_broken(changed, "multiple_heights@cell (3,4)");
  // Height 4 twice in row 1 (and 5 missing from column 1).
  changed = *bits;
  changed[(0 * 5 + 0) * 5 + 4] = 0;
  changed[(0 * 5 + 0) * 5 + 3] = 1;
  expect_broken(changed, "row_duplicate@row 1");
  // Row 1's cells in columns 4 and 5 (1 and 3) swapped: 3 twice in column 4.
  changed = *bits;
  changed[(0 * 5 + 3) * 5 + 0] = 0;
  changed[(0 * 5 + 3) * 5 + 2] = 1;
  changed[(0 * 5 + 4) * 5 + 2] = 0;
  changed[(0 * 5 + 4) * 5 + 0] = 1;
  expect_broken(changed, "column_duplicate@column 4");
  // Every single flip of a cell or chain variable costs energy.
  for (size_t v = 0; v < bits->size(); ++v) {
    changed = *bits;
    changed[v] ^= 1;
    EXPECT_GE(none.full_model.Energy(changed), 1.0) << "variable " << v;
  }
}

// A Latin square that meets every clue but one scores (seen - clue)^2 with its
// true chain, on each of the four sides, and the validator names that clue.
TEST(TowersCompilerTest, AWrongVisibleCountCostsEnergyFromEachSide) {
  const std::vector<int> square = Heights(kSolved5);
  auto compiler = NewTowersCompiler();
  const v1::PuzzleSpec right = AllClues(5, square);
  const std::vector<std::pair<int, std::string>> cases = {
      {0, "top of column 2"},
      {1, "bottom of column 3"},
      {2, "left of row 4"},
      {3, "right of row 5"}};
  for (const auto& [side, where] : cases) {
    SCOPED_TRACE(where);
    v1::PuzzleSpec spec = right;
    v1::TowersPuzzle& t = *spec.mutable_towers();
    auto* clues = side == 0   ? t.mutable_top()
                  : side == 1 ? t.mutable_bottom()
                  : side == 2 ? t.mutable_left()
                              : t.mutable_right();
    const int index = where.back() - '1';
    const uint32_t truth = clues->Get(index);
    clues->Set(index, truth == 5 ? 4 : truth + 1);
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    auto bits = compiler->Encode(spec, problem, Board(square));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), 1.0);
    auto report = compiler->Validate(spec, Board(square));
    ASSERT_OK(report);
    EXPECT_THAT(RulesOf(*report), ElementsAre("visible_count@" + where));
    // And the right clues score the ground energy.
    const CompiledProblem good = CompileOrDie(right, v1::REDUCTION_NONE);
    auto good_bits = compiler->Encode(right, good, Board(square));
    ASSERT_OK(good_bits);
    EXPECT_EQ(good.full_model.Energy(*good_bits), 0.0);
  }
}

TEST(TowersCompilerTest, GivensAreClampedAndAMismatchIsNamed) {
  const v1::PuzzleSpec spec = Parse(kGameId5);  // 1 given at (5,2)
  ASSERT_EQ(spec.towers().givens(21), 1u);
  auto compiler = NewTowersCompiler();
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  ASSERT_EQ(clues.stages.size(), 2u);
  EXPECT_EQ(clues.stages[1].name, "givens");
  EXPECT_EQ(clues.stages[1].fixed_one, 1);
  EXPECT_EQ(clues.stages[1].fixed_zero, 4);
  // The same square with heights 1 and 4 exchanged breaks the given.
  std::vector<int> other = Heights(kSolved5);
  for (int& h : other) h = h == 1 ? 4 : h == 4 ? 1 : h;
  auto bits = compiler->Encode(spec, clues, Board(other));
  ASSERT_OK(bits);
  EXPECT_FALSE(clues.variables.IsConsistent(*bits));
  auto report = compiler->Validate(spec, Board(other));
  ASSERT_OK(report);
  EXPECT_THAT(RulesOf(*report), Contains("given_mismatch@cell (5,2)"));
}

int Fixed(const CompiledProblem& p, int var) {
  const VariableMap::Source& s = p.variables.source(var);
  return s.reduced >= 0 ? -1 : s.value;
}

TEST(TowersCompilerTest, ReductionClampsWhatTheCluesForceStageByStage) {
  // Size 4: top clue 4 over column 1 (1, 2, 3, 4 downwards), top clue 1
  // over column 4 (4 first), left clue 3 on row 2.
  v1::PuzzleSpec spec;
  v1::TowersPuzzle& t = *spec.mutable_towers();
  t.set_size(4);
  for (uint32_t c : {4, 0, 0, 1}) t.add_top(c);
  for (uint32_t c : {0, 3, 0, 0}) t.add_left(c);
  const CompiledProblem p = CompileOrDie(spec, v1::REDUCTION_FULL);
  auto var = [](int r, int c, int h) { return (r * 4 + c) * 4 + h - 1; };
  ASSERT_EQ(p.stages.size(), 7u);
  EXPECT_EQ(p.stages[1].fixed_one + p.stages[1].fixed_zero, 0);  // givens
  EXPECT_EQ(p.stages[2].name, "clue_n");
  EXPECT_EQ(p.stages[2].fixed_one, 4);
  EXPECT_EQ(p.stages[2].fixed_zero, 12);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(Fixed(p, var(r, 0, r + 1)), 1);
  EXPECT_EQ(p.stages[3].name, "clue_1");
  EXPECT_EQ(p.stages[3].fixed_one, 1);
  EXPECT_EQ(Fixed(p, var(0, 3, 4)), 1);
  // Clue 3 on row 2: 4 is at least 2 cells in, so not at (2,2).
  EXPECT_EQ(p.stages[4].name, "clue_bounds");
  EXPECT_GE(p.stages[4].fixed_zero, 1);
  EXPECT_EQ(Fixed(p, var(1, 1, 4)), 0);
  // Latin: row 1 holds 1 and 4, so (1,2) is 2 or 3; 4 in column 4 is taken.
  EXPECT_EQ(p.stages[5].name, "latin");
  EXPECT_EQ(Fixed(p, var(0, 1, 1)), 0);
  EXPECT_EQ(Fixed(p, var(0, 1, 4)), 0);
  EXPECT_EQ(Fixed(p, var(2, 3, 4)), 0);
  // Chains: column 1's clue is met by clamped cells, so its chain is fixed
  // whole; column 4's chain holds "4 so far, hidden" from position 2 on.
  EXPECT_EQ(p.stages[6].name, "chains");
  const int first = 64;  // top of column 1
  for (int i = 0; i < TowersChainSize(4); ++i)
    EXPECT_GE(Fixed(p, first + i), 0) << i;
  EXPECT_EQ(Fixed(p, first + TowersChainState(4, 1, 2, true)), 1);
  EXPECT_EQ(Fixed(p, first + TowersChainState(4, 2, 3, true)), 1);
  const int col4 = first + TowersChainSize(4);
  EXPECT_EQ(Fixed(p, col4 + TowersChainState(4, 1, 4, false)), 1);
  EXPECT_EQ(Fixed(p, col4 + TowersChainState(4, 2, 4, false)), 1);
}

TEST(TowersCompilerTest, ContradictionsFoundByTheReductionAreRefused) {
  v1::PuzzleSpec spec;
  v1::TowersPuzzle& t = *spec.mutable_towers();
  t.set_size(4);
  for (uint32_t c : {4, 0, 0, 0}) t.add_top(c);
  for (int k = 0; k < 16; ++k) t.add_givens(k == 0 ? 2 : 0);
  EXPECT_THAT(NewTowersCompiler()->Compile(spec, v1::CompileOptions()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("contradict each other")));
  // Without the reduction the model is built; it has no ground state of 0.
  EXPECT_OK(NewTowersCompiler()->Compile(spec, [] {
    v1::CompileOptions o;
    o.set_reduction(v1::REDUCTION_NONE);
    return o;
  }()));
}

// Every Latin square of side n.
void LatinSquares(int n, std::vector<int>& square, int at,
                  std::vector<std::vector<int>>& out) {
  if (at == n * n) {
    out.push_back(square);
    return;
  }
  const int r = at / n, c = at % n;
  for (int h = 1; h <= n; ++h) {
    bool free = true;
    for (int k = 0; k < n && free; ++k) {
      if (k < c && square[r * n + k] == h) free = false;
      if (k < r && square[k * n + c] == h) free = false;
    }
    if (!free) continue;
    square[at] = h;
    LatinSquares(n, square, at + 1, out);
  }
}

bool MeetsClues(const v1::TowersPuzzle& t, const std::vector<int>& square) {
  const int n = static_cast<int>(t.size());
  for (int side = 0; side < 4; ++side) {
    const auto& clues = side == 0   ? t.top()
                        : side == 1 ? t.bottom()
                        : side == 2 ? t.left()
                                    : t.right();
    for (int i = 0; i < clues.size(); ++i) {
      if (clues[i] == 0) continue;
      std::vector<int> line;
      for (int cell : TowersLineCells(n, side, i)) line.push_back(square[cell]);
      if (TowersVisible(line) != static_cast<int>(clues[i])) return false;
    }
  }
  for (int k = 0; k < t.givens_size(); ++k) {
    if (t.givens(k) != 0 && static_cast<int>(t.givens(k)) != square[k])
      return false;
  }
  return true;
}

// The reduced model's ground states are exactly the valid boards, each with
// energy 0, on small puzzles with one or several solutions.
TEST(TowersCompilerTest, ExactGroundStatesAreTheValidBoards) {
  auto compiler = NewTowersCompiler();
  std::vector<std::vector<int>> squares4;
  std::vector<int> scratch(16, 0);
  LatinSquares(4, scratch, 0, squares4);
  ASSERT_EQ(squares4.size(), 576u);
  // Clues of the square 3241/2134/1423/4312 (`sgt-towers --generate 1 4de`)
  // left out until 1, 2, 3 and 4 boards meet them.
  for (const char* id : {"4://///2/4/3////////", "4://///2/4///3////1//3",
                         "4://1/2///4////2//2/1//3", "4://1////4/////1//1//"}) {
    SCOPED_TRACE(id);
    const v1::PuzzleSpec spec = Parse(id);
    const CompiledProblem p = CompileOrDie(spec, v1::REDUCTION_FULL);
    ASSERT_LE(p.model.num_variables(), 30);
    std::set<std::vector<int>> valid;
    for (const auto& square : squares4) {
      if (MeetsClues(spec.towers(), square)) valid.insert(square);
    }
    ASSERT_GE(valid.size(), 1u);
    auto ground = FindGroundStates(p.model, 1000, nullptr);
    ASSERT_OK(ground);
    EXPECT_EQ(ground->energy, 0.0);
    std::set<std::vector<int>> found;
    for (const auto& state : ground->states) {
      const v1::PuzzleSolution board =
          compiler->Decode(spec, p, p.variables.Expand(state));
      auto report = compiler->Validate(spec, board);
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid());
      found.insert(
          std::vector<int>(board.cells().begin(), board.cells().end()));
    }
    EXPECT_EQ(ground->count, static_cast<int64_t>(valid.size()));
    EXPECT_EQ(found, valid);
  }
}

TEST(TowersCompilerTest, RejectsBadInputNamingTheField) {
  auto compiler = NewTowersCompiler();
  const v1::PuzzleSpec good = Parse(kGameId5);
  auto expect_error = [&](v1::PuzzleSpec spec, const std::string& message) {
    EXPECT_THAT(
        compiler->Compile(spec, v1::CompileOptions()),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
    EXPECT_THAT(
        compiler->Validate(spec, Board(Heights(kSolved5))),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)));
  };
  v1::PuzzleSpec spec = good;
  spec.mutable_towers()->set_size(10);
  expect_error(spec, "towers.size: must be 3..9, got 10");
  spec = good;
  spec.mutable_towers()->add_top(1);
  expect_error(spec, "towers.top: expected 5 clues");
  spec = good;
  spec.mutable_towers()->set_left(2, 6);
  expect_error(spec, "towers.left[2]: clue 6 out of range 0..5");
  spec = good;
  spec.mutable_towers()->set_givens(3, 7);
  expect_error(spec, "towers.givens[3]: height 7 out of range");
  spec = good;
  spec.mutable_towers()->set_givens(20, 1);
  expect_error(spec, "towers.givens: height 1 given twice in row 5");
  v1::PuzzleSolution short_board;
  short_board.add_cells(1);
  EXPECT_THAT(compiler->Validate(good, short_board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells: expected 25")));
  EXPECT_THAT(compiler->Validate(good, Board(std::vector<int>(25, 6))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[0]: value 6 out of range")));
}

TEST(TowersCompilerTest, ValidatesBoardsGivenAsRows) {
  const v1::PuzzleSpec spec = Parse(kGameId5);
  v1::PuzzleSolution board;
  for (absl::string_view row : absl::StrSplit(kSolved5, '/'))
    board.add_rows(std::string(row));
  auto report = NewTowersCompiler()->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
  board.set_rows(0, "5241.");
  report = NewTowersCompiler()->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_THAT(RulesOf(*report), ElementsAre("empty_cell@cell (1,5)"));
}

TEST(TowersCompilerTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("towers");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kTowers);
  auto encoder = BuiltinEncoders().ForSpec(Parse(kGameId5));
  ASSERT_OK(encoder);
  EXPECT_EQ((*encoder)->kind(), "towers");
}

}  // namespace
}  // namespace qs
