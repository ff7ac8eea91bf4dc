// The CPLEX LP subset of the model kind: reader and writer
// (docs/model-formats.md, "LP").
//
// The reader takes what Gurobi, dimod and Fixstars Amplify write: an objective
// section (Minimize / Maximize in CPLEX's spellings, an optional "name:",
// linear terms, a constant, a quadratic part "[ ... ] / 2"), Subject To with
// named or unnamed linear or quadratic constraints (unnamed ones are "c<k>",
// k the constraint's 1-based index), Bounds, Binary and General sections, End,
// and '\' comments. Section keywords count only at the start of a line, so
// expressions may run over several lines. Variables keep the order they
// first appear in; continuous ones are refused.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "formats/model_text.h"
#include "formats/model_text_internal.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

using model_text::PolynomialBuilder;
using model_text::VariableTable;

constexpr absl::string_view kLp = "lp";
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// CPLEX reads bounds at or beyond 1e20 as infinite.
constexpr double kLpInfinity = 1e20;

enum class Tok {
  kNumber,
  kName,
  kSense,
  kPlus,
  kMinus,
  kTimes,
  kPower,
  kSlash,
  kOpen,
  kClose,
  kColon,
  kEnd
};

struct Token {
  Tok kind;
  std::string text;
  int line = 0;
  bool line_start = false;  // the first token of its line
  double number = 0;
  v1::ConstraintSense sense = v1::CONSTRAINT_SENSE_UNSPECIFIED;
};

enum class Section {
  kNone,
  kMinimize,
  kMaximize,
  kSubjectTo,
  kBounds,
  kBinary,
  kGeneral,
  kEnd,
  kUnsupported
};

// Characters CPLEX allows in names ('/' and '.' aside: '/' divides the
// objective's quadratic part, '.' may not start a name).
bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
         absl::StrContains("_.!\"#$%&(),;?@'{}|~", c);
}
bool IsNameStart(char c) { return IsNameChar(c) && c != '.' && !isdigit(c); }

// The length of the number at the front of `s` (0: none).
size_t NumberLength(absl::string_view s) {
  size_t i = 0;
  while (i < s.size() && (isdigit(s[i]) || s[i] == '.')) ++i;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && isdigit(s[j])) {
      i = j;
      while (i < s.size() && isdigit(s[i])) ++i;
    }
  }
  return i;
}

struct SenseSpelling {
  absl::string_view text;
  v1::ConstraintSense sense;
};
constexpr SenseSpelling kSenses[] = {
    {"<=", v1::CONSTRAINT_LESS_EQUAL},    {"=<", v1::CONSTRAINT_LESS_EQUAL},
    {">=", v1::CONSTRAINT_GREATER_EQUAL}, {"=>", v1::CONSTRAINT_GREATER_EQUAL},
    {"<", v1::CONSTRAINT_LESS_EQUAL},     {">", v1::CONSTRAINT_GREATER_EQUAL},
    {"=", v1::CONSTRAINT_EQUAL}};

class Lexer {
 public:
  explicit Lexer(absl::string_view text) : text_(text) {}

  absl::StatusOr<std::vector<Token>> Run();
  const std::string& problem_name() const { return problem_name_; }

 private:
  void Comment();
  absl::Status One();
  void Push(Tok kind, size_t length);

  absl::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  bool line_start_ = true;
  std::vector<Token> tokens_;
  std::string problem_name_;
};

absl::StatusOr<std::vector<Token>> Lexer::Run() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++line_;
      ++pos_;
      line_start_ = true;
    } else if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      ++pos_;
    } else if (c == '\\') {
      Comment();
    } else if (auto s = One(); !s.ok()) {
      return s;
    }
  }
  tokens_.push_back({Tok::kEnd, "end of text", line_, true});
  return std::move(tokens_);
}

