// The binary encoding of queens puzzles as a Hubo (queens_binary.h).
#include "core/families/queens/queens_binary.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

// The penalty tables of the cost before expansion: per row a function of its
// code, per row pair (a < b) a function of both codes (index code_a + code_b
// << bits), plus a constant.
struct Tables {
  int rows = 0;
  int bits = 0;
  double constant = 0;
  std::vector<std::vector<double>> row;
  std::vector<std::vector<double>> pair;  // a * rows + b, allocated on use

  std::vector<double>& Pair(int a, int b) {
    std::vector<double>& t = pair[static_cast<size_t>(a) * rows + b];
    if (t.empty()) t.assign(size_t{1} << (2 * bits), 0.0);
    return t;
  }
};

// Adds w to the pair table where cells x and y (different rows) both hold.
void AddCellPair(int x, int y, double w, int cols, Tables& t) {
  if (x / cols > y / cols) std::swap(x, y);
  t.Pair(x / cols, y / cols)[(x % cols) | ((y % cols) << t.bits)] += w;
}

// Row codes off the board, givens, and the count units of rows >= rules.rows
// (columns, colour and extra regions: at most one queen, checked before).
void AddUnits(const QueensRules& rules, Tables& t) {
  const int cols = rules.cols;
  for (int r = 0; r < rules.rows; ++r) {
    for (int code = 0; code < (1 << t.bits); ++code) {
      if (code >= cols || rules.masked[r * cols + code]) t.row[r][code] += 1;
    }
  }
  for (int g : rules.givens) {
    for (int code = 0; code < (1 << t.bits); ++code) {
      if (code != g % cols) t.row[g / cols][code] += 1;
    }
  }
  for (size_t u = rules.rows; u < rules.counts.size(); ++u) {
    const QueensRules::Count& count = rules.counts[u];
    if (count.max == 0) {
      for (int cell : count.cells) t.row[cell / cols][cell % cols] += 1;
      continue;
    }
    // Exactly one: (1 - sum S)^2 = 1 - sum S + 2 sum_{pairs} S S.
    const bool exact = count.min == 1;
    if (exact) {
      t.constant += 1;
      for (int cell : count.cells) t.row[cell / cols][cell % cols] -= 1;
    }
    for (size_t i = 0; i < count.cells.size(); ++i) {
      for (size_t j = i + 1; j < count.cells.size(); ++j) {
        const int x = count.cells[i], y = count.cells[j];
        if (x / cols != y / cols) AddCellPair(x, y, exact ? 2 : 1, cols, t);
      }
    }
  }
}

// Every attacking pair of cells in different rows once, whichever side
// reaches the other.
void AddAttacks(const QueensRules& rules, Tables& t) {
  const int cols = rules.cols;
  for (int a = 0; a < rules.rows * cols; ++a) {
    if (rules.masked[a]) continue;
    for (int b : rules.attacks[a]) {
      const bool mutual = std::binary_search(rules.attacks[b].begin(),
                                             rules.attacks[b].end(), a);
      if ((b < a && mutual) || rules.masked[b] || a / cols == b / cols)
        continue;
      AddCellPair(a, b, 1, cols, t);
    }
  }
}

// Coefficients of the multilinear polynomial equal to `table` on {0,1}^m
// (inverse zeta transform over subsets): entry `mask` becomes the weight of the
// product of the variables in mask.
void Moebius(std::vector<double>& table) {
  for (size_t bit = 1; bit < table.size(); bit <<= 1) {
    for (size_t mask = 0; mask < table.size(); ++mask) {
      if (mask & bit) table[mask] -= table[mask ^ bit];
    }
  }
}

std::vector<int32_t> RowVariables(int row, uint32_t mask, int bits) {
  std::vector<int32_t> vars;
  for (int i = 0; i < bits; ++i) {
    if (mask >> i & 1) vars.push_back(row * bits + i);
  }
  return vars;
}

// Expands the tables into terms: a pair's monomials over one row only merge
// into that row's, the rest are the pair's own.
Hubo Expand(Tables& t) {
  const int k = t.bits;
  const uint32_t row_mask = (1u << k) - 1;
  Hubo hubo;
  hubo.num_variables = t.rows * k;
  hubo.offset = t.constant;
  for (std::vector<double>& row : t.row) Moebius(row);
  for (int a = 0; a < t.rows; ++a) {
    for (int b = a + 1; b < t.rows; ++b) {
      std::vector<double>& table = t.pair[static_cast<size_t>(a) * t.rows + b];
      if (table.empty()) continue;
      Moebius(table);
      for (uint32_t mask = 0; mask < table.size(); ++mask) {
        const uint32_t low = mask & row_mask, high = mask >> k;
        if (low == 0) {
          t.row[b][high] += table[mask];  // mask 0 lands in row b's constant
        } else if (high == 0) {
          t.row[a][low] += table[mask];
        } else if (table[mask] != 0) {
          std::vector<int32_t> vars = RowVariables(a, low, k);
          for (int32_t v : RowVariables(b, high, k)) vars.push_back(v);
          hubo.terms.push_back({std::move(vars), table[mask]});
        }
      }
      std::vector<double>().swap(table);
    }
  }
  std::vector<HuboTerm> row_terms;
  for (int r = 0; r < t.rows; ++r) {
    hubo.offset += t.row[r][0];
    for (uint32_t mask = 1; mask <= row_mask; ++mask) {
      if (t.row[r][mask] != 0)
        row_terms.push_back({RowVariables(r, mask, k), t.row[r][mask]});
    }
  }
  hubo.terms.insert(hubo.terms.begin(), row_terms.begin(), row_terms.end());
  return hubo;
}

}  // namespace

