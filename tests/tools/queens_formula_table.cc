// Prints [Bryant 2019]'s Table 1 against what this project's encoders emit,
// for N-queens with N = 8..64: the Boolean operations (two-input gates) of the
// BIN and ONH formulas (core/families/queens/queens_formula.h) next to the
// paper's leading terms (8 + bits(N)) N^2 and 11 N^2, the CNF size of the BIN
// formula (one auxiliary variable and three clauses per gate), and the terms of
// the BIN higher-order cost (core/families/queens/queens_binary.h) where it is
// under the compile limit. One markdown table on stdout.
//
// Usage: queens_formula_table [N ...]   (default 8 10 12 16 20 24 32 48 64)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/families/queens/queens.h"
#include "core/families/queens/queens_binary.h"
#include "core/families/queens/queens_formula.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: queens_formula_table [N ...]\n"
    "Prints Bryant's Table 1 of the N-queens formulas against the operations\n"
    "and CNF sizes this project's BIN and ONH encoders emit, as one markdown\n"
    "table. Default sizes: 8 10 12 16 20 24 32 48 64.\n";

int Run(const std::vector<int>& sizes) {
  std::printf(
      "| N | bits | BIN paper | BIN ops | ONH paper | ONH ops | BIN CNF vars / "
      "clauses | BIN Hubo terms (order) |\n"
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (int n : sizes) {
    qs::v1::QueensPuzzle queens;
    queens.set_rows(n);
    auto rules = qs::QueensRulesOf(queens);
    if (!rules.ok()) return 1;
    auto bin = qs::BuildQueensFormula(*rules, true, true);
    auto onh = qs::BuildQueensFormula(*rules, false, true);
    if (!bin.ok() || !onh.ok()) return 1;
    const qs::Cnf cnf = bin->circuit.ToCnf();
    const long long k = qs::QueensCodeBits(n), nn = 1LL * n * n;
    auto hubo = qs::QueensBinaryHubo(*rules);
    char terms[64] = "over the limit";
    if (hubo.ok()) {
      std::snprintf(terms, sizeof(terms), "%zu (%d)", hubo->terms.size(),
                    hubo->max_order());
    }
    std::printf("| %d | %lld | %lld | %lld | %lld | %lld | %d / %lld | %s |\n",
                n, k, (8 + k) * nn, static_cast<long long>(bin->ops.total()),
                11 * nn, static_cast<long long>(onh->ops.total()),
                cnf.num_variables, static_cast<long long>(cnf.num_clauses),
                terms);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (qs::tools::PrintUsageIfAsked(argc, argv, kUsage)) return 0;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {8, 10, 12, 16, 20, 24, 32, 48, 64};
  return Run(sizes);
}