// A comment runs to the end of the line; "\Problem name: NAME" names the model
// (CPLEX writes it).
void Lexer::Comment() {
  size_t end = text_.find('\n', pos_);
  if (end == absl::string_view::npos) end = text_.size();
  absl::string_view comment =
      absl::StripAsciiWhitespace(text_.substr(pos_ + 1, end - pos_ - 1));
  if (absl::StartsWithIgnoreCase(comment, "problem name:") &&
      problem_name_.empty()) {
    problem_name_ = std::string(absl::StripAsciiWhitespace(comment.substr(13)));
  }
  pos_ = end;
}

void Lexer::Push(Tok kind, size_t length) {
  tokens_.push_back(
      {kind, std::string(text_.substr(pos_, length)), line_, line_start_});
  line_start_ = false;
  pos_ += length;
}

absl::Status Lexer::One() {
  const absl::string_view rest = text_.substr(pos_);
  const char c = rest[0];
  if (isdigit(c) || (c == '.' && rest.size() > 1 && isdigit(rest[1]))) {
    const size_t length = NumberLength(rest);
    Push(Tok::kNumber, length);
    if (!absl::SimpleAtod(tokens_.back().text, &tokens_.back().number))
      return LineError(
          kLp, line_,
          absl::StrCat("'", tokens_.back().text, "' is not a number"));
    return absl::OkStatus();
  }
  if (IsNameStart(c)) {
    size_t length = 1;
    while (length < rest.size() && IsNameChar(rest[length])) ++length;
    Push(Tok::kName, length);
    return absl::OkStatus();
  }
  for (const SenseSpelling& sense : kSenses) {
    if (absl::StartsWith(rest, sense.text)) {
      Push(Tok::kSense, sense.text.size());
      tokens_.back().sense = sense.sense;
      return absl::OkStatus();
    }
  }
  static constexpr std::pair<char, Tok> kSingles[] = {
      {'+', Tok::kPlus},  {'-', Tok::kMinus}, {'*', Tok::kTimes},
      {'^', Tok::kPower}, {'/', Tok::kSlash}, {'[', Tok::kOpen},
      {']', Tok::kClose}, {':', Tok::kColon}};
  for (const auto& [ch, kind] : kSingles) {
    if (c == ch) {
      Push(kind, 1);
      return absl::OkStatus();
    }
  }
  return LineError(
      kLp, line_,
      absl::StrCat("unexpected character '", rest.substr(0, 1), "'"));
}

Section SectionOf(absl::string_view word, absl::string_view next_word) {
  const std::string w = absl::AsciiStrToLower(word);
  if (w == "minimize" || w == "minimise" || w == "minimum" || w == "min")
    return Section::kMinimize;
  if (w == "maximize" || w == "maximise" || w == "maximum" || w == "max")
    return Section::kMaximize;
  const std::string next = absl::AsciiStrToLower(next_word);
  if (w == "st" || w == "s.t." || w == "st." ||
      (w == "subject" && next == "to") || (w == "such" && next == "that"))
    return Section::kSubjectTo;
  if (w == "bounds" || w == "bound") return Section::kBounds;
  if (w == "binary" || w == "binaries" || w == "bin") return Section::kBinary;
  if (w == "general" || w == "generals" || w == "gen") return Section::kGeneral;
  if (w == "end") return Section::kEnd;
  if (w == "semi" || w == "semis" || w == "semi-continuous" || w == "sos" ||
      w == "integer" || w == "integers")
    return Section::kUnsupported;
  return Section::kNone;
}

// A variable's bounds and type as the sections give them.
struct VariableInfo {
  double lower = 0;
  double upper = kInfinity;
  bool bounded = false;
  int bound_line = 0;
  Section type = Section::kNone;  // kBinary, kGeneral or none (continuous)
};

