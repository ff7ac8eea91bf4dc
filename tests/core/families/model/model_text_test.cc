// The model kind's text formats: every LP feature, OPB with products and
// negations, QPLIB's binary types with the 1/2 convention and two-sided
// constraints, errors that name their line, LP and OPB round trips, the
// linearized MILP checked against the model on every assignment, and the
// kind's registration (parse, board, writer).
#include "formats/model_text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace qs::formats {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// --- A tiny evaluator of models ---

double Value(const v1::ModelPolynomial& poly,
             const std::vector<int64_t>& values) {
  double sum = poly.constant();
  for (const v1::ModelTerm& term : poly.terms()) {
    double product = term.coefficient();
    for (uint32_t v : term.variables()) product *= values[v];
    sum += product;
  }
  return sum;
}

bool Feasible(const v1::ConstrainedModel& model,
              const std::vector<int64_t>& values) {
  for (const v1::ModelConstraint& c : model.constraints()) {
    const double lhs = Value(c.lhs(), values);
    const bool ok =
        c.sense() == v1::CONSTRAINT_EQUAL ? std::abs(lhs - c.rhs()) < 1e-9
        : c.sense() == v1::CONSTRAINT_LESS_EQUAL ? lhs <= c.rhs() + 1e-9
                                                 : lhs >= c.rhs() - 1e-9;
    if (!ok) return false;
  }
  for (const v1::OneHotConstraint& group : model.one_hot()) {
    int64_t sum = 0;
    for (uint32_t v : group.variables()) sum += values[v];
    if (group.at_most_one() ? sum > 1 : sum != 1) return false;
  }
  return true;
}

std::vector<int64_t> Domain(const v1::ModelVariable& variable) {
  switch (variable.type()) {
    case v1::MODEL_VARIABLE_SPIN:
      return {-1, 1};
    case v1::MODEL_VARIABLE_INTEGER: {
      std::vector<int64_t> values;
      for (int64_t x = variable.lower(); x <= variable.upper(); ++x)
        values.push_back(x);
      return values;
    }
    default:
      return {0, 1};
  }
}

// Calls `visit` with every assignment of the model's variables.
void ForEachAssignment(
    const v1::ConstrainedModel& model,
    const std::function<void(const std::vector<int64_t>&)>& visit) {
  std::vector<int64_t> values(model.variables_size());
  std::function<void(int)> fill = [&](int v) {
    if (v == model.variables_size()) {
      visit(values);
      return;
    }
    for (int64_t x : Domain(model.variables(v))) {
      values[v] = x;
      fill(v + 1);
    }
  };
  fill(0);
}

// Two models over the same variable names agree on feasibility and, where
// feasible, on the objective, at every assignment.
void ExpectEquivalent(const v1::ConstrainedModel& a,
                      const v1::ConstrainedModel& b) {
  ASSERT_EQ(a.variables_size(), b.variables_size());
  absl::flat_hash_map<std::string, int> in_b;
  for (int v = 0; v < b.variables_size(); ++v) in_b[b.variables(v).name()] = v;
  EXPECT_EQ(a.sense(), b.sense());
  int feasible = 0;
  ForEachAssignment(a, [&](const std::vector<int64_t>& x) {
    std::vector<int64_t> y(x.size());
    for (int v = 0; v < a.variables_size(); ++v)
      y[in_b.at(a.variables(v).name())] = x[v];
    ASSERT_EQ(Feasible(a, x), Feasible(b, y));
    if (Feasible(a, x)) {
      ++feasible;
      EXPECT_DOUBLE_EQ(Value(a.objective(), x), Value(b.objective(), y));
    }
  });
  EXPECT_GT(feasible, 0);
}

v1::ConstrainedModel MustParse(
    absl::string_view text,
    v1::ModelFormat format = v1::MODEL_FORMAT_UNSPECIFIED) {
  absl::StatusOr<v1::ConstrainedModel> model = ParseModelText(text, format);
  EXPECT_TRUE(model.ok()) << model.status() << "\n" << text;
  return model.ok() ? *model : v1::ConstrainedModel();
}

std::string ErrorOf(absl::string_view text,
                    v1::ModelFormat format = v1::MODEL_FORMAT_UNSPECIFIED) {
  absl::StatusOr<v1::ConstrainedModel> model = ParseModelText(text, format);
  EXPECT_FALSE(model.ok()) << text;
  if (model.ok()) return "";
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(model.status().message());
}

// "2 x*y" style descriptions of a polynomial's terms, by variable name.
std::vector<std::string> Terms(const v1::ConstrainedModel& model,
                               const v1::ModelPolynomial& poly) {
  std::vector<std::string> out;
  for (const v1::ModelTerm& term : poly.terms()) {
    std::string text = absl::StrCat(term.coefficient(), " ");
    for (int k = 0; k < term.variables_size(); ++k) {
      absl::StrAppend(&text, k > 0 ? "*" : "",
                      model.variables(term.variables(k)).name());
    }
    out.push_back(text);
  }
  return out;
}

std::vector<std::string> Names(const v1::ConstrainedModel& model) {
  std::vector<std::string> names;
  for (const v1::ModelVariable& variable : model.variables())
    names.push_back(variable.name());
  return names;
}

// --- LP ---

