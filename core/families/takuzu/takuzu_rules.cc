// Takuzu / LinkedIn Tango rules ([Mata Ali & Mencia 2025] §2, [Mata Ali &
// Mencia 2024] §3 and its generalizations) as Boolean constraints over the
// QUBO's cell variables x_rc (index r * cols + c; 1 is a moon): no three equal
// values along a repetition triple (two clauses each), the ones of every row,
// column and count region (a sequential counter, [Bryant 2019]'s chain idea for
// counts),
// '=' and 'x' relations (two clauses each), the givens, and, as the one rule no
// QUBO term can express, pairwise different rows and columns.
#include <memory>
#include <vector>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/takuzu/takuzu.h"

namespace qs {
namespace {

class TakuzuEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "takuzu"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kTakuzu;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const TakuzuRules rules, TakuzuRulesOf(spec.takuzu()));
    auto x = [](int cell) { return cell + 1; };
    for (const std::array<int, 3>& t : rules.triples) {
      sink.AddClause({x(t[0]), x(t[1]), x(t[2])});
      sink.AddClause({-x(t[0]), -x(t[1]), -x(t[2])});
    }
    std::vector<int> literals;
    for (const TakuzuRules::Count& count : rules.counts) {
      literals.clear();
      for (int cell : count.cells) literals.push_back(x(cell));
      sink.AddCardinality(literals, count.ones, count.ones);
    }
    for (const TakuzuRules::Relation& r : rules.relations) {
      if (r.sign && !options.clues) continue;
      const int a = x(r.a), b = r.different ? -x(r.b) : x(r.b);
      sink.AddClause({-a, b});
      sink.AddClause({a, -b});
    }
    if (options.clues) {
      for (int cell = 0; cell < static_cast<int>(rules.givens.size()); ++cell) {
        if (rules.givens[cell] >= 0)
          sink.AddUnit(rules.givens[cell] == 1 ? x(cell) : -x(cell));
      }
    }
    if (rules.unique_lines && options.rules_beyond_qubo) {
      auto line = [&](bool is_row, int index) {
        std::vector<int> out;
        const int length = is_row ? rules.cols : rules.rows;
        for (int k = 0; k < length; ++k) {
          out.push_back(
              x(is_row ? index * rules.cols + k : k * rules.cols + index));
        }
        return out;
      };
      for (const bool is_row : {true, false}) {
        const int lines = is_row ? rules.rows : rules.cols;
        for (int i = 0; i < lines; ++i) {
          for (int j = i + 1; j < lines; ++j)
            sink.AddDifferent(line(is_row, i), line(is_row, j));
        }
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewTakuzuEncoder() {
  return std::make_unique<TakuzuEncoder>();
}

}  // namespace qs