class LpReader {
 public:
  explicit LpReader(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  absl::StatusOr<v1::ConstrainedModel> Read(std::string name);

 private:
  const Token& Peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& Next() {
    const Token& token = Peek();
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return token;
  }
  // The section the current token starts (kNone when it starts none).
  Section SectionHere() const;
  void SkipSectionWords();
  bool AtStatementEnd() const;
  std::string TextSince(size_t start) const;
  absl::Status Expected(absl::string_view what, size_t start) const;

  absl::Status ReadObjective();
  absl::Status ReadConstraints();
  absl::Status ReadConstraint();
  absl::Status ReadExpression(PolynomialBuilder& poly, bool objective,
                              bool rhs);
  absl::Status ReadTerm(PolynomialBuilder& poly, double sign, size_t start);
  absl::Status ReadBracket(PolynomialBuilder& poly, double sign, bool objective,
                           size_t start);
  absl::Status ReadBounds();
  absl::Status ReadBound();
  absl::StatusOr<double> ReadBoundValue(size_t start);
  absl::Status ReadTypes(Section type);
  absl::Status Finish(v1::ConstrainedModel& model);

  uint32_t Variable(const Token& token) {
    const uint32_t v = variables_.Index(token.text, token.line);
    if (v >= info_.size()) info_.resize(v + 1);
    return v;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  VariableTable variables_;
  std::vector<VariableInfo> info_;
  v1::Sense sense_ = v1::MINIMIZE;
  PolynomialBuilder objective_;
  std::vector<v1::ModelConstraint> constraints_;
  std::vector<int> constraint_lines_;
};

Section LpReader::SectionHere() const {
  const Token& token = Peek();
  if (token.kind == Tok::kEnd) return Section::kEnd;
  if (token.kind != Tok::kName || !token.line_start ||
      Peek(1).kind == Tok::kColon)
    return Section::kNone;
  const Token& next = Peek(1);
  return SectionOf(token.text,
                   next.line == token.line && next.kind == Tok::kName
                       ? absl::string_view(next.text)
                       : absl::string_view());
}

void LpReader::SkipSectionWords() {
  const std::string word = absl::AsciiStrToLower(Next().text);
  if (word == "subject" || word == "such") Next();
}

bool LpReader::AtStatementEnd() const {
  const Token& token = Peek();
  return token.kind == Tok::kEnd || token.kind == Tok::kSense ||
         SectionHere() != Section::kNone ||
         (token.kind == Tok::kName && Peek(1).kind == Tok::kColon);
}

// The statement read so far, for messages ("after '3 x + 2 y'").
std::string LpReader::TextSince(size_t start) const {
  std::vector<absl::string_view> words;
  for (size_t i = start; i < pos_; ++i) words.push_back(tokens_[i].text);
  std::string text = absl::StrJoin(words, " ");
  if (text.size() > 40)
    text = absl::StrCat("...", text.substr(text.size() - 37));
  return text;
}

// The line is the last read token's: where the missing piece belongs.
absl::Status LpReader::Expected(absl::string_view what, size_t start) const {
  const Token& token = Peek();
  const int line = pos_ > start ? tokens_[pos_ - 1].line : token.line;
  std::string message = absl::StrCat("expected ", what);
  if (pos_ > start)
    absl::StrAppend(&message, " after '", TextSince(start), "'");
  absl::StrAppend(&message, token.kind == Tok::kEnd
                                ? ", got the end of the text"
                                : absl::StrCat(", got '", token.text, "'"));
  return LineError(kLp, line, message);
}

absl::StatusOr<v1::ConstrainedModel> LpReader::Read(std::string name) {
  const Section first = SectionHere();
  if (first != Section::kMinimize && first != Section::kMaximize)
    return Expected("Minimize or Maximize", pos_);
  sense_ = first == Section::kMaximize ? v1::MAXIMIZE : v1::MINIMIZE;
  Next();
  if (auto s = ReadObjective(); !s.ok()) return s;
  for (Section section = SectionHere(); section != Section::kEnd;
       section = SectionHere()) {
    const Token& keyword = Peek();
    absl::Status s;
    switch (section) {
      case Section::kSubjectTo:
        SkipSectionWords();
        s = ReadConstraints();
        break;
      case Section::kBounds:
        SkipSectionWords();
        s = ReadBounds();
        break;
      case Section::kBinary:
      case Section::kGeneral:
        SkipSectionWords();
        s = ReadTypes(section);
        break;
      case Section::kUnsupported:
        return LineError(kLp, keyword.line,
                         absl::StrCat("the section '", keyword.text,
                                      "' is not supported (Binary and General "
                                      "variables only)"));
      default:
        return Expected("a section (Subject To, Bounds, Binary, General, End)",
                        pos_);
    }
    if (!s.ok()) return s;
  }
  if (Peek().kind != Tok::kEnd) {
    Next();  // End
    if (Peek().kind != Tok::kEnd) return Expected("nothing after End", pos_);
  }
  v1::ConstrainedModel model;
  model.set_name(std::move(name));
  if (auto s = Finish(model); !s.ok()) return s;
  return model;
}

absl::Status LpReader::ReadObjective() {
  if (Peek().kind == Tok::kName && Peek(1).kind == Tok::kColon &&
      SectionHere() == Section::kNone) {
    Next();
    Next();
  }
  const size_t start = pos_;
  if (auto s = ReadExpression(objective_, true, false); !s.ok()) return s;
  if (Peek().kind == Tok::kSense) return Expected("a term or a section", start);
  return absl::OkStatus();
}

absl::Status LpReader::ReadConstraints() {
  while (SectionHere() == Section::kNone) {
    if (auto s = ReadConstraint(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status LpReader::ReadConstraint() {
  const int line = Peek().line;
  v1::ModelConstraint constraint;
  if (Peek().kind == Tok::kName && Peek(1).kind == Tok::kColon) {
    constraint.set_name(Next().text);
    Next();
  } else {
    constraint.set_name(absl::StrCat("c", constraints_.size() + 1));
  }
  const size_t start = pos_;
  PolynomialBuilder left, right;
  if (auto s = ReadExpression(left, false, false); !s.ok()) return s;
  if (Peek().kind != Tok::kSense)
    return Expected("a constraint sense (<=, >=, =)", start);
  constraint.set_sense(Next().sense);
  const size_t rhs_start = pos_;
  if (auto s = ReadExpression(right, false, true); !s.ok()) return s;
  if (pos_ == rhs_start) return Expected("a right-hand side", start);
  if (Peek().kind == Tok::kSense) {
    return LineError(
        kLp, Peek().line,
        absl::StrCat("a second constraint sense after '", TextSince(start),
                     "': ranged constraints are not supported, "
                     "write two constraints"));
  }
  left.AddScaled(right, -1);
  const double constant = left.constant();
  left.AddConstant(-constant);
  *constraint.mutable_lhs() = left.Build();
  constraint.set_rhs(-constant);
  if (constraint.lhs().terms().empty()) {
    return LineError(
        kLp, line,
        absl::StrCat("constraint '", constraint.name(), "' has no variables"));
  }
  constraints_.push_back(std::move(constraint));
  constraint_lines_.push_back(line);
  return absl::OkStatus();
}

// Terms joined by '+' and '-'. A right-hand side ends with its line, so that
// a term on the next line starts the next constraint.
absl::Status LpReader::ReadExpression(PolynomialBuilder& poly, bool objective,
                                      bool rhs) {
  const size_t start = pos_;
  bool first = true;
  while (!AtStatementEnd()) {
    const Token& head = Peek();
    if (rhs && !first && head.line != tokens_[pos_ - 1].line) break;
    double sign = 1;
    bool signed_term = false;
    while (Peek().kind == Tok::kPlus || Peek().kind == Tok::kMinus) {
      if (Next().kind == Tok::kMinus) sign = -sign;
      signed_term = true;
    }
    if (!first && !signed_term) {
      if (rhs) break;
      return Expected(objective ? "'+', '-' or a section"
                                : "'+', '-' or a constraint sense",
                      start);
    }
    first = false;
    absl::Status s = Peek().kind == Tok::kOpen
                         ? ReadBracket(poly, sign, objective, start)
                         : ReadTerm(poly, sign, start);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

// [number] [variable]: a variable takes a coefficient only on its own line.
absl::Status LpReader::ReadTerm(PolynomialBuilder& poly, double sign,
                                size_t start) {
  double coefficient = sign;
  bool has_number = false;
  if (Peek().kind == Tok::kNumber) {
    coefficient *= Next().number;
    has_number = true;
  }
  const Token& token = Peek();
  const bool variable_here =
      token.kind == Tok::kName && !AtStatementEnd() &&
      (!has_number || token.line == tokens_[pos_ - 1].line);
  if (variable_here) {
    poly.Add(coefficient, {Variable(Next())});
  } else if (has_number) {
    poly.AddConstant(coefficient);
  } else {
    return Expected("a number or a variable", start);
  }
  return absl::OkStatus();
}

// "[ 2 x * y - x ^ 2 ]", then "/ 2" in the objective (CPLEX's convention: the
// bracket holds twice the objective's quadratic part).
absl::Status LpReader::ReadBracket(PolynomialBuilder& poly, double sign,
                                   bool objective, size_t start) {
  Next();
  PolynomialBuilder inside;
  while (Peek().kind != Tok::kClose) {
    double coefficient = 1;
    while (Peek().kind == Tok::kPlus || Peek().kind == Tok::kMinus)
      if (Next().kind == Tok::kMinus) coefficient = -coefficient;
    if (Peek().kind == Tok::kNumber) coefficient *= Next().number;
    if (Peek().kind != Tok::kName)
      return Expected("a variable in the quadratic part", start);
    const uint32_t x = Variable(Next());
    if (Peek().kind == Tok::kTimes) {
      Next();
      if (Peek().kind != Tok::kName)
        return Expected("a variable after '*'", start);
      inside.Add(coefficient, {x, Variable(Next())});
    } else if (Peek().kind == Tok::kPower) {
      Next();
      if (Peek().kind != Tok::kNumber || Peek().number != 2)
        return Expected("2 after '^'", start);
      Next();
      inside.Add(coefficient, {x, x});
    } else {
      return Expected("'*' or '^ 2' (the bracket holds products)", start);
    }
  }
  Next();
  double factor = sign;
  if (objective) {
    if (Peek().kind != Tok::kSlash || Peek(1).kind != Tok::kNumber ||
        Peek(1).number != 2)
      return Expected("'/ 2' closing the objective's quadratic part", start);
    Next();
    Next();
    factor /= 2;
  }
  poly.AddScaled(inside, factor);
  return absl::OkStatus();
}

absl::Status LpReader::ReadBounds() {
  while (SectionHere() == Section::kNone) {
    if (auto s = ReadBound(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

bool IsInfinityWord(const Token& token) {
  return token.kind == Tok::kName &&
         (absl::EqualsIgnoreCase(token.text, "inf") ||
          absl::EqualsIgnoreCase(token.text, "infinity"));
}

absl::StatusOr<double> LpReader::ReadBoundValue(size_t start) {
  double sign = 1;
  while (Peek().kind == Tok::kPlus || Peek().kind == Tok::kMinus)
    if (Next().kind == Tok::kMinus) sign = -sign;
  if (Peek().kind == Tok::kNumber) {
    const double value = sign * Next().number;
    if (value >= kLpInfinity) return kInfinity;
    if (value <= -kLpInfinity) return -kInfinity;
    return value;
  }
  if (IsInfinityWord(Peek())) {
    Next();
    return sign * kInfinity;
  }
  return Expected("a bound value (a number, inf or -inf)", start);
}

void SetBound(VariableInfo& info, v1::ConstraintSense sense, double value,
              bool variable_on_left, int line) {
  if (sense == v1::CONSTRAINT_EQUAL) {
    info.lower = info.upper = value;
  } else if ((sense == v1::CONSTRAINT_LESS_EQUAL) == variable_on_left) {
    info.upper = value;
  } else {
    info.lower = value;
  }
  info.bounded = true;
  info.bound_line = line;
}

// "l <= x <= u", "x <= u", "x >= l", "x = v", "l <= x", "x free".
absl::Status LpReader::ReadBound() {
  const size_t start = pos_;
  const int line = Peek().line;
  constexpr absl::string_view kForms =
      "a bound (l <= x <= u, x <= u, x >= l, x = v or x free)";
  if (Peek().kind == Tok::kName && !IsInfinityWord(Peek())) {
    const uint32_t x = Variable(Next());
    if (Peek().kind == Tok::kName &&
        absl::EqualsIgnoreCase(Peek().text, "free")) {
      Next();
      info_[x].lower = -kInfinity;
      info_[x].upper = kInfinity;
      info_[x].bounded = true;
      info_[x].bound_line = line;
      return absl::OkStatus();
    }
    if (Peek().kind != Tok::kSense) return Expected(kForms, start);
    const v1::ConstraintSense sense = Next().sense;
    auto value = ReadBoundValue(start);
    if (!value.ok()) return value.status();
    SetBound(info_[x], sense, *value, true, line);
    return absl::OkStatus();
  }
  auto value = ReadBoundValue(start);
  if (!value.ok()) return value.status();
  if (Peek().kind != Tok::kSense) return Expected(kForms, start);
  const v1::ConstraintSense sense = Next().sense;
  if (Peek().kind != Tok::kName) return Expected("a variable", start);
  const uint32_t x = Variable(Next());
  SetBound(info_[x], sense, *value, false, line);
  if (Peek().kind == Tok::kSense && Peek().line == line) {
    const v1::ConstraintSense second = Next().sense;
    auto upper = ReadBoundValue(start);
    if (!upper.ok()) return upper.status();
    SetBound(info_[x], second, *upper, true, line);
  }
  return absl::OkStatus();
}

absl::Status LpReader::ReadTypes(Section type) {
  while (SectionHere() == Section::kNone) {
    if (Peek().kind != Tok::kName) return Expected("a variable name", pos_);
    info_[Variable(Next())].type = type;
  }
  return absl::OkStatus();
}

absl::Status VariableError(int line, absl::string_view name,
                           absl::string_view message) {
  return LineError(kLp, line, absl::StrCat("variable '", name, "' ", message));
}

absl::StatusOr<v1::ModelVariable> FinishVariable(const std::string& name,
                                                 const VariableInfo& info,
                                                 int first_line) {
  v1::ModelVariable variable;
  variable.set_name(name);
  const int line = info.bounded ? info.bound_line : first_line;
  if (info.type == Section::kBinary) {
    if (info.bounded && (info.lower > 0 || info.upper < 1))
      return VariableError(
          line, name,
          absl::StrCat("is binary with bounds [", ExactNumber(info.lower), ", ",
                       ExactNumber(info.upper),
                       "]; binaries take [0, 1] only"));
    return variable;
  }
  if (info.type != Section::kGeneral) {
    return VariableError(first_line, name,
                         "is continuous (not in a Binary or General section); "
                         "the model kind takes binary and integer variables "
                         "only");
  }
  if (!std::isfinite(info.lower) || !std::isfinite(info.upper)) {
    return VariableError(line, name,
                         "is a general integer without finite bounds; give "
                         "both in Bounds (l <= x <= u)");
  }
  const double lower = std::ceil(info.lower - 1e-9);
  const double upper = std::floor(info.upper + 1e-9);
  if (lower > upper)
    return VariableError(line, name, "has no integer between its bounds");
  if (lower == 0 && upper == 1) return variable;
  variable.set_type(v1::MODEL_VARIABLE_INTEGER);
  variable.set_lower(static_cast<int64_t>(lower));
  variable.set_upper(static_cast<int64_t>(upper));
  return variable;
}

absl::Status LpReader::Finish(v1::ConstrainedModel& model) {
  model.set_sense(sense_);
  for (uint32_t v = 0; v < variables_.size(); ++v) {
    auto variable =
        FinishVariable(variables_.name(v), info_[v], variables_.first_line(v));
    if (!variable.ok()) return variable.status();
    *model.add_variables() = *std::move(variable);
  }
  *model.mutable_objective() = objective_.Build();
  absl::flat_hash_set<std::string> names;
  for (size_t k = 0; k < constraints_.size(); ++k) {
    if (!names.insert(constraints_[k].name()).second) {
      return LineError(kLp, constraint_lines_[k],
                       absl::StrCat("constraint name '", constraints_[k].name(),
                                    "' is used twice"));
    }
    *model.add_constraints() = std::move(constraints_[k]);
  }
  return absl::OkStatus();
}

// --- Writer ---

bool IsLpName(absl::string_view name) {
  if (name.empty() || !IsNameStart(name[0])) return false;
  for (char c : name)
    if (!IsNameChar(c)) return false;
  const Token token{Tok::kName, std::string(name)};
  return SectionOf(name, "") == Section::kNone && !IsInfinityWord(token) &&
         !absl::EqualsIgnoreCase(name, "free");
}

// Pieces of an expression ("+ 3 x", "[", "- 4 x * y", "] / 2"), joined into
// lines of about 80 characters.
class LineWriter {
 public:
  explicit LineWriter(std::string* out) : out_(out) {}
  void Add(absl::string_view piece) {
    if (width_ > 0 && width_ + piece.size() > 78) {
      absl::StrAppend(out_, "\n   ");
      width_ = 3;
    } else if (width_ > 0) {
      absl::StrAppend(out_, " ");
      ++width_;
    }
    absl::StrAppend(out_, piece);
    width_ += piece.size();
  }
  void Start(absl::string_view head) {
    absl::StrAppend(out_, head);
    width_ = head.size();
  }
  void EndLine() {
    absl::StrAppend(out_, "\n");
    width_ = 0;
  }

 private:
  std::string* out_;
  size_t width_ = 0;
};

std::string Signed(double coefficient, absl::string_view product) {
  const double magnitude = std::abs(coefficient);
  return absl::StrCat(
      coefficient < 0 ? "- " : "+ ",
      magnitude == 1 && !product.empty()
          ? ""
          : absl::StrCat(ExactNumber(magnitude), product.empty() ? "" : " "),
      product);
}

// Writes the polynomial's terms (no constant); `quadratic_factor` is 2 in the
// objective ("[ ... ] / 2") and 1 in constraints.
absl::Status WriteTerms(const v1::ConstrainedModel& model,
                        const v1::ModelPolynomial& poly,
                        double quadratic_factor, LineWriter& line) {
  bool any = false;
  // The first piece goes without its '+'.
  auto add = [&line, first = true](std::string piece) mutable {
    if (first && absl::StartsWith(piece, "+ ")) piece = piece.substr(2);
    first = false;
    line.Add(piece);
  };
  for (const v1::ModelTerm& term : poly.terms()) {
    if (term.variables_size() == 1) {
      add(Signed(term.coefficient(),
                 model.variables(term.variables(0)).name()));
      any = true;
    } else if (term.variables_size() > 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "lp: a term of degree ", term.variables_size(),
          " cannot be written in LP (WriteLinearizedMilp linearizes it)"));
    }
  }
  bool open = false;
  for (const v1::ModelTerm& term : poly.terms()) {
    if (term.variables_size() != 2) continue;
    if (!open) add("+ [");
    open = true;
    const std::string& a = model.variables(term.variables(0)).name();
    const std::string& b = model.variables(term.variables(1)).name();
    add(Signed(term.coefficient() * quadratic_factor,
               a == b ? absl::StrCat(a, " ^ 2") : absl::StrCat(a, " * ", b)));
  }
  if (open) line.Add(quadratic_factor == 2 ? "] / 2" : "]");
  if (!any && !open) {
    if (model.variables().empty()) return absl::OkStatus();
    // LP has no empty expression: a zero term stands for it.
    line.Add(absl::StrCat("0 ", model.variables(0).name()));
  }
  return absl::OkStatus();
}

absl::Status CheckLpNames(const v1::ConstrainedModel& model) {
  for (const v1::ModelVariable& variable : model.variables()) {
    if (!IsLpName(variable.name()))
      return absl::InvalidArgumentError(absl::StrCat(
          "lp: '", variable.name(), "' is not a name LP can hold"));
    if (variable.type() == v1::MODEL_VARIABLE_SPIN)
      return absl::InvalidArgumentError(absl::StrCat(
          "lp: '", variable.name(),
          "' is a spin variable, which LP cannot hold (WriteLinearizedMilp "
          "writes it as 2 b - 1)"));
  }
  for (const v1::ModelConstraint& constraint : model.constraints()) {
    if (!constraint.name().empty() && !IsLpName(constraint.name()))
      return absl::InvalidArgumentError(
          absl::StrCat("lp: '", constraint.name(),
                       "' is not a constraint name LP can hold"));
  }
  return absl::OkStatus();
}

absl::Status WriteConstraints(const v1::ConstrainedModel& model,
                              std::string& out) {
  if (model.constraints().empty()) return absl::OkStatus();
  absl::StrAppend(&out, "Subject To\n");
  LineWriter line(&out);
  for (int k = 0; k < model.constraints_size(); ++k) {
    const v1::ModelConstraint& constraint = model.constraints(k);
    if (constraint.sense() == v1::CONSTRAINT_SENSE_UNSPECIFIED)
      return absl::InvalidArgumentError(absl::StrCat(
          "lp: constraint '", constraint.name(), "' has no sense"));
    line.Start(absl::StrCat(" ",
                            constraint.name().empty() ? absl::StrCat("c", k + 1)
                                                      : constraint.name(),
                            ":"));
    if (auto s = WriteTerms(model, constraint.lhs(), 1, line); !s.ok())
      return s;
    line.Add(absl::StrCat(
        model_text::SenseText(constraint.sense(), "="), " ",
        ExactNumber(constraint.rhs() - constraint.lhs().constant())));
    line.EndLine();
  }
  return absl::OkStatus();
}

void WriteVariableSections(const v1::ConstrainedModel& model,
                           std::string& out) {
  std::vector<absl::string_view> binaries, generals;
  std::string bounds;
  for (const v1::ModelVariable& variable : model.variables()) {
    if (variable.type() != v1::MODEL_VARIABLE_INTEGER) {
      binaries.push_back(variable.name());
      continue;
    }
    generals.push_back(variable.name());
    absl::StrAppend(&bounds, " ", variable.lower(), " <= ", variable.name(),
                    " <= ", variable.upper(), "\n");
  }
  if (!bounds.empty()) absl::StrAppend(&out, "Bounds\n", bounds);
  for (const auto& [title, names] :
       {std::pair{"Binaries", &binaries}, std::pair{"Generals", &generals}}) {
    if (names->empty()) continue;
    absl::StrAppend(&out, title, "\n");
    LineWriter line(&out);
    line.Start(absl::StrCat(" ", names->front()));
    for (size_t k = 1; k < names->size(); ++k) line.Add((*names)[k]);
    line.EndLine();
  }
}

}  // namespace

absl::StatusOr<v1::ConstrainedModel> ParseModelLp(absl::string_view text) {
  Lexer lexer(text);
  auto tokens = lexer.Run();
  if (!tokens.ok()) return tokens.status();
  LpReader reader(*std::move(tokens));
  return reader.Read(lexer.problem_name());
}

absl::StatusOr<std::string> WriteModelLp(const v1::ConstrainedModel& model) {
  if (auto s = model_text::CheckWritable(model, kLp); !s.ok()) return s;
  if (auto s = CheckLpNames(model); !s.ok()) return s;
  std::string out;
  if (!model.name().empty())
    absl::StrAppend(&out, "\\Problem name: ", model.name(), "\n");
  absl::StrAppend(&out,
                  model.sense() == v1::MAXIMIZE ? "Maximize\n" : "Minimize\n");
  LineWriter line(&out);
  line.Start(" obj:");
  if (auto s = WriteTerms(model, model.objective(), 2, line); !s.ok()) return s;
  if (model.objective().constant() != 0)
    line.Add(Signed(model.objective().constant(), ""));
  line.EndLine();
  if (auto s = WriteConstraints(model, out); !s.ok()) return s;
  WriteVariableSections(model, out);
  absl::StrAppend(&out, "End\n");
  return out;
}

}  // namespace qs::formats
