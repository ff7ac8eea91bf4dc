// The model family's rules for the exact engines: every constraint of the
// model as a pseudo-Boolean constraint over its bits, in CNF, so that `sat`
// finds a feasible assignment or proves that there is none (docs/model.md,
// "Exact paths").
//
// Products of bits become auxiliary literals z <-> x_1 ... x_k. A linear
// constraint sum a_k l_k <= b with integer coefficients (scaled from decimals
// where they allow it) is made positive by negating the literals of negative
// coefficients, then encoded as the decision diagram of "the rest of the sum
// fits what is left of b", one auxiliary literal per node, with the one-way
// clauses that asserting the root needs [Een and Sorensson 2006, "Translating
// Pseudo-Boolean Constraints into SAT"]; unit coefficients go to the sink's
// cardinality encoding instead. Groups are the sink's exactly-one and
// at-most-one; an integer's domain wall is a chain of implications.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/model/model.h"

namespace qs {
namespace {

// Nodes of one constraint's diagram past which the encoding gives up.
constexpr int kMaxDiagramNodes = 1 << 18;
// ... and of all of a model's diagrams together.
constexpr int64_t kMaxTotalDiagramNodes = int64_t{1} << 20;
// Objective terms past which sat does not bound the objective: the products'
// literals and the diagram over them made formulas on which CaDiCaL's memory
// grew past 20 GB within two minutes (a 2,075-variable QPLIB model with
// 100,000 products).
constexpr size_t kMaxObjectiveBoundTerms = 20000;

constexpr int kTrue = 0;
constexpr int kFalse = -1;  // never a literal: literals are non-zero ints

class PbEncoder {
 public:
  explicit PbEncoder(ConstraintSink& sink) : sink_(sink) {}

  // The literal of the product of `bits` (0-based), made once.
  absl::StatusOr<int> ProductLiteral(std::span<const int32_t> bits) {
    if (bits.size() == 1) return bits[0] + 1;
    std::vector<int32_t> key(bits.begin(), bits.end());
    auto it = products_.find(key);
    if (it != products_.end()) return it->second;
    const int z = sink_.NewAuxiliary();
    if (z == 0) return absl::UnimplementedError("products need auxiliaries");
    std::vector<int> clause = {z};
    for (int32_t b : bits) {
      sink_.AddClause({-z, b + 1});
      clause.push_back(-(b + 1));
    }
    sink_.AddClause(clause);
    products_.emplace(std::move(key), z);
    return z;
  }

  // Bit `bit` (0-based) is the product of `factors`.
  absl::Status Define(int32_t bit, std::span<const int32_t> factors) {
    std::vector<int> clause = {bit + 1};
    for (int32_t f : factors) {
      sink_.AddClause({-(bit + 1), f + 1});
      clause.push_back(-(f + 1));
    }
    sink_.AddClause(clause);
    return absl::OkStatus();
  }

  // sum a_k l_k < b over literals, for coefficients that a power of ten
  // makes integers (the next integer below b, scaled).
  absl::Status StrictlyBelow(std::vector<std::pair<int, double>> terms,
                             double bound, const std::string& name) {
    for (double scale = 1; scale <= 1e6; scale *= 10) {
      bool integer = true;
      for (const auto& [lit, a] : terms)
        integer = integer && std::abs(a * scale - std::round(a * scale)) < 1e-9;
      if (!integer) continue;
      const double below = std::ceil(bound * scale - 1e-6) - 1;
      return AtMost(std::move(terms), below / scale, name);
    }
    return absl::UnimplementedError(absl::StrCat(
        name, ": coefficients that no power of ten up to 10^6 makes integers"));
  }

