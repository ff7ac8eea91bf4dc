// The model kind's text format: which reader a text goes to (ParseModelText,
// DetectModelFormat), the board "name=value ..." of a model, the kind's
// registration, and the helpers the readers and writers share
// (formats/model_text_internal.h). The readers and writers themselves are in
// model_lp_text.cc, model_opb_text.cc, model_qplib_text.cc and
// model_milp_text.cc; docs/model-formats.md describes them.
#include "formats/model_text.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "formats/model_text_internal.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace model_text {

void PolynomialBuilder::Add(double coefficient,
                            std::vector<uint32_t> variables) {
  if (variables.empty()) {
    constant_ += coefficient;
    return;
  }
  std::sort(variables.begin(), variables.end());
  auto [it, inserted] = index_.try_emplace(variables, terms_.size());
  if (inserted) {
    terms_.emplace_back(std::move(variables), coefficient);
  } else {
    terms_[it->second].second += coefficient;
  }
}

void PolynomialBuilder::AddScaled(const PolynomialBuilder& other,
                                  double factor) {
  for (const auto& [variables, coefficient] : other.terms_)
    Add(coefficient * factor, variables);
  constant_ += other.constant_ * factor;
}

v1::ModelPolynomial PolynomialBuilder::Build() const {
  v1::ModelPolynomial polynomial;
  for (const auto& [variables, coefficient] : terms_) {
    if (coefficient == 0) continue;
    v1::ModelTerm& term = *polynomial.add_terms();
    term.set_coefficient(coefficient);
    for (uint32_t v : variables) term.add_variables(v);
  }
  polynomial.set_constant(constant_);
  return polynomial;
}

uint32_t VariableTable::Index(absl::string_view name, int line) {
  auto [it, inserted] =
      index_.try_emplace(name, static_cast<uint32_t>(names_.size()));
  if (inserted) {
    names_.emplace_back(name);
    lines_.push_back(line);
  }
  return it->second;
}

namespace {

absl::Status CheckPolynomial(const v1::ModelPolynomial& polynomial,
                             int variables, absl::string_view format,
                             absl::string_view where) {
  for (const v1::ModelTerm& term : polynomial.terms()) {
    for (uint32_t v : term.variables()) {
      if (v >= static_cast<uint32_t>(variables)) {
        return absl::InvalidArgumentError(
            absl::StrCat(format, ": ", where, " names variable ", v,
                         " of a model with ", variables));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckWritable(const v1::ConstrainedModel& model,
                           absl::string_view format) {
  if (!model.text().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        format, ": the model is text; read it with ParseModelText first"));
  }
  absl::flat_hash_set<std::string> names;
  for (const v1::ModelVariable& variable : model.variables()) {
    if (variable.name().empty() || !names.insert(variable.name()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(format, ": variable name '", variable.name(),
                       "' is empty or used twice"));
    }
  }
  const int n = model.variables_size();
  if (auto s = CheckPolynomial(model.objective(), n, format, "the objective");
      !s.ok())
    return s;
  for (const v1::ModelConstraint& constraint : model.constraints()) {
    if (auto s = CheckPolynomial(
            constraint.lhs(), n, format,
            absl::StrCat("constraint '", constraint.name(), "'"));
        !s.ok())
      return s;
  }
  if (model.one_hot_size() > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(format,
                     ": one-hot groups have no text form; write them as "
                     "constraints (sum = 1 or sum <= 1)"));
  }
  return absl::OkStatus();
}

double Evaluate(const v1::ModelPolynomial& polynomial,
                std::span<const int64_t> values) {
  double sum = polynomial.constant();
  for (const v1::ModelTerm& term : polynomial.terms()) {
    double product = term.coefficient();
    for (uint32_t v : term.variables()) product *= values[v];
    sum += product;
  }
  return sum;
}

absl::string_view SenseText(v1::ConstraintSense sense,
                            absl::string_view equal) {
  switch (sense) {
    case v1::CONSTRAINT_LESS_EQUAL:
      return "<=";
    case v1::CONSTRAINT_GREATER_EQUAL:
      return ">=";
    default:
      return equal;
  }
}

}  // namespace model_text

namespace {

constexpr absl::string_view kMinMaxWords[] = {
    "minimize", "minimise", "minimum", "min",
    "maximize", "maximise", "maximum", "max"};

// Lines with comments ('\' in LP, '*' in OPB, '#' in QPLIB) cut off, blank
// ones left out.
std::vector<std::string> MeaningfulLines(absl::string_view text, size_t limit) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = line.substr(0, line.find_first_of("\\#"));
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '*' || line[0] == '!' || line[0] == '%')
      continue;
    lines.emplace_back(line);
    if (lines.size() == limit) break;
  }
  return lines;
}