// Every feature of the LP subset at once.
constexpr absl::string_view kFullLp = R"(\Problem name: knap
\ a comment on its own line
MAXIMIZE
 profit: 3 x + 2 y - z   \ a comment after terms
   + [ 4 x * y + 2 z ^ 2 ] / 2 + 7
Subject To
 cap: 2 x + 3 y
      + 4 z + n <= 5 + 1
 -x - y >= -2
 eq: 3 + x = y + 2
 quad: [ x * y ] + z =< 1
 g1: x + n => 1
 l1: x < 1
 g2: n > 0
Bounds
 0 <= n <= 4
 -2 <= m <= 3
 k >= 1
 k <= 3
 j = 2
 b free
 -inf <= w <= +infinity
Binaries
 x y z b
Generals
 n m k j
End
)";

constexpr absl::string_view kWithoutW = "-inf <= w <= +infinity\n";

std::string FullLpWithoutW() {
  std::string text(kFullLp);
  text.erase(text.find(std::string(kWithoutW)), kWithoutW.size());
  return text;
}

TEST(ModelLp, RefusesAContinuousVariableNamingItsFirstLine) {
  EXPECT_EQ(ErrorOf(kFullLp),
            "lp line 22: variable 'w' is continuous (not in a Binary or "
            "General section); the model kind takes binary and integer "
            "variables only");
}

TEST(ModelLp, ReadsEveryFeatureExactly) {
  const v1::ConstrainedModel model = MustParse(FullLpWithoutW());
  EXPECT_EQ(model.name(), "knap");
  EXPECT_EQ(model.sense(), v1::MAXIMIZE);
  EXPECT_THAT(Names(model),
              ElementsAre("x", "y", "z", "n", "m", "k", "j", "b"));
  // The bracket holds twice the quadratic part: 4 x*y / 2, 2 z^2 / 2.
  EXPECT_THAT(Terms(model, model.objective()),
              ElementsAre("3 x", "2 y", "-1 z", "2 x*y", "1 z*z"));
  EXPECT_EQ(model.objective().constant(), 7);
  const auto& v = model.variables();
  EXPECT_EQ(v[0].type(), v1::MODEL_VARIABLE_BINARY);
  EXPECT_EQ(v[7].type(), v1::MODEL_VARIABLE_BINARY);  // b: free, then binary
  EXPECT_EQ(v[3].type(), v1::MODEL_VARIABLE_INTEGER);
  EXPECT_EQ(v[3].lower(), 0);
  EXPECT_EQ(v[3].upper(), 4);
  EXPECT_EQ(v[4].lower(), -2);
  EXPECT_EQ(v[4].upper(), 3);
  EXPECT_EQ(v[5].lower(), 1);
  EXPECT_EQ(v[5].upper(), 3);
  EXPECT_EQ(v[6].lower(), 2);
  EXPECT_EQ(v[6].upper(), 2);

  ASSERT_EQ(model.constraints_size(), 7);
  std::vector<std::string> names;
  for (const auto& c : model.constraints()) names.push_back(c.name());
  // The unnamed second constraint is "c2".
  EXPECT_THAT(names, ElementsAre("cap", "c2", "eq", "quad", "g1", "l1", "g2"));
  const auto& cap = model.constraints(0);
  EXPECT_THAT(Terms(model, cap.lhs()), ElementsAre("2 x", "3 y", "4 z", "1 n"));
  EXPECT_EQ(cap.sense(), v1::CONSTRAINT_LESS_EQUAL);
  EXPECT_EQ(cap.rhs(), 6);  // 5 + 1
  EXPECT_EQ(model.constraints(1).sense(), v1::CONSTRAINT_GREATER_EQUAL);
  EXPECT_EQ(model.constraints(1).rhs(), -2);
  // 3 + x = y + 2: x - y = -1.
  const auto& eq = model.constraints(2);
  EXPECT_THAT(Terms(model, eq.lhs()), ElementsAre("1 x", "-1 y"));
  EXPECT_EQ(eq.sense(), v1::CONSTRAINT_EQUAL);
  EXPECT_EQ(eq.rhs(), -1);
  EXPECT_EQ(eq.lhs().constant(), 0);
  // No "/ 2" in constraints.
  EXPECT_THAT(Terms(model, model.constraints(3).lhs()),
              ElementsAre("1 x*y", "1 z"));
  EXPECT_EQ(model.constraints(3).sense(), v1::CONSTRAINT_LESS_EQUAL);
  EXPECT_EQ(model.constraints(4).sense(), v1::CONSTRAINT_GREATER_EQUAL);
  EXPECT_EQ(model.constraints(5).sense(), v1::CONSTRAINT_LESS_EQUAL);
  EXPECT_EQ(model.constraints(6).sense(), v1::CONSTRAINT_GREATER_EQUAL);
  // Compile choices stay at their defaults.
  EXPECT_EQ(model.integer_encoding(), v1::INTEGER_ENCODING_DEFAULT);
  EXPECT_FALSE(model.has_penalty());
}

