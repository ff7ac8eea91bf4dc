// The binary ("BIN") encoding of queens puzzles ([Bryant 2019]) as a
// higher-order cost (CompileOptions.encoding = ENCODING_BINARY): every row
// holds exactly one queen, so a row is bits(M) = ceil(log2 M) variables giving
// the column of its queen instead of M one-hot cell variables (8-queens: 24
// variables instead of 64). Variable r * bits + i is bit i (least significant
// first) of row r's column code, labelled "b(r,i)" (r 1-based, i 0-based).
//
// The cost (docs/binary-encoding.md) is a sum of 0/1 penalties and squares,
// each a function of the codes of one row or of two rows, expanded exactly into
// Hubo terms by the Moebius transform of its truth table:
//   per row:   a code >= M or on a masked cell; a given queen's row not at its
//              column; a unit that must hold no queen;
//   per pair:  two queens that attack each other; two queens in one column,
//              colour region or extra region that holds at most one; for units
//              that hold exactly one, (1 - sum S)^2 = 1 - sum S + 2 sum_{pairs}
//              S_a S_b (S_a: "the queen of a's row stands on a", a product of
//              bits(M) literals; two cells of one row never hold together).
// Every term is a non-negative integer combination, so a board scores 0 exactly
// when it keeps every rule: the ground energy is 0. A row pair contributes at
// most 4^bits monomials, so the model has at most 1 + N (2^b - 1) +
// C(N, 2) (2^b - 1)^2 terms.
#ifndef QS_CORE_FAMILIES_QUEENS_QUEENS_BINARY_H_
#define QS_CORE_FAMILIES_QUEENS_QUEENS_BINARY_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "core/families/queens/queens.h"
#include "core/qubo/hubo.h"
#include "qs/v1/queens.pb.h"

namespace qs {

// bits(m) = ceil(log2 m): 0 for m = 1.
int QueensCodeBits(int m);

// OK when the binary encoding expresses these rules: every row holds exactly
// one queen, every other unit at most one. INVALID_ARGUMENT naming
// compile.encoding otherwise, with the reason.
absl::Status CheckBinaryRules(const QueensRules& rules);

// The higher-order cost over rules.rows * QueensCodeBits(rules.cols) variables
// (see above). RESOURCE_EXHAUSTED when its terms could exceed kMaxBinaryTerms.
inline constexpr int64_t kMaxBinaryTerms = int64_t{1} << 22;
absl::StatusOr<Hubo> QueensBinaryHubo(const QueensRules& rules);

// The whole problem: `higher_order` holds the cost, `model` is empty (no QUBO),
// `full_model` has the variables and labels but no terms, the variable map is
// the identity (no reduction), ground energy 0.
absl::StatusOr<CompiledProblem> CompileQueensBinary(
    const v1::QueensPuzzle& queens);

// Column of row r's queen in a binary assignment (may be >= cols: no cell).
int QueensBinaryColumn(std::span<const uint8_t> bits, int bits_per_row, int r);

// The one-hot cell assignment (rows * cols, row-major) of a binary one: row r's
// queen at its code's column, none when the code is off the board. The queens
// compiler decodes that like any one-hot sample.
std::vector<uint8_t> QueensBinaryToCells(std::span<const uint8_t> bits,
                                         int rows, int cols);

// The binary assignment of one-hot cells whose every row holds exactly one
// queen; INVALID_ARGUMENT naming the row otherwise.
absl::StatusOr<std::vector<uint8_t>> QueensCellsToBinary(
    std::span<const uint8_t> cells, int rows, int cols);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_QUEENS_QUEENS_BINARY_H_
