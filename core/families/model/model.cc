// The model family's checks, bit layout, decoding and scoring (model.h).
#include "core/families/model/model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/base/status_macros.h"
#include "formats/model_text.h"
#include "formats/model_text_internal.h"

namespace qs {
namespace {

absl::Status FieldError(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("model.", field, ": ", what));
}

absl::Status CheckPolynomial(const v1::ModelPolynomial& p,
                             const std::string& field, int num_variables) {
  if (!std::isfinite(p.constant()))
    return FieldError(field + ".constant", "not finite");
  for (int t = 0; t < p.terms_size(); ++t) {
    const v1::ModelTerm& term = p.terms(t);
    const std::string at = absl::StrCat(field, ".terms[", t, "]");
    if (!std::isfinite(term.coefficient()))
      return FieldError(at + ".coefficient", "not finite");
    for (int k = 0; k < term.variables_size(); ++k) {
      if (term.variables(k) >= static_cast<uint32_t>(num_variables)) {
        return FieldError(absl::StrCat(at, ".variables[", k, "]"),
                          absl::StrCat(term.variables(k), " is not below ",
                                       num_variables, " variables"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckVariables(const v1::ConstrainedModel& model) {
  if (model.variables_size() == 0)
    return FieldError("variables", "the model has no variables");
  absl::flat_hash_map<std::string, int> seen;
  for (int v = 0; v < model.variables_size(); ++v) {
    const v1::ModelVariable& var = model.variables(v);
    const std::string at = absl::StrCat("variables[", v, "]");
    if (var.name().empty()) return FieldError(at + ".name", "empty");
    auto [it, inserted] = seen.emplace(var.name(), v);
    if (!inserted) {
      return FieldError(at + ".name",
                        absl::StrCat("'", var.name(), "' is also variables[",
                                     it->second, "]"));
    }
    if (var.type() != v1::MODEL_VARIABLE_INTEGER) continue;
    // Values travel as int32 (PuzzleSolution.cells).
    constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    if (var.lower() < kMin || var.upper() > kMax) {
      return FieldError(
          at, absl::StrCat("the bounds [", var.lower(), ", ", var.upper(),
                           "] pass the 32-bit "
                           "integers"));
    }
    if (var.lower() > var.upper()) {
      return FieldError(
          at, absl::StrCat("lower ", var.lower(), " > upper ", var.upper()));
    }
    if (var.upper() - var.lower() > kMaxIntegerRange) {
      return FieldError(at, absl::StrCat("the range [", var.lower(), ", ",
                                         var.upper(), "] has more than ",
                                         kMaxIntegerRange + 1, " values"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckConstraints(const v1::ConstrainedModel& model) {
  const int n = model.variables_size();
  absl::flat_hash_map<std::string, std::string> names;
  auto check_name = [&](const std::string& name,
                        const std::string& at) -> absl::Status {
    if (name.empty()) return FieldError(at + ".name", "empty");
    auto [it, inserted] = names.emplace(name, at);
    if (!inserted) {
      return FieldError(at + ".name",
                        absl::StrCat("'", name, "' is also ", it->second));
    }
    return absl::OkStatus();
  };
  auto check_penalty = [&](bool has, double w,
                           const std::string& at) -> absl::Status {
    if (has && !(std::isfinite(w) && w > 0))
      return FieldError(at + ".penalty", "must be positive and finite");
    return absl::OkStatus();
  };
  for (int c = 0; c < model.constraints_size(); ++c) {
    const v1::ModelConstraint& con = model.constraints(c);
    const std::string at = absl::StrCat("constraints[", c, "]");
    RETURN_IF_ERROR(check_name(con.name(), at));
    RETURN_IF_ERROR(CheckPolynomial(con.lhs(), at + ".lhs", n));
    if (con.sense() == v1::CONSTRAINT_SENSE_UNSPECIFIED)
      return FieldError(at + ".sense", "unset (==, <= or >=)");
    if (!std::isfinite(con.rhs())) return FieldError(at + ".rhs", "not finite");
    RETURN_IF_ERROR(check_penalty(con.has_penalty(), con.penalty(), at));
  }
  for (int g = 0; g < model.one_hot_size(); ++g) {
    const v1::OneHotConstraint& group = model.one_hot(g);
    const std::string at = absl::StrCat("one_hot[", g, "]");
    RETURN_IF_ERROR(check_name(group.name(), at));
    RETURN_IF_ERROR(check_penalty(group.has_penalty(), group.penalty(), at));
    if (group.variables().empty()) return FieldError(at, "no variables");
    std::vector<uint32_t> vars(group.variables().begin(),
                               group.variables().end());
    std::sort(vars.begin(), vars.end());
    if (std::adjacent_find(vars.begin(), vars.end()) != vars.end())
      return FieldError(at + ".variables", "a variable appears twice");
    for (int k = 0; k < group.variables_size(); ++k) {
      const uint32_t v = group.variables(k);
      const std::string field = absl::StrCat(at, ".variables[", k, "]");
      if (v >= static_cast<uint32_t>(n)) {
        return FieldError(field,
                          absl::StrCat(v, " is not below ", n, " variables"));
      }
      if (model.variables(v).type() != v1::MODEL_VARIABLE_BINARY) {
        return FieldError(field, absl::StrCat("'", model.variables(v).name(),
                                              "' is not binary"));
      }
    }
  }
  return absl::OkStatus();
}

// The weights of an integer's bits: value = offset + sum w_k b_k.
VariableBits IntegerBits(v1::IntegerEncoding encoding,
                         const v1::ModelVariable& var) {
  VariableBits bits;
  const int64_t range = var.upper() - var.lower();
  switch (encoding) {
    case v1::INTEGER_ENCODING_ONE_HOT:
      for (int64_t value = var.lower(); value <= var.upper(); ++value)
        bits.weights.push_back(value);
      return bits;
    case v1::INTEGER_ENCODING_UNARY:
      bits.offset = var.lower();
      bits.weights.assign(range, 1);
      return bits;
    default: {
      bits.offset = var.lower();
      int64_t covered = 0;
      for (int64_t w = 1; covered < range; w *= 2) {
        bits.weights.push_back(std::min(w, range - covered));
        covered += bits.weights.back();
      }
      return bits;
    }
  }
}

}  // namespace

v1::IntegerEncoding IntegerEncodingOf(const v1::ConstrainedModel& model,
                                      const v1::ModelVariable& var) {
  if (model.integer_encoding() != v1::INTEGER_ENCODING_DEFAULT)
    return model.integer_encoding();
  return var.upper() - var.lower() + 1 <= kDefaultOneHotValues
             ? v1::INTEGER_ENCODING_ONE_HOT
             : v1::INTEGER_ENCODING_BINARY;
}

absl::StatusOr<v1::ConstrainedModel> ResolveModel(
    const v1::ConstrainedModel& spec) {
  v1::ConstrainedModel model;
  if (!spec.text().empty()) {
    ASSIGN_OR_RETURN(model,
                     formats::ParseModelText(spec.text(), spec.format()));
    model.set_integer_encoding(spec.integer_encoding());
    model.set_inequality(spec.inequality());
    if (spec.has_penalty()) model.set_penalty(spec.penalty());
  } else {
    model = spec;
  }
  for (int c = 0; c < model.constraints_size(); ++c) {
    if (model.constraints(c).name().empty())
      model.mutable_constraints(c)->set_name(absl::StrCat("c", c + 1));
  }
  for (int g = 0; g < model.one_hot_size(); ++g) {
    if (model.one_hot(g).name().empty())
      model.mutable_one_hot(g)->set_name(absl::StrCat("one_hot", g + 1));
  }
  RETURN_IF_ERROR(CheckModel(model));
  return model;
}

namespace {

// A term over integers expands into the products of their bits: at most the
// product of (bits + 1) over its factors. Past kMaxTermExpansion it is
// refused rather than expanded.
absl::Status CheckExpansion(const v1::ConstrainedModel& model,
                            const v1::ModelPolynomial& p,
                            const std::string& field) {
  for (int t = 0; t < p.terms_size(); ++t) {
    double size = 1;
    for (uint32_t v : p.terms(t).variables())
      size *= static_cast<double>(BitsOf(model, model.variables(v)) + 1);
    if (size > kMaxTermExpansion) {
      return FieldError(
          absl::StrCat(field, ".terms[", t, "]"),
          absl::StrCat("a product of integers that expands to more than ",
                       kMaxTermExpansion,
                       " terms over their bits; introduce a variable for "
                       "part of it"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckModel(const v1::ConstrainedModel& model) {
  RETURN_IF_ERROR(CheckVariables(model));
  RETURN_IF_ERROR(
      CheckPolynomial(model.objective(), "objective", model.variables_size()));
  RETURN_IF_ERROR(CheckConstraints(model));
  RETURN_IF_ERROR(CheckExpansion(model, model.objective(), "objective"));
  for (int c = 0; c < model.constraints_size(); ++c) {
    RETURN_IF_ERROR(CheckExpansion(model, model.constraints(c).lhs(),
                                   absl::StrCat("constraints[", c, "].lhs")));
  }
  if (model.has_penalty() &&
      !(std::isfinite(model.penalty()) && model.penalty() > 0))
    return FieldError("penalty", "must be positive and finite");
  return absl::OkStatus();
}

ModelLayout LayOut(const v1::ConstrainedModel& model) {
  ModelLayout layout;
  bool mixed = false;
  for (const v1::ModelVariable& var : model.variables()) {
    VariableBits bits;
    if (var.type() == v1::MODEL_VARIABLE_INTEGER) {
      const v1::IntegerEncoding encoding = IntegerEncodingOf(model, var);
      if (layout.integer_encoding == v1::INTEGER_ENCODING_DEFAULT && !mixed)
        layout.integer_encoding = encoding;
      mixed = mixed || layout.integer_encoding != encoding;
      bits = IntegerBits(encoding, var);
      layout.integer_bits += static_cast<int>(bits.weights.size());
      for (size_t k = 0; k < bits.weights.size(); ++k) {
        layout.labels.push_back(
            encoding == v1::INTEGER_ENCODING_ONE_HOT
                ? absl::StrCat(var.name(), "=", bits.weights[k])
                : absl::StrCat(var.name(), "#", k));
      }
    } else {
      bits.weights = {var.type() == v1::MODEL_VARIABLE_SPIN ? 2 : 1};
      bits.offset = var.type() == v1::MODEL_VARIABLE_SPIN ? -1 : 0;
      layout.labels.push_back(var.name());
    }
    bits.first = layout.num_bits;
    layout.num_bits += static_cast<int>(bits.weights.size());
    layout.variables.push_back(std::move(bits));
  }
  if (mixed) layout.integer_encoding = v1::INTEGER_ENCODING_DEFAULT;
  return layout;
}

int64_t BitsOf(const v1::ConstrainedModel& model,
               const v1::ModelVariable& var) {
  if (var.type() != v1::MODEL_VARIABLE_INTEGER) return 1;
  const int64_t range = var.upper() - var.lower();
  switch (IntegerEncodingOf(model, var)) {
    case v1::INTEGER_ENCODING_ONE_HOT:
      return range + 1;
    case v1::INTEGER_ENCODING_UNARY:
      return range;
    default: {
      int64_t bits = 0;
      for (int64_t covered = 0, w = 1; covered < range; w *= 2) {
        covered += std::min(w, range - covered);
        ++bits;
      }
      return bits;
    }
  }
}

int64_t CountBits(const v1::ConstrainedModel& model) {
  int64_t bits = 0;
  for (const v1::ModelVariable& var : model.variables())
    bits += BitsOf(model, var);
  return bits;
}

BinaryPolynomial ExpandOverBits(const v1::ModelPolynomial& polynomial,
                                const ModelLayout& layout) {
  BinaryPolynomial out;
  out.AddConstant(polynomial.constant());
  std::vector<int32_t> bits;
  for (const v1::ModelTerm& term : polynomial.terms()) {
    if (term.coefficient() == 0) continue;
    // Binary factors (one bit, weight 1, offset 0) multiply as one product
    // term; the others expand as affine forms of their bits.
    bits.clear();
    std::vector<const VariableBits*> affine;
    for (uint32_t v : term.variables()) {
      const VariableBits& vb = layout.variables[v];
      if (vb.weights.size() == 1 && vb.weights[0] == 1 && vb.offset == 0) {
        bits.push_back(vb.first);
      } else {
        affine.push_back(&vb);
      }
    }
    BinaryPolynomial product;
    product.AddTerm(bits, term.coefficient());
    for (const VariableBits* vb : affine) {
      BinaryPolynomial factor;
      factor.AddConstant(static_cast<double>(vb->offset));
      for (size_t k = 0; k < vb->weights.size(); ++k)
        factor.AddLinear(vb->first + static_cast<int32_t>(k),
                         static_cast<double>(vb->weights[k]));
      product = product.Times(factor);
    }
    out.Add(product);
  }
  out.Prune();
  return out;
}

DecodedValues DecodeValues(const v1::ConstrainedModel& model,
                           const ModelLayout& layout,
                           std::span<const uint8_t> bits) {
  DecodedValues out;
  out.values.reserve(model.variables_size());
  for (int v = 0; v < model.variables_size(); ++v) {
    const VariableBits& vb = layout.variables[v];
    const bool one_hot =
        model.variables(v).type() == v1::MODEL_VARIABLE_INTEGER &&
        vb.offset == 0 &&
        IntegerEncodingOf(model, model.variables(v)) ==
            v1::INTEGER_ENCODING_ONE_HOT;
    const bool unary =
        model.variables(v).type() == v1::MODEL_VARIABLE_INTEGER &&
        IntegerEncodingOf(model, model.variables(v)) ==
            v1::INTEGER_ENCODING_UNARY;
    int64_t value = vb.offset;
    int set = 0;
    bool ordered = true;
    for (size_t k = 0; k < vb.weights.size(); ++k) {
      const bool bit = bits[vb.first + k] != 0;
      if (k > 0 && bit && !bits[vb.first + k - 1]) ordered = false;
      if (!bit) continue;
      ++set;
      if (!one_hot || set == 1) value += vb.weights[k];
    }
    if (one_hot && set == 0) value = model.variables(v).lower();
    if ((one_hot && set != 1) || (unary && !ordered))
      out.broken_encodings.push_back(v);
    out.values.push_back(value);
  }
  return out;
}

std::vector<uint8_t> EncodeValues(const v1::ConstrainedModel& model,
                                  const ModelLayout& layout,
                                  std::span<const int64_t> values) {
  std::vector<uint8_t> bits(layout.num_bits, 0);
  for (int v = 0; v < model.variables_size(); ++v) {
    const VariableBits& vb = layout.variables[v];
    const v1::ModelVariable& var = model.variables(v);
    if (var.type() != v1::MODEL_VARIABLE_INTEGER) {
      bits[vb.first] = var.type() == v1::MODEL_VARIABLE_SPIN ? values[v] > 0
                                                             : values[v] != 0;
      continue;
    }
    const v1::IntegerEncoding encoding = IntegerEncodingOf(model, var);
    if (encoding == v1::INTEGER_ENCODING_ONE_HOT) {
      bits[vb.first + (values[v] - var.lower())] = 1;
      continue;
    }
    int64_t left = values[v] - vb.offset;
    if (encoding == v1::INTEGER_ENCODING_UNARY) {
      for (int64_t k = 0; k < left; ++k) bits[vb.first + k] = 1;
      continue;
    }
    for (size_t k = vb.weights.size(); k-- > 0;) {
      if (vb.weights[k] <= left) {
        bits[vb.first + k] = 1;
        left -= vb.weights[k];
      }
    }
  }
  return bits;
}

namespace {

// How far `lhs sense rhs` is missed (0 when it holds, within a tolerance
// relative to the sides' size).
double Shortfall(double lhs, v1::ConstraintSense sense, double rhs) {
  const double tolerance = 1e-6 * std::max({1.0, std::abs(lhs), std::abs(rhs)});
  double miss = 0;
  if (sense != v1::CONSTRAINT_GREATER_EQUAL) miss = std::max(miss, lhs - rhs);
  if (sense != v1::CONSTRAINT_LESS_EQUAL) miss = std::max(miss, rhs - lhs);
  return miss > tolerance ? miss : 0;
}

v1::Violation ConstraintViolation(const std::string& name, double lhs,
                                  v1::ConstraintSense sense, double rhs,
                                  double miss) {
  v1::Violation v = MakeViolation(
      "constraint", name,
      absl::StrFormat("%s: %.10g %s %.10g is missed by %.10g", name, lhs,
                      formats::model_text::SenseText(sense, "=="), rhs, miss));
  v.set_amount(miss);
  return v;
}

}  // namespace

ModelScore ScoreModel(const v1::ConstrainedModel& model,
                      std::span<const int64_t> values) {
  ModelScore score;
  score.objective = formats::model_text::Evaluate(model.objective(), values);
  for (const v1::ModelConstraint& c : model.constraints()) {
    const double lhs = formats::model_text::Evaluate(c.lhs(), values);
    const double miss = Shortfall(lhs, c.sense(), c.rhs());
    if (miss > 0)
      score.violations.push_back(
          ConstraintViolation(c.name(), lhs, c.sense(), c.rhs(), miss));
  }
  for (const v1::OneHotConstraint& g : model.one_hot()) {
    double sum = 0;
    for (uint32_t v : g.variables()) sum += static_cast<double>(values[v]);
    const v1::ConstraintSense sense =
        g.at_most_one() ? v1::CONSTRAINT_LESS_EQUAL : v1::CONSTRAINT_EQUAL;
    const double miss = Shortfall(sum, sense, 1);
    if (miss > 0)
      score.violations.push_back(
          ConstraintViolation(g.name(), sum, sense, 1, miss));
  }
  return score;
}

ModelPenalties PenaltiesOf(const v1::ConstrainedModel& model) {
  ModelPenalties out;
  out.layout = LayOut(model);
  PenaltyInput& input = out.input;
  input.num_bits = out.layout.num_bits;
  input.labels = out.layout.labels;
  input.objective.Add(ExpandOverBits(model.objective(), out.layout),
                      model.sense() == v1::MAXIMIZE ? -1 : 1);
  for (const v1::ModelConstraint& c : model.constraints()) {
    PenaltyConstraint& pc = input.constraints.emplace_back();
    pc.name = c.name();
    pc.lhs = ExpandOverBits(c.lhs(), out.layout);
    pc.sense = c.sense();
    pc.rhs = c.rhs();
    if (c.has_penalty()) pc.penalty = c.penalty();
  }
  for (const v1::OneHotConstraint& g : model.one_hot()) {
    PenaltyGroup& group = input.groups.emplace_back();
    group.name = g.name();
    group.at_most_one = g.at_most_one();
    for (uint32_t v : g.variables())
      group.bits.push_back(out.layout.variables[v].first);
    if (g.has_penalty()) group.penalty = g.penalty();
  }
  for (int v = 0; v < model.variables_size(); ++v) {
    const v1::ModelVariable& var = model.variables(v);
    if (var.type() != v1::MODEL_VARIABLE_INTEGER) continue;
    const VariableBits& vb = out.layout.variables[v];
    const int32_t count = static_cast<int32_t>(vb.weights.size());
    const v1::IntegerEncoding encoding = IntegerEncodingOf(model, var);
    if (encoding == v1::INTEGER_ENCODING_ONE_HOT) {
      PenaltyGroup& group = input.groups.emplace_back();
      group.name = absl::StrCat(var.name(), ".one_hot");
      for (int32_t k = 0; k < count; ++k) group.bits.push_back(vb.first + k);
    } else if (encoding == v1::INTEGER_ENCODING_UNARY && count >= 2) {
      // b_{k+1} (1 - b_k) >= 0, zero exactly when the wall is in order.
      PenaltyTerms& wall = input.penalty_terms.emplace_back();
      wall.name = absl::StrCat(var.name(), ".domain_wall");
      for (int32_t k = 0; k + 1 < count; ++k) {
        wall.terms.AddLinear(vb.first + k + 1, 1);
        wall.terms.AddPair(vb.first + k, vb.first + k + 1, -1);
      }
    }
  }
  out.options.inequality = model.inequality() == v1::INEQUALITY_UNBALANCED
                               ? v1::INEQUALITY_UNBALANCED
                               : v1::INEQUALITY_SLACK;
  if (model.has_penalty()) out.options.penalty = model.penalty();
  return out;
}

}  // namespace qs