TEST(ModelLp, TakesEverySpellingOfTheKeywords) {
  const v1::ConstrainedModel reference = MustParse(
      "Minimize\n obj: x + 2 n\nSubject To\n c1: x + n >= 1\nBounds\n n <= 3\n"
      "Binary\n x\nGeneral\n n\nEnd\n");
  const std::vector<std::vector<std::string>> spellings = {
      {"minimize", "subject to", "bounds", "binary", "general", "end"},
      {"MINIMISE", "Such That", "Bound", "Binaries", "Generals", "END"},
      {"min", "st", "bounds", "bin", "gen", "End"},
      {"Minimum", "s.t.", "BOUNDS", "BIN", "GEN", "end"},
      {"MIN", "ST.", "bound", "binary", "generals", "eNd"},
  };
  for (const auto& s : spellings) {
    const std::string text = absl::StrCat(
        s[0], "\n obj: x + 2 n\n", s[1], "\n c1: x + n >= 1\n", s[2],
        "\n n <= 3\n", s[3], "\n x\n", s[4], "\n n\n", s[5], "\n");
    SCOPED_TRACE(text);
    EXPECT_TRUE(MessageDifferencer::Equals(MustParse(text), reference));
  }
  for (absl::string_view word : {"maximize", "Maximise", "MAX", "maximum"}) {
    const v1::ConstrainedModel model =
        MustParse(absl::StrCat(word, "\n x\nBinary\n x\nEnd\n"));
    EXPECT_EQ(model.sense(), v1::MAXIMIZE) << word;
  }
}

TEST(ModelLp, SmallDetails) {
  // An objective without a name, a term split over lines, a general variable
  // with bounds [0, 1] (binary), a constraint name that looks like a keyword.
  const v1::ConstrainedModel model = MustParse(
      "Minimize\n 2 x\n + 3 y\n - 1.5e1\nSubject To\n bin: x + y <= 1\n"
      "Bounds\n y <= 1\nGenerals\n y\nBinary\n x\nEnd");
  EXPECT_THAT(Terms(model, model.objective()), ElementsAre("2 x", "3 y"));
  EXPECT_EQ(model.objective().constant(), -15);
  EXPECT_EQ(model.variables(1).type(), v1::MODEL_VARIABLE_BINARY);
  EXPECT_EQ(model.constraints(0).name(), "bin");
  // The right-hand side ends with its line: the next line's term starts the
  // next (unnamed) constraint.
  const v1::ConstrainedModel two = MustParse(
      "Minimize\n x\nSubject To\n x + y >= 1\n -x + y <= 0\nBinary\n x y\n");
  ASSERT_EQ(two.constraints_size(), 2);
  EXPECT_EQ(two.constraints(1).name(), "c2");
  EXPECT_THAT(Terms(two, two.constraints(1).lhs()), ElementsAre("-1 x", "1 y"));
}

// Names land in the wire messages' string fields, which hold UTF-8 only: a
// text that is not is refused naming its line (the fuzzers' round trip
// found names with stray bytes), in every format; UTF-8 names are read.
TEST(ModelText, RefusesTextThatIsNotUtf8) {
  EXPECT_EQ(ErrorOf("Minimize\n x\nSubject To\n c: x + \xe1y >= 1\n"),
            "model: line 4: invalid UTF-8 (byte 0xe1); the text must be UTF-8");
  EXPECT_THAT(ErrorOf("* #variable= 2 #constraint= 1\nmin: +1 x1 ;\n"
                      "+1 x1 +1 x\377 >= 1 ;\n",
                      v1::MODEL_FORMAT_OPB),
              HasSubstr("line 3: invalid UTF-8 (byte 0xff)"));
  EXPECT_THAT(ErrorOf("Minimize\n x\n\\ over\xc0\xaflong\nBinary\n x\n"),
              HasSubstr("line 3: invalid UTF-8 (byte 0xc0)"));
  // UTF-8 beyond ASCII passes (here in a comment).
  absl::StatusOr<v1::ConstrainedModel> accented = ParseModelText(
      "\\ caf\xc3\xa9 \xe2\x82\xac\nMinimize\n x\nBinary\n x\nEnd\n",
      v1::MODEL_FORMAT_LP);
  EXPECT_TRUE(accented.ok()) << accented.status();
}

