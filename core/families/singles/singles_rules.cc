// The Singles (Hitori) rules for `sat` and Count (docs/singles.md §4), as
// clauses over the variables of the full QUBO (core/families/singles/
// singles.h: s_c, then each interior cell's root and pointer states):
// - duplicates: of two equal numbers in a line one is shaded, (s_a | s_b);
// - no two shaded cells share a side, (-s_a | -s_b);
// - connectivity as the QUBO states it: a shaded interior cell takes exactly
//   one state, an unshaded one none; a pointer's target is shaded at the level
//   the pointer says; two shaded cells in diagonal contact point one at the
//   other, exactly one way (the QUBO's zero-energy conditions, term by term);
// - beyond the QUBO, so that Count counts shadings: a floating tree (one that
//   does not reach the border) is rooted at its lowest cell index, which
//   makes the pointers and levels a function of the shading. Auxiliary
//   p(x, z) ("x points to z at some level") and r(x, a) ("x reaches root a")
//   are forced by implications; a cell below a that reaches a is refused.
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/singles/singles.h"

namespace qs {
namespace {

class SinglesEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "singles"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kSingles;
  }
  bool needs_auxiliary() const override { return true; }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const SinglesBoard b, CheckSinglesSpec(spec.singles()));
    const SinglesLayout layout = MakeSinglesLayout(b.rows, b.cols);
    auto lit = [](int var) { return var + 1; };
    if (options.clues) {
      for (const auto& [a, c] : SinglesDuplicatePairs(b))
        sink.AddClause({lit(a), lit(c)});
    }
    for (int a = 0; a < b.size(); ++a) {
      if (a % b.cols + 1 < b.cols) sink.AddClause({-lit(a), -lit(a + 1)});
      if (a + b.cols < b.size()) sink.AddClause({-lit(a), -lit(a + b.cols)});
    }
    for (int a = 0; a < b.size(); ++a) {
      if (b.Border(a)) continue;
      std::vector<int> one = {-lit(a)};
      for (const SinglesState& state : layout.states[a]) {
        one.push_back(lit(state.var));
        if (state.target < 0) continue;
        sink.AddClause({-lit(state.var), lit(state.target)});
        const int want = state.level - (state.target == a + b.cols + 1 ? 1 : 0);
        for (const SinglesState& w : layout.states[state.target]) {
          if (w.level != want) sink.AddClause({-lit(state.var), -lit(w.var)});
        }
      }
      sink.AddExactlyOne(one);
    }
    for (const auto& [a, c] : layout.DiagonalPairs()) {
      for (const SinglesState& v : layout.states[a]) {
        for (const SinglesState& w : layout.states[c]) {
          if ((v.target == c) == (w.target == a))
            sink.AddClause({-lit(v.var), -lit(w.var)});
        }
      }
    }
    if (!options.rules_beyond_qubo) return absl::OkStatus();
    return CanonicalRoots(b, layout, sink);
  }

 private:
  // Floating trees rooted at their lowest cell (see the file comment).
  static absl::Status CanonicalRoots(const SinglesBoard& b,
                                     const SinglesLayout& layout,
                                     ConstraintSink& sink) {
    auto lit = [](int var) { return var + 1; };
    auto fresh = [&]() -> absl::StatusOr<int> {
      const int v = sink.NewAuxiliary();
      if (v == 0) {
        return absl::UnimplementedError(
            "singles: the canonical roots need auxiliary variables, which "
            "this constraint sink does not have");
      }
      return v;
    };
    // p(x, z) for interior x pointing to interior z.
    absl::flat_hash_map<std::pair<int, int>, int> points;
    for (int x = 0; x < b.size(); ++x) {
      if (b.Border(x)) continue;
      for (const SinglesState& state : layout.states[x]) {
        if (state.target < 0 || b.Border(state.target)) continue;
        auto [it, inserted] = points.try_emplace({x, state.target}, 0);
        if (inserted) {
          ASSIGN_OR_RETURN(it->second, fresh());
        }
        sink.AddClause({-lit(state.var), it->second});
      }
    }
    for (int a = 0; a < b.size(); ++a) {
      if (b.Border(a)) continue;
      // r(z, a) for cells z >= a of a's diagonal class; cells below a that
      // would reach a are refused outright.
      absl::flat_hash_map<int, int> reach;
      for (int z = a; z < b.size(); ++z) {
        if (b.Border(z) ||
            (z / b.cols + z % b.cols) % 2 != (a / b.cols + a % b.cols) % 2)
          continue;
        ASSIGN_OR_RETURN(reach[z], fresh());
      }
      sink.AddClause({-lit(layout.states[a][0].var), reach[a]});
      for (const auto& [edge, p] : points) {
        const auto [x, z] = edge;
        auto to = reach.find(z);
        if (to == reach.end()) continue;
        auto from = reach.find(x);
        if (from == reach.end()) {
          sink.AddClause({-p, -to->second});
        } else {
          sink.AddClause({-p, -to->second, from->second});
        }
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewSinglesEncoder() {
  return std::make_unique<SinglesEncoder>();
}

}  // namespace qs