  // sum a_k l_k <= b over literals.
  absl::Status AtMost(std::vector<std::pair<int, double>> terms, double bound,
                      const std::string& name) {
    std::vector<std::pair<int64_t, int>> positive;  // (coefficient, literal)
    double scale = 1;
    for (; scale <= 1e6; scale *= 10) {
      bool integer = std::abs(bound * scale - std::round(bound * scale)) < 1e-9;
      for (const auto& [lit, a] : terms)
        integer = integer && std::abs(a * scale - std::round(a * scale)) < 1e-9;
      if (integer) break;
    }
    if (scale > 1e6) {
      return absl::UnimplementedError(absl::StrCat(
          "constraint ", name,
          ": coefficients that no power of ten up to 10^6 makes integers"));
    }
    int64_t b = static_cast<int64_t>(std::llround(bound * scale));
    for (const auto& [lit, a] : terms) {
      const int64_t c = std::llround(a * scale);
      if (c == 0) continue;
      if (c > 0) {
        positive.emplace_back(c, lit);
      } else {
        positive.emplace_back(-c, -lit);  // c x = c - c (not x)
        b -= c;
      }
    }
    if (b < 0) {
      sink_.AddClause(std::span<const int>());
      return absl::OkStatus();
    }
    bool unit = true;
    int64_t total = 0;
    for (const auto& [c, lit] : positive) {
      unit = unit && c == 1;
      total += c;
    }
    if (total <= b) return absl::OkStatus();
    if (unit) {
      std::vector<int> lits;
      for (const auto& [c, lit] : positive) lits.push_back(lit);
      sink_.AddCardinality(lits, 0, static_cast<int>(b));
      return absl::OkStatus();
    }
    std::sort(positive.begin(), positive.end(),
              [](const auto& x, const auto& y) { return x.first > y.first; });
    terms_ = std::move(positive);
    suffix_.assign(terms_.size() + 1, 0);
    for (size_t i = terms_.size(); i-- > 0;)
      suffix_[i] = suffix_[i + 1] + terms_[i].first;
    memo_.clear();
    ASSIGN_OR_RETURN(const int root, Node(0, b, name));
    if (root == kFalse) sink_.AddClause(std::span<const int>());
    if (root != kTrue && root != kFalse) sink_.AddUnit(root);
    return absl::OkStatus();
  }

 private:
  // "terms_[i..] sum to at most k" when it is decided without a node
  // (kTrue, kFalse) or made already; none otherwise.
  std::optional<int> Known(size_t i, int64_t k) const {
    if (k < 0) return kFalse;
    if (suffix_[i] <= k) return kTrue;
    auto it = memo_.find({i, k});
    if (it == memo_.end()) return std::nullopt;
    return it->second;
  }

  // The literal (or kTrue / kFalse) of "terms_[i..] sum to at most k", made
  // bottom-up with an explicit stack: a diagram is as deep as the constraint
  // has terms (a TSP objective has n^3), past any thread's stack.
  absl::StatusOr<int> Node(size_t root_i, int64_t root_k,
                           const std::string& name) {
    std::vector<std::pair<size_t, int64_t>> stack = {{root_i, root_k}};
    while (!stack.empty()) {
      const auto [i, k] = stack.back();
      if (Known(i, k)) {
        stack.pop_back();
        continue;
      }
      const auto [a, lit] = terms_[i];
      const std::optional<int> high = Known(i + 1, k - a);
      if (!high) {
        stack.emplace_back(i + 1, k - a);
        continue;
      }
      const std::optional<int> low = Known(i + 1, k);
      if (!low) {
        stack.emplace_back(i + 1, k);
        continue;
      }
      if (memo_.size() >= kMaxDiagramNodes ||
          total_nodes_ >= kMaxTotalDiagramNodes) {
        return absl::UnimplementedError(absl::StrCat(
            "constraint ", name, ": the decision diagrams pass ",
            memo_.size() >= kMaxDiagramNodes ? kMaxDiagramNodes
                                             : kMaxTotalDiagramNodes,
            " nodes"));
      }
      ++total_nodes_;
      const int n = sink_.NewAuxiliary();
      if (n == 0)
        return absl::UnimplementedError("the diagram needs auxiliaries");
      // n -> (lit -> high) and n -> low.
      if (*high == kFalse) {
        sink_.AddClause({-n, -lit});
      } else if (*high != kTrue) {
        sink_.AddClause({-n, -lit, *high});
      }
      if (*low == kFalse) {
        sink_.AddClause({-n});
      } else if (*low != kTrue) {
        sink_.AddClause({-n, *low});
      }
      memo_.emplace(std::make_pair(i, k), n);
      stack.pop_back();
    }
    return *Known(root_i, root_k);
  }