TEST(ModelLp, ErrorsNameTheLine) {
  EXPECT_EQ(ErrorOf("Minimize\n obj: x\nSubject To\n c1: 3 x + 2 y\n"
                    " c2: x >= 1\nBinary\n x y\nEnd\n"),
            "lp line 4: expected a constraint sense (<=, >=, =) after "
            "'3 x + 2 y', got 'c2'");
  EXPECT_EQ(ErrorOf("Minimize\n obj: x + [ x * y ]\nBinary\n x y\n",
                    v1::MODEL_FORMAT_LP),
            "lp line 2: expected '/ 2' closing the objective's quadratic "
            "part after 'x + [ x * y ]', got 'Binary'");
  EXPECT_THAT(ErrorOf("Minimize\n x\nSubject To\n c: x + n >= 1\nBinary\n x\n"
                      "General\n n\nEnd\n"),
              HasSubstr("lp line 4: variable 'n' is a general integer without "
                        "finite bounds"));
  EXPECT_THAT(ErrorOf("Minimize\n x\nSubject To\n c: x + y >= 1\n"
                      " c: x - y <= 0\nBinary\n x y\n"),
              "lp line 5: constraint name 'c' is used twice");
  EXPECT_THAT(ErrorOf("Minimize\n x\nSubject To\n r: -1 <= x + y <= 1\n"
                      "Binary\n x y\n"),
              HasSubstr("lp line 4: a second constraint sense"));
  EXPECT_EQ(ErrorOf("Minimize\n x\nSubject To\n c: x $ y >= 1\n"),
            "lp line 4: expected '+', '-' or a constraint sense after 'x', "
            "got '$'");
  // A term without a sign on a later line: the line is where the statement
  // stopped.
  EXPECT_EQ(ErrorOf("Minimize\n x\n\n y = 3\n", v1::MODEL_FORMAT_LP),
            "lp line 2: expected '+', '-' or a section after 'x', got 'y'");
  EXPECT_EQ(ErrorOf("Minimize\n x >= 3\n", v1::MODEL_FORMAT_LP),
            "lp line 2: expected a term or a section after 'x', got '>='");
  EXPECT_THAT(ErrorOf("\\ nothing\nSubject To\n x >= 1\n", v1::MODEL_FORMAT_LP),
              "lp line 2: expected Minimize or Maximize, got 'Subject'");
  EXPECT_THAT(
      ErrorOf("Minimize\n x\nBounds\n x <= 2\n x >= 1\nBinary\n x\n"),
      HasSubstr("lp line 5: variable 'x' is binary with bounds [1, 2]"));
  EXPECT_THAT(ErrorOf("Minimize\n x\nBounds\n 3 <= x <= 2\nGeneral\n x\n"),
              HasSubstr("lp line 4: variable 'x' has no integer between"));
  EXPECT_THAT(ErrorOf("Minimize\n x\nSemi-continuous\n x\n"),
              HasSubstr("lp line 3: the section 'Semi' is not supported"));
  EXPECT_THAT(ErrorOf("Minimize\n x ?? 2\n", v1::MODEL_FORMAT_LP),
              HasSubstr("lp line 2"));
  EXPECT_THAT(ErrorOf("Minimize\n x\nBinary\n x\nEnd\n y\n"),
              HasSubstr("lp line 6: expected nothing after End"));
  EXPECT_THAT(ErrorOf("Minimize\n x\nBounds\n x <= \nBinary\n x\n"),
              HasSubstr("lp line 4: expected a bound value"));
}

TEST(ModelLp, RoundTrips) {
  const v1::ConstrainedModel model = MustParse(FullLpWithoutW());
  absl::StatusOr<std::string> text = WriteModelLp(model);
  ASSERT_TRUE(text.ok()) << text.status();
  const v1::ConstrainedModel back = MustParse(*text);
  // Variable order differs (the writer's objective comes first), so compare
  // by meaning and then text to text.
  ExpectEquivalent(model, back);
  absl::StatusOr<std::string> again = WriteModelLp(back);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *text);
  EXPECT_TRUE(MessageDifferencer::Equals(MustParse(*again), back));
}

v1::ConstrainedModel StructuredModel() {
  v1::ConstrainedModel model;
  model.set_name("structured");
  model.set_sense(v1::MINIMIZE);
  for (const char* name : {"a", "b", "c"}) {
    model.add_variables()->set_name(name);
  }
  v1::ModelVariable& n = *model.add_variables();
  n.set_name("n");
  n.set_type(v1::MODEL_VARIABLE_INTEGER);
  n.set_lower(-1);
  n.set_upper(2);
  auto term = [](v1::ModelPolynomial* poly, double c,
                 std::vector<uint32_t> vars) {
    v1::ModelTerm& t = *poly->add_terms();
    t.set_coefficient(c);
    for (uint32_t v : vars) t.add_variables(v);
  };
  term(model.mutable_objective(), 0.25, {0});
  term(model.mutable_objective(), -3, {0, 1});
  term(model.mutable_objective(), 2, {3});
  term(model.mutable_objective(), 1.5, {2, 2});
  model.mutable_objective()->set_constant(-0.5);
  v1::ModelConstraint& c = *model.add_constraints();
  c.set_name("pair");
  term(c.mutable_lhs(), 1, {0});
  term(c.mutable_lhs(), 1, {1, 2});
  term(c.mutable_lhs(), -1, {3});
  c.mutable_lhs()->set_constant(1);
  c.set_sense(v1::CONSTRAINT_LESS_EQUAL);
  c.set_rhs(2);
  return model;
}

TEST(ModelLp, WritesAStructuredModelThatReadsBack) {
  const v1::ConstrainedModel model = StructuredModel();
  absl::StatusOr<std::string> text = WriteModelLp(model);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("[ - 6 a * b + 3 c ^ 2 ] / 2"));
  EXPECT_THAT(*text, HasSubstr(" -1 <= n <= 2\n"));
  ExpectEquivalent(model, MustParse(*text));
}

TEST(ModelLp, WriterRefusesWhatLpCannotHold) {
  v1::ConstrainedModel model = StructuredModel();
  model.mutable_variables(0)->set_type(v1::MODEL_VARIABLE_SPIN);
  EXPECT_THAT(WriteModelLp(model).status().message(),
              HasSubstr("'a' is a spin variable"));
  model = StructuredModel();
  model.mutable_objective()->mutable_terms(1)->add_variables(2);
  EXPECT_THAT(WriteModelLp(model).status().message(),
              HasSubstr("a term of degree 3"));
  model = StructuredModel();
  model.mutable_variables(1)->set_name("two words");
  EXPECT_THAT(WriteModelLp(model).status().message(),
              HasSubstr("'two words' is not a name LP can hold"));
}