int QueensCodeBits(int m) {
  int bits = 0;
  while ((int64_t{1} << bits) < m) ++bits;
  return bits;
}

absl::Status CheckBinaryRules(const QueensRules& rules) {
  for (int r = 0; r < rules.rows; ++r) {
    const QueensRules::Count& row = rules.counts[r];
    if (row.min != 1 || row.max != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compile.encoding: the binary encoding gives every row exactly one "
          "queen (the bits of a row are its queen's column), but row ",
          r + 1, " holds ", row.min, row.min == row.max ? "" : " to ",
          row.min == row.max ? "" : absl::StrCat(row.max), " queens"));
    }
  }
  for (size_t u = rules.rows; u < rules.counts.size(); ++u) {
    if (rules.counts[u].max <= 1) continue;
    const int column = static_cast<int>(u) - rules.rows;
    return absl::InvalidArgumentError(absl::StrCat(
        "compile.encoding: the binary encoding states units of at most one "
        "queen, but ",
        column < rules.cols ? absl::StrCat("column ", column + 1)
                            : std::string("a region"),
        " may hold ", rules.counts[u].max, " (use the one-hot encoding)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Hubo> QueensBinaryHubo(const QueensRules& rules) {
  RETURN_IF_ERROR(CheckBinaryRules(rules));
  const int k = QueensCodeBits(rules.cols);
  const int64_t n = rules.rows, per_row = (int64_t{1} << k) - 1;
  const int64_t bound = 1 + n * per_row + n * (n - 1) / 2 * per_row * per_row;
  if (bound > kMaxBinaryTerms) {
    return absl::ResourceExhaustedError(
        absl::StrCat("compile.encoding: the binary encoding of a ", rules.rows,
                     "x", rules.cols, " board may need ", bound,
                     " terms, over the limit of ", kMaxBinaryTerms));
  }
  Tables t;
  t.rows = rules.rows;
  t.bits = k;
  t.row.assign(rules.rows, std::vector<double>(size_t{1} << k, 0.0));
  t.pair.resize(static_cast<size_t>(rules.rows) * rules.rows);
  AddUnits(rules, t);
  AddAttacks(rules, t);
  return Expand(t);
}

absl::StatusOr<CompiledProblem> CompileQueensBinary(
    const v1::QueensPuzzle& queens) {
  ASSIGN_OR_RETURN(const QueensRules rules, QueensRulesOf(queens));
  ASSIGN_OR_RETURN(Hubo hubo, QueensBinaryHubo(rules));
  const int k = QueensCodeBits(rules.cols);
  const int n = hubo.num_variables;
  QuboBuilder variables(n);
  for (int r = 0; r < rules.rows; ++r) {
    for (int i = 0; i < k; ++i)
      variables.SetLabel(r * k + i, absl::StrCat("b(", r + 1, ",", i, ")"));
  }
  CompiledProblem problem;
  problem.kind = "queens";
  problem.height = rules.rows;
  problem.width = rules.cols;
  ASSIGN_OR_RETURN(problem.full_model, std::move(variables).Build());
  problem.variables = VariableMap::Identity(n);
  problem.ground_energy = 0.0;
  problem.stages.push_back({"model", n, 0, 0});
  problem.higher_order = std::move(hubo);
  return problem;
}

int QueensBinaryColumn(std::span<const uint8_t> bits, int bits_per_row, int r) {
  int code = 0;
  for (int i = 0; i < bits_per_row; ++i) {
    const size_t v = static_cast<size_t>(r) * bits_per_row + i;
    if (v < bits.size() && bits[v] != 0) code |= 1 << i;
  }
  return code;
}

std::vector<uint8_t> QueensBinaryToCells(std::span<const uint8_t> bits,
                                         int rows, int cols) {
  const int k = QueensCodeBits(cols);
  std::vector<uint8_t> cells(static_cast<size_t>(rows) * cols, 0);
  for (int r = 0; r < rows; ++r) {
    const int c = QueensBinaryColumn(bits, k, r);
    if (c < cols) cells[static_cast<size_t>(r) * cols + c] = 1;
  }
  return cells;
}

absl::StatusOr<std::vector<uint8_t>> QueensCellsToBinary(
    std::span<const uint8_t> cells, int rows, int cols) {
  const int k = QueensCodeBits(cols);
  std::vector<uint8_t> bits(static_cast<size_t>(rows) * k, 0);
  for (int r = 0; r < rows; ++r) {
    int column = -1, queens = 0;
    for (int c = 0; c < cols; ++c) {
      if (cells[static_cast<size_t>(r) * cols + c] == 0) continue;
      column = c;
      ++queens;
    }
    if (queens != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "solution: row ", r + 1, " holds ", queens,
          " queens; the binary encoding holds exactly one per row"));
    }
    for (int i = 0; i < k; ++i) bits[r * k + i] = (column >> i) & 1;
  }
  return bits;
}

}  // namespace qs