  ConstraintSink& sink_;
  std::map<std::vector<int32_t>, int> products_;
  std::vector<std::pair<int64_t, int>> terms_;
  std::vector<int64_t> suffix_;
  std::map<std::pair<size_t, int64_t>, int> memo_;
  int64_t total_nodes_ = 0;
};

// (literal, coefficient): a polynomial's terms, products as their literals.
using Term = std::pair<int, double>;

absl::StatusOr<std::vector<Term>> Literals(const BinaryPolynomial& p,
                                           PbEncoder& encoder) {
  std::vector<Term> terms;
  absl::Status status;
  p.ForEachTerm([&](std::span<const int32_t> bits, double a) {
    if (!status.ok()) return;
    absl::StatusOr<int> lit = encoder.ProductLiteral(bits);
    if (!lit.ok()) {
      status = lit.status();
      return;
    }
    terms.emplace_back(*lit, a);
  });
  RETURN_IF_ERROR(status);
  return terms;
}

absl::Status EncodeConstraint(const PenaltyConstraint& c, PbEncoder& encoder) {
  ASSIGN_OR_RETURN(std::vector<Term> terms, Literals(c.lhs, encoder));
  const double rhs = c.rhs - c.lhs.constant();
  if (c.sense != v1::CONSTRAINT_GREATER_EQUAL)
    RETURN_IF_ERROR(encoder.AtMost(terms, rhs, c.name));
  if (c.sense != v1::CONSTRAINT_LESS_EQUAL) {
    for (auto& term : terms) term.second = -term.second;
    RETURN_IF_ERROR(encoder.AtMost(std::move(terms), -rhs, c.name));
  }
  return absl::OkStatus();
}

// The objective (minimised sense, over the bits) strictly below `bound`.
// Unbalanced inequalities are refused: a board's energy is then not its
// objective, and the race that takes sat's last board as the optimum compares
// energies.
absl::Status EncodeObjectiveBelow(const v1::ConstrainedModel& model,
                                  const BinaryPolynomial& objective,
                                  double bound, PbEncoder& encoder) {
  if (model.inequality() == v1::INEQUALITY_UNBALANCED)
    return absl::UnimplementedError(
        "objective bounds under unbalanced inequalities");
  if (objective.low().size() + objective.high().size() >
      kMaxObjectiveBoundTerms) {
    return absl::UnimplementedError(absl::StrCat(
        "objective bounds over more than ", kMaxObjectiveBoundTerms, " terms"));
  }
  ASSIGN_OR_RETURN(std::vector<Term> terms, Literals(objective, encoder));
  return encoder.StrictlyBelow(std::move(terms), bound - objective.constant(),
                               "objective");
}

// Binary-weighted bits whose top weight c is capped (1, 2, ..., c) write a
// value from c up two ways; the canonical one sets the top bit (as
// CompletePenaltyBits does): the lower bits reach c only with it,
//   sum_lower w_j b_j - M top <= c - 1,  M = sum_lower w_j - (c - 1),
// so that each value has one pattern and the boards are counted once. Bits
// of equal weights (a domain wall) have no such pattern to choose.
absl::Status EncodeCanonical(std::span<const int32_t> bits,
                             std::span<const int64_t> weights,
                             const std::string& name, PbEncoder& encoder) {
  if (bits.size() < 2) return absl::OkStatus();
  const int64_t top = weights.back();
  int64_t lower = 0;
  for (size_t k = 0; k + 1 < weights.size(); ++k) lower += weights[k];
  if (weights[0] == weights.back() || lower <= top - 1) return absl::OkStatus();
  std::vector<std::pair<int, double>> terms;
  for (size_t k = 0; k + 1 < bits.size(); ++k)
    terms.emplace_back(bits[k] + 1, static_cast<double>(weights[k]));
  terms.emplace_back(bits.back() + 1, -static_cast<double>(lower - (top - 1)));
  return encoder.AtMost(std::move(terms), static_cast<double>(top - 1),
                        absl::StrCat(name, " (canonical bits)"));
}

class ModelRulesEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "model"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kModel;
  }
  bool needs_auxiliary() const override { return true; }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const v1::ConstrainedModel model,
                     ResolveModel(spec.model()));
    const ModelPenalties penalties = PenaltiesOf(model);
    ASSIGN_OR_RETURN(const PenaltyQubo qubo,
                     CompilePenalties(penalties.input, penalties.options));
    PbEncoder encoder(sink);
    // The QUBO's own bits follow the model's: auxiliaries as their products
    // and slack bits as what the constraint leaves, so that a board's energy
    // is its objective.
    for (const AuxiliaryBit& aux : qubo.auxiliaries)
      RETURN_IF_ERROR(encoder.Define(aux.bit, aux.factors));
    std::vector<bool> slacked(penalties.input.constraints.size(), false);
    for (const SlackBits& slack : qubo.slacks) {
      slacked[slack.constraint] = true;
      RETURN_IF_ERROR(EncodeCanonical(
          slack.bits, slack.weights,
          penalties.input.constraints[slack.constraint].name + " (slack)",
          encoder));
      PenaltyConstraint equality;
      equality.name = penalties.input.constraints[slack.constraint].name;
      equality.lhs = slack.linear_side;
      for (size_t k = 0; k < slack.bits.size(); ++k)
        equality.lhs.AddLinear(slack.bits[k],
                               static_cast<double>(slack.weights[k]));
      equality.rhs = slack.rhs;
      RETURN_IF_ERROR(EncodeConstraint(equality, encoder));
    }
    for (int v = 0; v < model.variables_size(); ++v) {
      const VariableBits& vb = penalties.layout.variables[v];
      if (model.variables(v).type() != v1::MODEL_VARIABLE_INTEGER ||
          IntegerEncodingOf(model, model.variables(v)) !=
              v1::INTEGER_ENCODING_BINARY)
        continue;
      std::vector<int32_t> bits;
      for (size_t k = 0; k < vb.weights.size(); ++k)
        bits.push_back(vb.first + static_cast<int32_t>(k));
      RETURN_IF_ERROR(EncodeCanonical(bits, vb.weights,
                                      model.variables(v).name(), encoder));
    }
    for (size_t k = 0; k < penalties.input.constraints.size(); ++k) {
      if (!slacked[k])
        RETURN_IF_ERROR(
            EncodeConstraint(penalties.input.constraints[k], encoder));
    }
    for (const PenaltyGroup& g : penalties.input.groups) {
      std::vector<int> lits;
      for (int32_t bit : g.bits) lits.push_back(bit + 1);
      if (g.at_most_one) {
        sink.AddAtMostOne(lits);
      } else {
        sink.AddExactlyOne(lits);
      }
    }
    if (options.objective_below.has_value())
      RETURN_IF_ERROR(EncodeObjectiveBelow(model, penalties.input.objective,
                                           *options.objective_below, encoder));
    // Penalty terms are domain walls: b_{k+1} (1 - b_k), so b_{k+1} -> b_k.
    for (const PenaltyTerms& t : penalties.input.penalty_terms) {
      for (const auto& [key, c] : t.terms.low()) {
        const int32_t i = BinaryPolynomial::First(key);
        const int32_t j = BinaryPolynomial::Second(key);
        if (i != j) sink.AddClause({-(j + 1), i + 1});
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewModelRulesEncoder() {
  return std::make_unique<ModelRulesEncoder>();
}

}  // namespace qs