// --- OPB ---

constexpr absl::string_view kOpb = R"(* #variable= 5 #constraint= 3
* a comment
min: +3 x1 -2 x2 x3 +1 ~x4 ;
+1 x1 +1 x2 >= 1 ;
+2 x1 ~x3 -1 x2 = 0 ;
-1 x1
 +1 x3 <= 0 ;
)";

TEST(ModelOpb, ReadsProductsNegationsAndTheHeader) {
  const v1::ConstrainedModel model = MustParse(kOpb);
  // x5 appears nowhere but the header announces it.
  EXPECT_THAT(Names(model), ElementsAre("x1", "x2", "x3", "x4", "x5"));
  EXPECT_EQ(model.sense(), v1::MINIMIZE);
  // +1 ~x4 = 1 - x4.
  EXPECT_THAT(Terms(model, model.objective()),
              ElementsAre("3 x1", "-2 x2*x3", "-1 x4"));
  EXPECT_EQ(model.objective().constant(), 1);
  ASSERT_EQ(model.constraints_size(), 3);
  EXPECT_EQ(model.constraints(0).name(), "c1");
  EXPECT_EQ(model.constraints(2).name(), "c3");
  // 2 x1 (1 - x3) - x2 = 0.
  EXPECT_THAT(Terms(model, model.constraints(1).lhs()),
              ElementsAre("2 x1", "-2 x1*x3", "-1 x2"));
  EXPECT_EQ(model.constraints(1).sense(), v1::CONSTRAINT_EQUAL);
  EXPECT_EQ(model.constraints(2).sense(), v1::CONSTRAINT_LESS_EQUAL);
  EXPECT_EQ(model.constraints(0).rhs(), 1);
}

TEST(ModelOpb, NegatedConstantsMoveToTheRightHandSide) {
  // ~x1 + ~x2 >= 1: 2 - x1 - x2 >= 1, so -x1 - x2 >= -1.
  const v1::ConstrainedModel model =
      MustParse("max: +1 x2 ;\n+1 ~x1 +1 ~x2 >= 1 ;\n");
  EXPECT_EQ(model.sense(), v1::MAXIMIZE);
  EXPECT_THAT(Names(model), ElementsAre("x2", "x1"));  // first appearance
  EXPECT_THAT(Terms(model, model.constraints(0).lhs()),
              ElementsAre("-1 x1", "-1 x2"));
  EXPECT_EQ(model.constraints(0).rhs(), -1);
}

TEST(ModelOpb, ErrorsNameTheLine) {
  EXPECT_EQ(ErrorOf("* #variable= 2 #constraint= 1\nmin: +1 x1 ;\n"
                    "+1 x1 +1 x2 >= 1\n"),
            "opb line 3: expected ';' after the right-hand side, got the end "
            "of the text");
  EXPECT_EQ(ErrorOf("* #variable= 2 #constraint= 2\nmin: +1 x1 ;\n"
                    "+1 x1 +1 x2 >= 1 ;\n"),
            "opb line 1: the header announces 2 constraints, the file has 1");
  EXPECT_EQ(ErrorOf("* #variable= 1 #constraint= 1\n+1 x1 +1 x2 >= 1 ;\n"),
            "opb line 1: the header announces 1 variables, the file uses 2");
  EXPECT_EQ(ErrorOf("min: +1 x1 ;\n\n+1 x1 +1 x2 ;\n"),
            "opb line 3: expected a relational operator (>=, =, <=), got ';'");
  EXPECT_EQ(ErrorOf("min: +1 x1 ;\n+1 x1 >= 1x ;\n", v1::MODEL_FORMAT_OPB),
            "opb line 2: '1x' is not a number");
}

TEST(ModelOpb, RoundTrips) {
  const v1::ConstrainedModel model = MustParse(kOpb);
  absl::StatusOr<std::string> text = WriteModelOpb(model);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("* #variable= 5 #constraint= 3\n"));
  // "<=" goes out as ">=" with both sides negated.
  EXPECT_THAT(*text, HasSubstr("+1 x1 -1 x3 >= 0 ;\n"));
  const v1::ConstrainedModel back = MustParse(*text);
  ExpectEquivalent(model, back);
  absl::StatusOr<std::string> again = WriteModelOpb(back);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *text);
  // And through LP.
  absl::StatusOr<std::string> lp = WriteModelLp(model);
  ASSERT_TRUE(lp.ok()) << lp.status();
  ExpectEquivalent(model, MustParse(*lp));
}

TEST(ModelOpb, WriterRefusesWhatOpbCannotHold) {
  v1::ConstrainedModel model = MustParse(kOpb);
  model.mutable_objective()->mutable_terms(0)->set_coefficient(0.5);
  EXPECT_THAT(WriteModelOpb(model).status().message(),
              HasSubstr("the objective has the coefficient 0.5, not an "
                        "integer"));
  EXPECT_THAT(WriteModelOpb(StructuredModel()).status().message(),
              HasSubstr("variable 'n' is not binary"));
}

