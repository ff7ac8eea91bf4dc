// Exact model counting with BuDDy (Debian libbdd-dev): the constraints of a
// puzzle family built as one BDD over its primary variables, whose satisfying
// assignments are then counted without enumerating them. This is the method of
// [Bryant 2019] (Bryant builds the N-queens formula as a BDD),
// generalized from N-queens to any ConstraintSink input:
// - the BDD variable order is the primary order (row-major cells), and the
//   constraints are conjoined from the bottom of the board up, each piece when
//   the construction reaches its first variable, as the paper's recurrences run
//   "starting with r = N and working up";
// - an at-most-one line contributes, for each of its literals x_i, the piece
//   x_i -> (no later literal of the line holds), where the "no later literal"
//   BDD is the paper's chain (D_{r,c} = D_{r+1,c} & not S_{r,c}, and likewise
//   L and R along diagonals), extended by one AND per cell;
// - exactly-one adds the clause x_1 v ... v x_k to that; a cardinality
//   constraint is one counter BDD; clauses and word differences are built
//   directly.
// Use it where counting all solutions is the point and the board is small
// (N-queens up to about 13 on a plane or a torus, 4x4 Sudoku, small Takuzu);
// CaDiCaL (core/exact/sat_solver.h) is the tool for finding one solution or
// proving uniqueness on large boards, where a BDD would not fit.
//
// BuDDy keeps one global node table: every BddBuilder::Count holds a process-
// wide lock, so counts run one at a time. The table is created on first use
// and kept (BuDDy cannot be restarted in one process); it grows up to
// kMaxBddNodes nodes (20 bytes each), beyond which Count fails with
// RESOURCE_EXHAUSTED.
#ifndef QS_CORE_EXACT_BDD_COUNTER_H_
#define QS_CORE_EXACT_BDD_COUNTER_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/exact/circuit.h"
#include "core/exact/cnf.h"
#include "core/exact/constraint_sink.h"

namespace qs {

inline constexpr int kMaxBddNodes = 8 << 20;

struct BddCount {
  // Exact when below 2^53 (BuDDy counts in double precision).
  double count = 0;
  // The interrupter fired before the BDD was complete: no count.
  bool stopped = false;
  EncodingStats stats;
};

class BddBuilder final : public ConstraintSink {
 public:
  explicit BddBuilder(int num_primary);
  ~BddBuilder() override;

  using ConstraintSink::AddClause;
  void AddClause(std::span<const int> literals) override;
  void AddAtMostOne(std::span<const int> literals) override;
  void AddExactlyOne(std::span<const int> literals) override;
  void AddCardinality(std::span<const int> literals, int min, int max) override;
  void AddDifferent(std::span<const int> a, std::span<const int> b) override;
  // None: rules that need auxiliaries are counted by CaDiCaL enumeration.
  int NewAuxiliary() override { return 0; }

  // Builds the conjunction and counts its models over the primary variables.
  // RESOURCE_EXHAUSTED when the BDD outgrows kMaxBddNodes. When the
  // interrupter fires (checked between two conjunctions) the result has
  // stopped set and no count.
  absl::StatusOr<BddCount> Count(Interrupter* interrupter = nullptr) const;

 private:
  enum class PieceKind { kClause, kLineTail, kCardinality, kDifferent };
  // One conjunct, scheduled at its smallest variable.
  struct Piece {
    PieceKind kind = PieceKind::kClause;
    int key = 0;       // smallest primary variable (0-based) it mentions
    int line = -1;     // kLineTail: the line and the position in it
    int position = 0;  // kLineTail
    int min = 0, max = 0;
    std::vector<int> literals;  // sorted by variable for kCardinality
    std::vector<int> other;     // kDifferent: the second word
  };

  int num_primary_;
  std::vector<std::vector<int>> lines_;  // at-most-one lines, sorted by var
  std::vector<Piece> pieces_;
};

// Builds a circuit gate by gate as BDD operations (one per gate: the
// operation count of [Bryant 2019]'s Table 1) over the primary variables in
// their order, and counts the models of its asserted conjunction. Errors and
// interruption as BddBuilder::Count.
absl::StatusOr<BddCount> CountCircuit(const BoolCircuit& circuit,
                                      Interrupter* interrupter = nullptr);

}  // namespace qs

#endif  // QS_CORE_EXACT_BDD_COUNTER_H_
