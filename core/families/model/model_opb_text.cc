// The pseudo-Boolean competition format (OPB, PB06 / PB16) of the model kind:
// reader and writer (docs/model-formats.md, "OPB").
//
//   * #variable= 3 #constraint= 2
//   min: +3 x1 -2 x2 x3 ;
//   +1 x1 +1 ~x2 >= 1 ;
//   +1 x1 +1 x2 +1 x3 = 2 ;
//
// A term is a coefficient and the literals after it (a product); '~x' is
// 1 - x, expanded. Beyond the standard the reader takes "max:", "<=",
// decimal coefficients and a bare number in the objective (a constant).
// Constraints are named "c1", "c2", ... in file order. With a header, all of
// its variables exist; when they are named x1 ... xN they keep that order.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "formats/model_text.h"
#include "formats/model_text_internal.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

using model_text::PolynomialBuilder;
using model_text::VariableTable;

constexpr absl::string_view kOpb = "opb";

enum class Tok { kNumber, kLiteral, kSign, kSense, kObjective, kSemicolon };

struct Token {
  Tok kind;
  std::string text;
  int line = 0;
  double number = 0;
};

struct Header {
  int line = 0;
  int64_t variables = -1;
  int64_t constraints = -1;
};

// "* #variable= N #constraint= M" (other '#' fields ignored).
Header ReadHeader(absl::string_view comment, int line) {
  Header header;
  std::vector<absl::string_view> words =
      absl::StrSplit(comment, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    int64_t value;
    if (!absl::SimpleAtoi(words[i + 1], &value)) continue;
    if (words[i] == "#variable=") header.variables = value;
    if (words[i] == "#constraint=") header.constraints = value;
  }
  if (header.variables >= 0) header.line = line;
  return header;
}

bool IsWordChar(char c) {
  return !absl::ascii_isspace(static_cast<unsigned char>(c)) && c != ';' &&
         c != '<' && c != '>' && c != '=';
}

class Lexer {
 public:
  absl::Status Line(absl::string_view text, int line);
  std::vector<Token>& tokens() { return tokens_; }

 private:
  absl::Status Word(absl::string_view word, int line);
  std::vector<Token> tokens_;
};

absl::Status Lexer::Line(absl::string_view text, int line) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == ';') {
      tokens_.push_back({Tok::kSemicolon, ";", line});
      ++i;
    } else if (c == '<' || c == '>' || c == '=') {
      const size_t length = i + 1 < text.size() && text[i + 1] == '=' ? 2 : 1;
      tokens_.push_back(
          {Tok::kSense, std::string(text.substr(i, length)), line});
      i += length;
    } else {
      size_t end = i;
      while (end < text.size() && IsWordChar(text[end])) ++end;
      if (auto s = Word(text.substr(i, end - i), line); !s.ok()) return s;
      i = end;
    }
  }
  return absl::OkStatus();
}

absl::Status Lexer::Word(absl::string_view word, int line) {
  if (word == "min:" || word == "max:") {
    tokens_.push_back({Tok::kObjective, std::string(word), line});
  } else if (word == "+" || word == "-") {
    tokens_.push_back({Tok::kSign, std::string(word), line});
  } else if (isdigit(word[0]) || word[0] == '+' || word[0] == '-' ||
             word[0] == '.') {
    Token token{Tok::kNumber, std::string(word), line};
    if (!absl::SimpleAtod(word, &token.number) || !std::isfinite(token.number))
      return LineError(kOpb, line,
                       absl::StrCat("'", word, "' is not a number"));
    tokens_.push_back(std::move(token));
  } else {
    const absl::string_view name = absl::StripPrefix(word, "~");
    if (name.empty() ||
        (!absl::ascii_isalpha(static_cast<unsigned char>(name[0])) &&
         name[0] != '_'))
      return LineError(kOpb, line,
                       absl::StrCat("'", word, "' is not a literal"));
    tokens_.push_back({Tok::kLiteral, std::string(word), line});
  }
  return absl::OkStatus();
}

// x<k> with 1 <= k <= n.
bool IsIndexedName(absl::string_view name, int64_t n) {
  int64_t k;
  return absl::ConsumePrefix(&name, "x") && !name.empty() && isdigit(name[0]) &&
         absl::SimpleAtoi(name, &k) && k >= 1 && k <= n;
}