// --- QPLIB ---

constexpr absl::string_view kQbl = R"(TESTQBL   # the name
QBL       # quadratic objective, binary variables, linear constraints
minimize  # sense
3         # variables
2         # constraints
3         # quadratic terms in the objective
1 1 2.0
2 1 -3.0
3 2 4
0.5       # default linear coefficient
1         # non-default ones
3 -1.5
10        # constant
4         # linear constraint terms
1 1 1
1 2 1
2 2 1
2 3 1
1.0E+30   # infinity
0         # default constraint lower bound
1         # non-default ones
1 1
1         # default constraint upper bound
0
0         # starting x
0
0         # starting y
0
0         # starting z
0
1         # variable names
2 beta
0         # constraint names
)";

TEST(ModelQplib, ReadsQblWithTheHalfConventionAndTwoSidedConstraints) {
  const v1::ConstrainedModel model = MustParse(kQbl);
  EXPECT_EQ(model.name(), "TESTQBL");
  EXPECT_EQ(model.sense(), v1::MINIMIZE);
  EXPECT_THAT(Names(model), ElementsAre("x1", "beta", "x3"));
  // 1/2 x'Qx: the diagonal 2 gives 1 x1^2, the off-diagonal -3 and 4 give
  // -3 x1 x2 and 4 x2 x3.
  EXPECT_THAT(Terms(model, model.objective()),
              ElementsAre("1 x1*x1", "-3 x1*beta", "4 beta*x3", "0.5 x1",
                          "0.5 beta", "-1.5 x3"));
  EXPECT_EQ(model.objective().constant(), 10);
  ASSERT_EQ(model.constraints_size(), 3);
  EXPECT_EQ(model.constraints(0).name(), "c1");
  EXPECT_EQ(model.constraints(0).sense(), v1::CONSTRAINT_EQUAL);
  EXPECT_EQ(model.constraints(0).rhs(), 1);
  EXPECT_EQ(model.constraints(1).name(), "c2_lo");
  EXPECT_EQ(model.constraints(1).sense(), v1::CONSTRAINT_GREATER_EQUAL);
  EXPECT_EQ(model.constraints(1).rhs(), 0);
  EXPECT_EQ(model.constraints(2).name(), "c2_hi");
  EXPECT_EQ(model.constraints(2).sense(), v1::CONSTRAINT_LESS_EQUAL);
  EXPECT_EQ(model.constraints(2).rhs(), 1);
  EXPECT_THAT(Terms(model, model.constraints(2).lhs()),
              ElementsAre("1 beta", "1 x3"));
}

TEST(ModelQplib, ReadsQbnAndQbq) {
  // No constraints, maximised; the file may stop after infinity.
  const v1::ConstrainedModel qbn =
      MustParse("QBNTEST\nQBN\nmaximize\n2\n1\n2 1 5\n0\n0\n-1\n1e30\n");
  EXPECT_EQ(qbn.sense(), v1::MAXIMIZE);
  EXPECT_THAT(Terms(qbn, qbn.objective()), ElementsAre("5 x1*x2"));
  EXPECT_EQ(qbn.objective().constant(), -1);
  EXPECT_EQ(qbn.constraints_size(), 0);
  // A quadratic constraint with only an upper bound: x1 + x2 + x1 x2 <= 1.5.
  const v1::ConstrainedModel qbq = MustParse(
      "QBQTEST\nQBQ\nminimize\n2\n1\n0\n1\n0\n0\n1\n1 1 2 1\n2\n1 1 1\n"
      "1 2 1\n1e30\n-1e30\n0\n1.5\n0\n");
  EXPECT_THAT(Terms(qbq, qbq.objective()), ElementsAre("1 x1", "1 x2"));
  ASSERT_EQ(qbq.constraints_size(), 1);
  EXPECT_THAT(Terms(qbq, qbq.constraints(0).lhs()),
              ElementsAre("1 x1*x2", "1 x1", "1 x2"));
  EXPECT_EQ(qbq.constraints(0).sense(), v1::CONSTRAINT_LESS_EQUAL);
  EXPECT_EQ(qbq.constraints(0).rhs(), 1.5);
}

TEST(ModelQplib, ReadsBoundedIntegers) {
  // QIL: integer variables with bounds [0, 3] and [0, 1] (binary).
  const v1::ConstrainedModel model = MustParse(
      "INT\nLIL\nminimize\n2\n1\n1\n0\n0\n1\n1 1 1\n1e30\n1\n0\n1e30\n0\n"
      "0\n0\n3\n1\n2 1\n",
      v1::MODEL_FORMAT_QPLIB);
  ASSERT_EQ(model.variables_size(), 2);
  EXPECT_EQ(model.variables(0).type(), v1::MODEL_VARIABLE_INTEGER);
  EXPECT_EQ(model.variables(0).upper(), 3);
  EXPECT_EQ(model.variables(1).type(), v1::MODEL_VARIABLE_BINARY);
  EXPECT_EQ(model.constraints(0).sense(), v1::CONSTRAINT_GREATER_EQUAL);
}

