// The Keen rules (docs/keen.md §Exact rules) as Boolean constraints over the
// QUBO's variables, for `sat` and Count:
// - each cell holds exactly one digit, each digit is exactly once in every row
//   and every column (the Latin square);
// - a one-cell cage's digit is a unit clause;
// - a two-cell cage without selectors (+, -, /) forbids each digit pair that
//   misses its target with one binary clause;
// - a cage with selectors (x, two cells or more) takes exactly one of its
//   selector variables y_t, the QUBO's own, and y_t implies each cell's digit
//   of tuple t; the cells then hold exactly that tuple;
// - a + cage of three cells or more gets the same clauses over fresh
//   auxiliary selectors, one per tuple. The QUBO's selectors are fixed by the
//   cells on a valid board and the auxiliary ones are too (the tuple is the
//   cells' digits), so enumeration counts boards.
#include <memory>
#include <vector>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/keen/keen.h"

namespace qs {
namespace {

void EncodeLatin(const KeenShape& g, ConstraintSink& sink) {
  const int n = g.size;
  auto x = [&](int cell, int d) { return g.Var(cell, d) + 1; };
  std::vector<int> group;
  for (int cell = 0; cell < g.cells(); ++cell) {
    group.clear();
    for (int d = 1; d <= n; ++d) group.push_back(x(cell, d));
    sink.AddExactlyOne(group);
  }
  for (int line = 0; line < n; ++line) {
    for (int d = 1; d <= n; ++d) {
      group.clear();
      for (int k = 0; k < n; ++k) group.push_back(x(line * n + k, d));
      sink.AddExactlyOne(group);
      group.clear();
      for (int k = 0; k < n; ++k) group.push_back(x(k * n + line, d));
      sink.AddExactlyOne(group);
    }
  }
}

void EncodePair(const KeenShape& g, const KeenCageShape& cage,
                ConstraintSink& sink) {
  const int n = g.size;
  std::vector<uint8_t> allowed(n * n, 0);
  for (const auto& t : cage.tuples) allowed[(t[0] - 1) * n + t[1] - 1] = 1;
  for (int d = 1; d <= n; ++d) {
    for (int e = 1; e <= n; ++e) {
      if (allowed[(d - 1) * n + e - 1]) continue;
      sink.AddClause(
          {-(g.Var(cage.cells[0], d) + 1), -(g.Var(cage.cells[1], e) + 1)});
    }
  }
}

// Exactly one selector; each selector implies its tuple's digits.
void EncodeSelectors(const KeenShape& g, const KeenCageShape& cage,
                     const std::vector<int>& selectors, ConstraintSink& sink) {
  sink.AddExactlyOne(selectors);
  for (size_t t = 0; t < selectors.size(); ++t) {
    for (size_t i = 0; i < cage.cells.size(); ++i) {
      sink.AddClause(
          {-selectors[t], g.Var(cage.cells[i], cage.tuples[t][i]) + 1});
    }
  }
}

absl::Status EncodeCage(const KeenShape& g, const KeenCageShape& cage,
                        ConstraintSink& sink) {
  if (cage.cells.size() == 1) {
    sink.AddUnit(g.Var(cage.cells[0], cage.tuples[0][0]) + 1);
    return absl::OkStatus();
  }
  std::vector<int> selectors;
  if (KeenCageUsesSelectors(cage)) {
    for (size_t t = 0; t < cage.tuples.size(); ++t)
      selectors.push_back(cage.first_selector + static_cast<int>(t) + 1);
    EncodeSelectors(g, cage, selectors, sink);
    return absl::OkStatus();
  }
  if (cage.cells.size() == 2) {
    EncodePair(g, cage, sink);
    return absl::OkStatus();
  }
  for (size_t t = 0; t < cage.tuples.size(); ++t) {
    const int s = sink.NewAuxiliary();
    if (s == 0) {
      return absl::UnimplementedError(
          "keen: a + cage of three cells or more needs auxiliary selectors, "
          "which this constraint sink does not have");
    }
    selectors.push_back(s);
  }
  EncodeSelectors(g, cage, selectors, sink);
  return absl::OkStatus();
}

class KeenEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "keen"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kKeen;
  }
  bool needs_auxiliary() const override { return true; }

  // The cages are the puzzle's shape, not removable clues, so
  // options.clues does not drop them.
  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const KeenShape g, KeenShapeOf(spec.keen()));
    EncodeLatin(g, sink);
    for (const KeenCageShape& cage : g.cages)
      RETURN_IF_ERROR(EncodeCage(g, cage, sink));
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewKeenEncoder() {
  return std::make_unique<KeenEncoder>();
}

}  // namespace qs