class OpbReader {
 public:
  OpbReader(std::vector<Token> tokens, Header header)
      : tokens_(std::move(tokens)), header_(header) {}
  absl::StatusOr<v1::ConstrainedModel> Read();

 private:
  const Token* Peek() const {
    return pos_ < tokens_.size() ? &tokens_[pos_] : nullptr;
  }
  int LastLine() const { return tokens_.empty() ? 1 : tokens_.back().line; }
  absl::Status Expected(absl::string_view what) const;
  void CreateVariables();
  absl::Status Statement(v1::ConstrainedModel& model);
  absl::Status ReadTerms(PolynomialBuilder& poly);
  void AddProduct(PolynomialBuilder& poly, double coefficient,
                  const std::vector<const Token*>& literals);
  absl::StatusOr<double> ReadNumber();

  std::vector<Token> tokens_;
  Header header_;
  size_t pos_ = 0;
  VariableTable variables_;
  bool has_objective_ = false;
};

absl::Status OpbReader::Expected(absl::string_view what) const {
  const Token* token = Peek();
  if (token == nullptr)
    return LineError(
        kOpb, LastLine(),
        absl::StrCat("expected ", what, ", got the end of the text"));
  return LineError(
      kOpb, token->line,
      absl::StrCat("expected ", what, ", got '", token->text, "'"));
}

// With a header whose variables are all named x1 ... xN, those N variables
// in that order; otherwise the order of first appearance.
void OpbReader::CreateVariables() {
  if (header_.variables < 0) return;
  for (const Token& token : tokens_) {
    if (token.kind == Tok::kLiteral &&
        !IsIndexedName(absl::StripPrefix(token.text, "~"), header_.variables))
      return;
  }
  for (int64_t k = 1; k <= header_.variables; ++k)
    variables_.Index(absl::StrCat("x", k), header_.line);
}

// ~x = 1 - x: each negated literal doubles the monomials, so a product
// takes at most this many (2^16 monomials).
constexpr int kMaxNegatedLiterals = 16;

// ~x = 1 - x: each negated literal doubles the monomials.
void OpbReader::AddProduct(PolynomialBuilder& poly, double coefficient,
                           const std::vector<const Token*>& literals) {
  std::vector<std::pair<std::vector<uint32_t>, double>> monomials = {
      {{}, coefficient}};
  for (const Token* literal : literals) {
    const bool negated = literal->text[0] == '~';
    const uint32_t v =
        variables_.Index(absl::StripPrefix(literal->text, "~"), literal->line);
    const size_t count = monomials.size();
    for (size_t i = 0; i < count; ++i) {
      if (negated) {
        auto [vars, c] = monomials[i];
        vars.push_back(v);
        monomials.emplace_back(std::move(vars), -c);
      } else {
        monomials[i].first.push_back(v);
      }
    }
  }
  for (auto& [vars, c] : monomials) poly.Add(c, std::move(vars));
}

absl::StatusOr<double> OpbReader::ReadNumber() {
  double sign = 1;
  if (Peek() != nullptr && Peek()->kind == Tok::kSign)
    sign = tokens_[pos_++].text == "-" ? -1 : 1;
  if (Peek() == nullptr || Peek()->kind != Tok::kNumber)
    return Expected("a number");
  return sign * tokens_[pos_++].number;
}

// Terms up to a relational operator or ';'.
absl::Status OpbReader::ReadTerms(PolynomialBuilder& poly) {
  std::optional<double> coefficient;
  std::vector<const Token*> literals;
  absl::Status status;
  auto flush = [&] {
    int negated = 0;
    for (const Token* literal : literals) negated += literal->text[0] == '~';
    if (negated > kMaxNegatedLiterals && status.ok()) {
      status = LineError(
          kOpb, literals.back()->line,
          absl::StrCat("a product of ", negated, " negated literals; at most ",
                       kMaxNegatedLiterals,
                       " (each doubles "
                       "the product's terms)"));
    }
    if (status.ok() && (coefficient.has_value() || !literals.empty()))
      AddProduct(poly, coefficient.value_or(1), literals);
    coefficient.reset();
    literals.clear();
  };
  while (Peek() != nullptr && Peek()->kind != Tok::kSense &&
         Peek()->kind != Tok::kSemicolon) {
    switch (Peek()->kind) {
      case Tok::kNumber:
      case Tok::kSign: {
        flush();
        if (!status.ok()) return status;
        auto number = ReadNumber();
        if (!number.ok()) return number.status();
        coefficient = *number;
        break;
      }
      case Tok::kLiteral:
        literals.push_back(&tokens_[pos_++]);
        break;
      default:
        return Expected("a term, a relational operator or ';'");
    }
  }
  flush();
  return status;
}