TEST(ModelQplib, ErrorsNameTheLine) {
  EXPECT_EQ(ErrorOf("T\nQBN\nminimize\n2\n1\n2 3 5\n"),
            "qplib line 6, field 2 (j): 3 is out of range [1, 2]");
  EXPECT_EQ(ErrorOf("T\nQCL\nminimize\n2\n", v1::MODEL_FORMAT_QPLIB),
            "qplib line 2: problem type QCL has continuous variables; the "
            "model kind takes binary and integer variables only");
  EXPECT_EQ(ErrorOf("T\nQBN\nminimize\n2\n1\n2 1\n", v1::MODEL_FORMAT_QPLIB),
            "qplib line 6: expected an objective term 'i j value' (3 fields), "
            "got 2");
  EXPECT_EQ(
      ErrorOf("T\nQBN\nminimize\n2\n1\n2 1 5\n0\n", v1::MODEL_FORMAT_QPLIB),
      "qplib line 7: the file ends where the number of non-default "
      "linear objective coefficients was expected");
}

// --- Detection ---

TEST(ModelText, DetectsTheFormat) {
  EXPECT_EQ(*DetectModelFormat(kFullLp), v1::MODEL_FORMAT_LP);
  EXPECT_EQ(*DetectModelFormat(kOpb), v1::MODEL_FORMAT_OPB);
  EXPECT_EQ(*DetectModelFormat("min: +1 x1 ;"), v1::MODEL_FORMAT_OPB);
  EXPECT_EQ(*DetectModelFormat("+1 x1 +1 x2 >= 1 ;\n"), v1::MODEL_FORMAT_OPB);
  EXPECT_EQ(*DetectModelFormat(kQbl), v1::MODEL_FORMAT_QPLIB);
  EXPECT_THAT(DetectModelFormat("hello\nworld\n").status().message(),
              HasSubstr("cannot tell the format"));
  EXPECT_FALSE(DetectModelFormat("  \n").ok());
}

// --- Linearized MILP ---

// a, b, c binary, s spin, n integer: a cubic term, products with the spin,
// a quadratic constraint, a one-hot group.
v1::ConstrainedModel TinyModel() {
  v1::ConstrainedModel model = MustParse(
      "Minimize\n obj: 0 a + 1.5 b + n + 4 + [ 2 a * c ] / 2\nSubject To\n"
      " q: [ a * b ] + c <= 1\n m: a + n >= 1\nBounds\n n <= 2\n"
      "Binary\n a b c\nGeneral\n n\nEnd\n");
  v1::ModelVariable& s = *model.add_variables();
  s.set_name("s");
  s.set_type(v1::MODEL_VARIABLE_SPIN);
  const uint32_t a = 0, b = 1, c = 3, spin = 4;
  EXPECT_EQ(model.variables(c).name(), "c");
  auto add = [&](double coefficient, std::vector<uint32_t> vars) {
    v1::ModelTerm& term = *model.mutable_objective()->add_terms();
    term.set_coefficient(coefficient);
    for (uint32_t v : vars) term.add_variables(v);
  };
  add(3, {a, b, c});
  add(-2, {a, spin});
  add(1, {spin, b, spin});  // s^2 = 1
  v1::ModelConstraint& with_spin = *model.add_constraints();
  with_spin.set_name("spin_c");
  v1::ModelTerm& t = *with_spin.mutable_lhs()->add_terms();
  t.set_coefficient(1);
  t.add_variables(spin);
  t.add_variables(c);
  with_spin.set_sense(v1::CONSTRAINT_LESS_EQUAL);
  with_spin.set_rhs(0);
  v1::OneHotConstraint& group = *model.add_one_hot();
  group.add_variables(b);
  group.add_variables(c);
  group.set_at_most_one(true);
  return model;
}

// Every feasible point of the MILP maps to a feasible point of the model with
// the same objective, and every feasible point of the model is reached.
void ExpectSameProblem(const v1::ConstrainedModel& model,
                       const v1::ConstrainedModel& milp) {
  absl::flat_hash_map<std::string, int> in_milp;
  for (int v = 0; v < milp.variables_size(); ++v)
    in_milp[milp.variables(v).name()] = v;
  for (const v1::ModelVariable& variable : milp.variables())
    EXPECT_NE(variable.type(), v1::MODEL_VARIABLE_SPIN);
  std::set<std::vector<int64_t>> reached;
  int feasible = 0;
  ForEachAssignment(milp, [&](const std::vector<int64_t>& y) {
    if (!Feasible(milp, y)) return;
    ++feasible;
    std::vector<int64_t> x(model.variables_size());
    for (int v = 0; v < model.variables_size(); ++v) {
      const v1::ModelVariable& variable = model.variables(v);
      if (variable.type() == v1::MODEL_VARIABLE_SPIN) {
        x[v] = 2 * y[in_milp.at("b_" + variable.name())] - 1;
      } else {
        x[v] = y[in_milp.at(variable.name())];
      }
    }
    EXPECT_TRUE(Feasible(model, x));
    EXPECT_DOUBLE_EQ(Value(milp.objective(), y), Value(model.objective(), x));
    reached.insert(x);
  });
  int model_feasible = 0;
  ForEachAssignment(model, [&](const std::vector<int64_t>& x) {
    if (!Feasible(model, x)) return;
    ++model_feasible;
    EXPECT_TRUE(reached.count(x)) << "a feasible point the MILP misses";
  });
  EXPECT_GT(model_feasible, 3);
  // Each feasible model point has exactly one MILP point (y is the product).
  EXPECT_EQ(feasible, model_feasible);
}

