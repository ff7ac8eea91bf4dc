// The reference instances of tests/data/instances and how each is made.
#include "tests/testing/reference_instances.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/families/builtin.h"
#include "core/qubo/qubo_proto.h"
#include "formats/puzzle_text.h"
#include "tests/testing/nyt_puzzle.h"

namespace qs::testing {
namespace {

// The 81 digits of a 9x9 grid as rows separated by '/'. The NYT solution is a
// valid grid, so also a ground state of the empty grid's model.
std::string SudokuRows(const std::string& digits) {
  std::string rows;
  for (int r = 0; r < 9; ++r) {
    if (r > 0) rows += '/';
    rows += digits.substr(9 * r, 9);
  }
  return rows;
}

std::string EmptyGrid(int side, char blank) {
  std::string rows;
  for (int r = 0; r < side; ++r) {
    if (r > 0) rows += '/';
    rows += std::string(side, blank);
  }
  return rows;
}

ReferenceInstance Puzzle(std::string name, std::string kind, std::string text,
                         v1::Reduction reduction, std::string solution) {
  ReferenceInstance instance;
  instance.name = std::move(name);
  instance.kind = std::move(kind);
  instance.text = std::move(text);
  instance.reduction = reduction;
  instance.solution = std::move(solution);
  return instance;
}

ReferenceInstance Random(std::string name, int variables, int couplers,
                         double density, uint64_t seed) {
  ReferenceInstance instance;
  instance.name = std::move(name);
  instance.variables = variables;
  instance.couplers = couplers;
  instance.density = density;
  instance.seed = seed;
  return instance;
}

// Uniform in [-1, 1], rounded to 6 decimals so that the text file holds the
// exact value; 0 is drawn again (a zero weight is no term).
double Weight(Xoshiro256& rng) {
  for (;;) {
    const double u = 2 * rng.NextDouble() - 1;
    const int64_t micro = std::llround(u * 1e6);
    if (micro != 0) return static_cast<double>(micro) / 1e6;
  }
}

void AddTerm(int i, int j, double w, v1::QuboModel& model) {
  model.add_i(i);
  model.add_j(j);
  model.add_w(w);
}

v1::QuboModel DrawRandom(const ReferenceInstance& instance) {
  const int n = instance.variables;
  Xoshiro256 rng(instance.seed);
  v1::QuboModel model;
  model.set_vartype(v1::BINARY);
  model.set_num_variables(n);
  for (int i = 0; i < n; ++i) AddTerm(i, i, Weight(rng), model);
  if (instance.couplers > 0) {
    // G(n, m): distinct pairs drawn uniformly, then written in (i, j) order.
    absl::flat_hash_set<int64_t> chosen;
    while (static_cast<int>(chosen.size()) < instance.couplers) {
      const int64_t a = static_cast<int64_t>(rng.NextBelow(n));
      const int64_t b = static_cast<int64_t>(rng.NextBelow(n));
      if (a != b) chosen.insert(std::min(a, b) * n + std::max(a, b));
    }
    std::vector<int64_t> pairs(chosen.begin(), chosen.end());
    std::sort(pairs.begin(), pairs.end());
    for (int64_t pair : pairs) {
      AddTerm(static_cast<int>(pair / n), static_cast<int>(pair % n),
              Weight(rng), model);
    }
  } else {
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (rng.NextDouble() < instance.density)
          AddTerm(i, j, Weight(rng), model);
      }
    }
  }
  return model;
}

absl::StatusOr<MadeInstance> CompilePuzzle(const ReferenceInstance& instance) {
  ASSIGN_OR_RETURN(const v1::PuzzleSpec spec,
                   formats::ParsePuzzleText(instance.kind, instance.text));
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   BuiltinCompilers().ForSpec(spec));
  v1::CompileOptions options;
  options.set_reduction(instance.reduction);
  ASSIGN_OR_RETURN(const CompiledProblem problem,
                   compiler->Compile(spec, options));
  MadeInstance made;
  made.model = QuboToProto(problem.model);
  made.ground_energy = problem.ground_energy;
  if (problem.variables.num_reduced() < problem.variables.num_full()) {
    for (int r = 0; r < problem.variables.num_reduced(); ++r)
      made.variable_map.push_back(problem.variables.representative(r));
  }
  return made;
}

}  // namespace

const std::vector<ReferenceInstance>& ReferenceInstances() {
  static const auto* instances = new std::vector<ReferenceInstance>{
      Puzzle("sudoku_full", "sudoku", std::string(81, '.'), v1::REDUCTION_NONE,
             SudokuRows(kNytSolution)),
      Puzzle("sudoku_nyt_I_II", "sudoku", kNytPuzzle, v1::REDUCTION_CLUES,
             SudokuRows(kNytSolution)),
      Puzzle("sudoku_nyt_I_IV", "sudoku", kNytPuzzle, v1::REDUCTION_FULL,
             SudokuRows(kNytSolution)),
      Puzzle("queens8", "nqueens", "8", v1::REDUCTION_NONE,
             "....Q.../.Q....../...Q..../......Q./..Q...../.......Q/"
             ".....Q../Q......."),
      // Rows 0-5 in the odd columns, rows 6-11 in the even ones (12 mod 6 =
      // 0, so this staircase is a solution).
      Puzzle("queens12", "nqueens", "12", v1::REDUCTION_NONE,
             ".Q........../...Q......../.....Q....../.......Q..../"
             ".........Q../...........Q/Q.........../..Q........./"
             "....Q......./......Q...../........Q.../..........Q."),
      Puzzle("takuzu6", "takuzu", EmptyGrid(6, '.'), v1::REDUCTION_NONE,
             "101010/011010/010101/101100/010011/100101"),
      Puzzle("takuzu10", "takuzu", EmptyGrid(10, '.'), v1::REDUCTION_NONE,
             "0101101001/1100100110/1011010010/0100101101/0010110011/"
             "1011010100/1101001001/0100110110/1011001100/0010011011"),
      Puzzle("takuzu14", "takuzu", EmptyGrid(14, '.'), v1::REDUCTION_NONE,
             "11011001001100/10101001101001/01010110110010/11010011010100/"
             "10101101001001/00110010101011/01011001010110/11001100101100/"
             "10100110101001/01010011010011/00101100110110/10011001001101/"
             "01100110010011/00100110110110"),
      Random("random_sparse2000", 2000, 10000, 0, 0x5157'0000'2000'0001ULL),
      Random("random_dense1000", 1000, 0, 0.2, 0x5157'0000'1000'0002ULL),
  };
  return *instances;
}

absl::StatusOr<MadeInstance> MakeInstance(const ReferenceInstance& instance) {
  if (!instance.kind.empty()) return CompilePuzzle(instance);
  MadeInstance made;
  made.model = DrawRandom(instance);
  return made;
}

std::string FormatVariableMap(const std::vector<int32_t>& variable_map) {
  std::string out = "# reduced variable index -> full-model variable index\n";
  for (size_t r = 0; r < variable_map.size(); ++r)
    absl::StrAppend(&out, r, " ", variable_map[r], "\n");
  return out;
}

}  // namespace qs::testing