absl::Status OpbReader::Statement(v1::ConstrainedModel& model) {
  PolynomialBuilder poly;
  const Token& head = *Peek();
  if (head.kind == Tok::kObjective) {
    if (has_objective_) return LineError(kOpb, head.line, "a second objective");
    has_objective_ = true;
    ++pos_;
    model.set_sense(head.text == "max:" ? v1::MAXIMIZE : v1::MINIMIZE);
    if (auto s = ReadTerms(poly); !s.ok()) return s;
    if (Peek() == nullptr || Peek()->kind != Tok::kSemicolon)
      return Expected("';' after the objective");
    ++pos_;
    *model.mutable_objective() = poly.Build();
    return absl::OkStatus();
  }
  if (auto s = ReadTerms(poly); !s.ok()) return s;
  if (!poly.has_terms()) return Expected("a term of the constraint");
  if (Peek() == nullptr || Peek()->kind != Tok::kSense)
    return Expected("a relational operator (>=, =, <=)");
  const std::string& op = tokens_[pos_++].text;
  v1::ModelConstraint& constraint = *model.add_constraints();
  constraint.set_name(absl::StrCat("c", model.constraints_size()));
  if (op == ">=") {
    constraint.set_sense(v1::CONSTRAINT_GREATER_EQUAL);
  } else if (op == "<=") {
    constraint.set_sense(v1::CONSTRAINT_LESS_EQUAL);
  } else if (op == "=") {
    constraint.set_sense(v1::CONSTRAINT_EQUAL);
  } else {
    return LineError(kOpb, head.line,
                     absl::StrCat("'", op, "' is not an operator (>=, =, <=)"));
  }
  auto rhs = ReadNumber();
  if (!rhs.ok()) return rhs.status();
  if (Peek() == nullptr || Peek()->kind != Tok::kSemicolon)
    return Expected("';' after the right-hand side");
  ++pos_;
  constraint.set_rhs(*rhs - poly.constant());
  poly.AddConstant(-poly.constant());
  *constraint.mutable_lhs() = poly.Build();
  return absl::OkStatus();
}

absl::StatusOr<v1::ConstrainedModel> OpbReader::Read() {
  CreateVariables();
  v1::ConstrainedModel model;
  model.set_sense(v1::MINIMIZE);
  while (Peek() != nullptr) {
    if (auto s = Statement(model); !s.ok()) return s;
  }
  if (header_.variables >= 0 &&
      static_cast<int64_t>(variables_.size()) > header_.variables) {
    return LineError(
        kOpb, header_.line,
        absl::StrCat("the header announces ", header_.variables,
                     " variables, the file uses ", variables_.size()));
  }
  if (header_.constraints >= 0 &&
      model.constraints_size() != header_.constraints) {
    return LineError(
        kOpb, header_.line,
        absl::StrCat("the header announces ", header_.constraints,
                     " constraints, the file has ", model.constraints_size()));
  }
  for (uint32_t v = 0; v < variables_.size(); ++v)
    model.add_variables()->set_name(variables_.name(v));
  return model;
}

// --- Writer ---

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

bool IsOpbName(absl::string_view name) {
  if (name.empty() ||
      !(absl::ascii_isalpha(static_cast<unsigned char>(name[0])) ||
        name[0] == '_'))
    return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) &&
        !absl::StrContains("_[].", c))
      return false;
  }
  return name != "min" && name != "max";
}

absl::StatusOr<std::string> Integer(double value, absl::string_view where) {
  if (value != std::floor(value) || std::abs(value) > kMaxExactInteger) {
    return absl::InvalidArgumentError(absl::StrCat(
        "opb: ", where, " has the coefficient ", ExactNumber(value),
        ", not an integer (OPB takes integer coefficients only)"));
  }
  return absl::StrCat(value >= 0 ? "+" : "", static_cast<int64_t>(value));
}

// " +3 x1 -2 x2 x3", every coefficient times `factor`.
absl::StatusOr<std::string> OpbTerms(const v1::ConstrainedModel& model,
                                     const v1::ModelPolynomial& poly,
                                     double factor, absl::string_view where) {
  std::string out;
  for (const v1::ModelTerm& term : poly.terms()) {
    auto coefficient = Integer(term.coefficient() * factor, where);
    if (!coefficient.ok()) return coefficient.status();
    absl::StrAppend(&out, " ", *coefficient);
    for (uint32_t v : term.variables())
      absl::StrAppend(&out, " ", model.variables(v).name());
  }
  return out;
}