TEST(ModelMilp, LinearizedModelIsTheSameProblem) {
  const v1::ConstrainedModel model = TinyModel();
  absl::StatusOr<v1::ConstrainedModel> milp = LinearizeModel(model);
  ASSERT_TRUE(milp.ok()) << milp.status();
  for (const v1::ModelConstraint& c : milp->constraints())
    for (const v1::ModelTerm& t : c.lhs().terms())
      EXPECT_EQ(t.variables_size(), 1) << c.name();
  for (const v1::ModelTerm& t : milp->objective().terms())
    EXPECT_EQ(t.variables_size(), 1);
  ExpectSameProblem(model, *milp);
  // The LP text reads back as the same MILP.
  absl::StatusOr<std::string> text = WriteLinearizedMilp(model);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("y_a_b_c"));
  EXPECT_THAT(*text, HasSubstr("b_s"));
  ExpectSameProblem(model, MustParse(*text));
}

TEST(ModelMilp, ALinearizationThatDropsALinkFails) {
  // The check above can fail: without y <= x the MILP reaches points the
  // model does not have.
  const v1::ConstrainedModel model = TinyModel();
  absl::StatusOr<v1::ConstrainedModel> milp = LinearizeModel(model);
  ASSERT_TRUE(milp.ok());
  v1::ConstrainedModel broken = *milp;
  broken.mutable_constraints()->RemoveLast();
  int mismatches = 0;
  ForEachAssignment(broken, [&](const std::vector<int64_t>& y) {
    if (Feasible(broken, y) && !Feasible(*milp, y)) ++mismatches;
  });
  EXPECT_GT(mismatches, 0);
}

TEST(ModelMilp, RefusesProductsOfIntegers) {
  v1::ConstrainedModel model = TinyModel();
  v1::ModelTerm& term = *model.mutable_objective()->add_terms();
  term.set_coefficient(1);
  term.add_variables(2);  // n
  term.add_variables(0);
  EXPECT_THAT(LinearizeModel(model).status().message(),
              HasSubstr("integer variable 'n'"));
}

// --- The kind ---

TEST(ModelKind, ParsesWritesAndReadsBoards) {
  const std::vector<TextKind> kinds = TextKinds();
  const auto it =
      std::find_if(kinds.begin(), kinds.end(),
                   [](const TextKind& k) { return k.kind == "model"; });
  ASSERT_NE(it, kinds.end());
  EXPECT_TRUE(it->writer);
  absl::StatusOr<v1::PuzzleSpec> spec = ParsePuzzleText("model", it->example);
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_TRUE(spec->has_model());
  EXPECT_TRUE(spec->model().text().empty());
  EXPECT_EQ(spec->model().variables_size(), 3);

  absl::StatusOr<v1::PuzzleSolution> board =
      ParseBoardText("model", *spec, "z=1 x=1\ny=0");
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_THAT(board->names(), ElementsAre("x", "y", "z"));
  EXPECT_THAT(board->cells(), ElementsAre(1, 0, 1));
  EXPECT_THAT(board->rows(), ElementsAre("x=1 y=0 z=1"));
  EXPECT_EQ(board->objective(), 7);  // 3 x + 2 y + 4 z
  EXPECT_EQ(ParseBoardText("model", *spec, "x=1 y=0").status().message(),
            "model: board: no value for z");
  EXPECT_THAT(
      ParseBoardText("model", *spec, "x=1 y=0 z=1 w=0").status().message(),
      HasSubstr("'w' is not a variable"));
  EXPECT_THAT(ParseBoardText("model", *spec, "x=2 y=0 z=1").status().message(),
              HasSubstr("outside the variable's domain"));

  absl::StatusOr<std::string> text = FormatPuzzleText("model", *spec);
  ASSERT_TRUE(text.ok()) << text.status();
  absl::StatusOr<v1::PuzzleSpec> back = ParsePuzzleText("model", *text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*back, *spec));
  EXPECT_THAT(ParsePuzzleText("model", "Minimize\n x\n").status().message(),
              HasSubstr("variable 'x' is continuous"));
}

// A few bytes of text must not make millions of variables or terms: counts
// past kMaxModelTextVariables and products of many negated OPB literals are
// refused naming their line.
TEST(ModelText, RefusesTextsThatWouldExplode) {
  EXPECT_THAT(ErrorOf("* #variable= 5000000 #constraint= 0\nmin: +1 x1 ;\n",
                      v1::MODEL_FORMAT_OPB),
              HasSubstr("opb line 1: the header announces 5000000 variables"));
  std::string product = "min: +1";
  for (int k = 1; k <= 17; ++k) absl::StrAppend(&product, " ~x", k);
  EXPECT_THAT(ErrorOf(product + " ;\n", v1::MODEL_FORMAT_OPB),
              HasSubstr("opb line 1: a product of 17 negated literals"));
  EXPECT_THAT(ErrorOf("big\nQBN\nminimize\n2000000\n", v1::MODEL_FORMAT_QPLIB),
              HasSubstr("qplib line 4"));
}

}  // namespace
}  // namespace qs::formats