bool IsQplibType(absl::string_view code) {
  return code.size() == 3 && absl::StrContains("LDCQ", code[0]) &&
         absl::StrContains("CBMIG", code[1]) &&
         absl::StrContains("NBLDCQ", code[2]);
}

bool LooksLikeOpb(absl::string_view text, const std::string& first) {
  if (absl::StrContains(text, "#variable=")) return true;
  if (absl::StartsWith(first, "min:") || absl::StartsWith(first, "max:"))
    return true;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty() && line[0] != '*' && line.back() == ';') return true;
  }
  return false;
}

absl::Status ModelError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("model: ", message));
}

// The length of the UTF-8 sequence at text[i], or 0 when it is malformed
// (a stray continuation byte, a truncated sequence, an overlong form, a
// surrogate or a code point past U+10FFFF).
size_t Utf8SequenceAt(absl::string_view text, size_t i) {
  const auto byte = [&](size_t k) {
    return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u;
  };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

// The model's names end up in string fields of the wire messages, which
// must hold UTF-8: a text that is not is refused here, naming the line,
// rather than yielding a model no client can send.
absl::Status CheckUtf8(absl::string_view text) {
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceAt(text, i);
    if (length == 0) {
      return ModelError(
          absl::StrCat("line ", line, ": invalid UTF-8 (byte 0x",
                       absl::Hex(static_cast<unsigned char>(text[i])),
                       "); the text must be UTF-8"));
    }
    if (text[i] == '\n') ++line;
    i += length;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::ModelFormat> DetectModelFormat(absl::string_view text) {
  const std::vector<std::string> lines = MeaningfulLines(text, 2);
  if (lines.empty()) return ModelError("the text is empty");
  const std::string first_word =
      absl::AsciiStrToLower(lines[0].substr(0, lines[0].find_first_of(" \t")));
  for (absl::string_view word : kMinMaxWords) {
    if (first_word == word) return v1::MODEL_FORMAT_LP;
  }
  if (LooksLikeOpb(text, first_word)) return v1::MODEL_FORMAT_OPB;
  if (lines.size() == 2 &&
      IsQplibType(lines[1].substr(0, lines[1].find_first_of(" \t"))))
    return v1::MODEL_FORMAT_QPLIB;
  return ModelError(
      "cannot tell the format: expected LP (a first line Minimize or "
      "Maximize), OPB (a '* #variable=' header, 'min:' or lines ending in "
      "';') or QPLIB (a name line, then a problem type such as QBL)");
}

absl::StatusOr<v1::ConstrainedModel> ParseModelText(absl::string_view text,
                                                    v1::ModelFormat format) {
  if (absl::Status utf8 = CheckUtf8(text); !utf8.ok()) return utf8;
  if (format == v1::MODEL_FORMAT_UNSPECIFIED) {
    auto detected = DetectModelFormat(text);
    if (!detected.ok()) return detected.status();
    format = *detected;
  }
  switch (format) {
    case v1::MODEL_FORMAT_LP:
      return ParseModelLp(text);
    case v1::MODEL_FORMAT_OPB:
      return ParseModelOpb(text);
    case v1::MODEL_FORMAT_QPLIB:
      return ParseModelQplib(text);
    default:
      return ModelError(absl::StrCat("unknown format ", format));
  }
}

absl::StatusOr<v1::PuzzleSpec> ParseModelPuzzleText(absl::string_view text) {
  auto model = ParseModelText(text, v1::MODEL_FORMAT_UNSPECIFIED);
  if (!model.ok()) return model.status();
  v1::PuzzleSpec spec;
  *spec.mutable_model() = *std::move(model);
  return spec;
}

namespace {

// The puzzle's model, read from its text when it holds one.
absl::StatusOr<v1::ConstrainedModel> StructuredModel(
    const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_model()) return ModelError("the puzzle is not a model");
  if (puzzle.model().text().empty()) return puzzle.model();
  return ParseModelText(puzzle.model().text(), puzzle.model().format());
}

absl::Status CheckValue(const v1::ModelVariable& variable, int64_t value) {
  bool ok = false;
  switch (variable.type()) {
    case v1::MODEL_VARIABLE_SPIN:
      ok = value == -1 || value == 1;
      break;
    case v1::MODEL_VARIABLE_INTEGER:
      ok = value >= variable.lower() && value <= variable.upper();
      break;
    default:
      ok = value == 0 || value == 1;
  }
  if (ok) return absl::OkStatus();
  return ModelError(absl::StrCat("board: ", variable.name(), "=", value,
                                 " is outside the variable's domain"));
}

// name=value pairs by name; INVALID_ARGUMENT for a malformed or repeated one.
absl::StatusOr<absl::flat_hash_map<std::string, int64_t>> BoardValues(
    absl::string_view text) {
  absl::flat_hash_map<std::string, int64_t> values;
  for (absl::string_view pair :
       absl::StrSplit(text, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty())) {
    const size_t eq = pair.find('=');
    int64_t value;
    if (eq == absl::string_view::npos ||
        !absl::SimpleAtoi(pair.substr(eq + 1), &value)) {
      return ModelError(
          absl::StrCat("board: expected name=value, got '", pair, "'"));
    }
    if (!values.emplace(pair.substr(0, eq), value).second) {
      return ModelError(
          absl::StrCat("board: '", pair.substr(0, eq), "' is given twice"));
    }
  }
  return values;
}

}  // namespace

absl::StatusOr<v1::PuzzleSolution> ParseModelBoard(const v1::PuzzleSpec& puzzle,
                                                   absl::string_view text) {
  auto model = StructuredModel(puzzle);
  if (!model.ok()) return model.status();
  auto values = BoardValues(text);
  if (!values.ok()) return values.status();
  v1::PuzzleSolution board;
  std::vector<std::string> missing, row;
  std::vector<int64_t> cells;
  for (const v1::ModelVariable& variable : model->variables()) {
    auto it = values->find(variable.name());
    if (it == values->end()) {
      missing.push_back(variable.name());
      continue;
    }
    if (auto s = CheckValue(variable, it->second); !s.ok()) return s;
    board.add_names(variable.name());
    board.add_cells(static_cast<int32_t>(it->second));
    cells.push_back(it->second);
    row.push_back(absl::StrCat(variable.name(), "=", it->second));
    values->erase(it);
  }
  if (!missing.empty()) {
    return ModelError(
        absl::StrCat("board: no value for ", absl::StrJoin(missing, ", ")));
  }
  if (!values->empty()) {
    return ModelError(absl::StrCat("board: '", values->begin()->first,
                                   "' is not a variable of the model"));
  }
  board.add_rows(absl::StrJoin(row, " "));
  board.set_height(1);
  board.set_width(static_cast<uint32_t>(cells.size()));
  board.set_objective(model_text::Evaluate(model->objective(), cells));
  return board;
}

absl::StatusOr<std::string> FormatModelText(const v1::PuzzleSpec& puzzle) {
  auto model = StructuredModel(puzzle);
  if (!model.ok()) return model.status();
  return WriteModelLp(*model);
}

TextFormat ModelTextFormat() {
  return {"model",
          &ParseModelPuzzleText,
          &ParseModelBoard,
          &FormatModelText,
          "a constrained model (binary, integer variables; objective and "
          "named constraints) in LP, OPB or QPLIB text, told from the first "
          "lines; boards are name=value pairs",
          "\\ choose two of three items, cheapest first\n"
          "Minimize\n"
          " obj: 3 x + 2 y + 4 z\n"
          "Subject To\n"
          " two: x + y + z = 2\n"
          "Binary\n"
          " x y z\n"
          "End\n"};
}

}  // namespace qs::formats