absl::Status CheckOpbVariables(const v1::ConstrainedModel& model) {
  for (const v1::ModelVariable& variable : model.variables()) {
    if (variable.type() != v1::MODEL_VARIABLE_BINARY)
      return absl::InvalidArgumentError(
          absl::StrCat("opb: variable '", variable.name(),
                       "' is not binary (OPB takes binary variables only)"));
    if (!IsOpbName(variable.name()))
      return absl::InvalidArgumentError(absl::StrCat(
          "opb: '", variable.name(), "' is not a name OPB can hold"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> OpbObjective(const v1::ConstrainedModel& model) {
  const v1::ModelPolynomial& objective = model.objective();
  const bool maximize = model.sense() == v1::MAXIMIZE;
  if (objective.terms().empty() && objective.constant() == 0 && !maximize)
    return "";
  auto terms = OpbTerms(model, objective, 1, "the objective");
  if (!terms.ok()) return terms.status();
  std::string constant;
  if (objective.constant() != 0) {
    auto c = Integer(objective.constant(), "the objective's constant");
    if (!c.ok()) return c.status();
    constant = absl::StrCat(" ", *c);
  }
  return absl::StrCat(maximize ? "max:" : "min:", *terms, constant, " ;\n");
}

absl::StatusOr<std::string> OpbConstraint(const v1::ConstrainedModel& model,
                                          const v1::ModelConstraint& c) {
  const std::string where = absl::StrCat("constraint '", c.name(), "'");
  // OPB has no "<=": -lhs >= -rhs.
  const double factor = c.sense() == v1::CONSTRAINT_LESS_EQUAL ? -1 : 1;
  if (c.sense() == v1::CONSTRAINT_SENSE_UNSPECIFIED)
    return absl::InvalidArgumentError(
        absl::StrCat("opb: ", where, " has no sense"));
  auto terms = OpbTerms(model, c.lhs(), factor, where);
  if (!terms.ok()) return terms.status();
  auto rhs = Integer((c.rhs() - c.lhs().constant()) * factor,
                     absl::StrCat(where, "'s right-hand side"));
  if (!rhs.ok()) return rhs.status();
  return absl::StrCat(terms->substr(1),
                      c.sense() == v1::CONSTRAINT_EQUAL ? " = " : " >= ",
                      absl::StripPrefix(*rhs, "+"), " ;\n");
}

}  // namespace

absl::StatusOr<v1::ConstrainedModel> ParseModelOpb(absl::string_view text) {
  Lexer lexer;
  Header header;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    const absl::string_view stripped = absl::StripLeadingAsciiWhitespace(line);
    if (absl::StartsWith(stripped, "*")) {
      if (header.variables < 0) header = ReadHeader(stripped.substr(1), number);
      continue;
    }
    if (auto s = lexer.Line(line, number); !s.ok()) return s;
  }
  if (header.variables > kMaxModelTextVariables) {
    return LineError(kOpb, header.line,
                     absl::StrCat("the header announces ", header.variables,
                                  " variables, more than the ",
                                  kMaxModelTextVariables, " a model may have"));
  }
  OpbReader reader(std::move(lexer.tokens()), header);
  return reader.Read();
}

absl::StatusOr<std::string> WriteModelOpb(const v1::ConstrainedModel& model) {
  if (auto s = model_text::CheckWritable(model, kOpb); !s.ok()) return s;
  if (auto s = CheckOpbVariables(model); !s.ok()) return s;
  std::string out =
      absl::StrCat("* #variable= ", model.variables_size(),
                   " #constraint= ", model.constraints_size(), "\n");
  auto objective = OpbObjective(model);
  if (!objective.ok()) return objective.status();
  absl::StrAppend(&out, *objective);
  for (const v1::ModelConstraint& constraint : model.constraints()) {
    if (constraint.lhs().terms().empty())
      return absl::InvalidArgumentError(absl::StrCat(
          "opb: constraint '", constraint.name(), "' has no terms"));
    auto line = OpbConstraint(model, constraint);
    if (!line.ok()) return line.status();
    absl::StrAppend(&out, *line);
  }
  return out;
}

}  // namespace qs::formats
