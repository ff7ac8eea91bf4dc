// The COO text of dimod's coo serializer <-> qs.v1.QuboModel:
//
//   # vartype=BINARY     optional header (SPIN or BINARY; default BINARY)
//   i j w                one term per line, 0-based, i == j linear
//
// The model's variables are 0 .. the largest index. The writer lists every
// variable's linear term (zeros included, as dimod does), so that the count
// survives a round trip.
#include <algorithm>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "formats/qubo_formats.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

constexpr absl::string_view kFormat = "coo";
constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max() - 1;

// The vartype of a "# vartype=X" header line, if `text` has one.
absl::StatusOr<v1::Vartype> HeaderVartype(absl::string_view text) {
  int number = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (!absl::ConsumePrefix(&line, "#")) continue;
    line = absl::StripLeadingAsciiWhitespace(line);
    if (!absl::ConsumePrefix(&line, "vartype=")) continue;
    if (line == "SPIN") return v1::SPIN;
    if (line == "BINARY") return v1::BINARY;
    return LineError(
        kFormat, number,
        absl::StrCat("vartype must be SPIN or BINARY, got '", line, "'"));
  }
  return v1::BINARY;
}

}  // namespace

absl::StatusOr<v1::QuboModel> ParseCooText(absl::string_view text) {
  auto vartype = HeaderVartype(text);
  if (!vartype.ok()) return vartype.status();
  v1::QuboModel model;
  model.set_vartype(*vartype);
  int64_t n = 0;
  for (const TextLine& line : ContentLines(text, {"#"})) {
    if (auto s = ExpectFields(kFormat, line, 3, "i j w"); !s.ok()) return s;
    auto i = IntField(kFormat, line, 0, "i", 0, kMaxIndex);
    if (!i.ok()) return i.status();
    auto j = IntField(kFormat, line, 1, "j", 0, kMaxIndex);
    if (!j.ok()) return j.status();
    auto w = NumberField(kFormat, line, 2, "weight");
    if (!w.ok()) return w.status();
    n = std::max({n, *i + 1, *j + 1});
    model.add_i(static_cast<uint32_t>(std::min(*i, *j)));
    model.add_j(static_cast<uint32_t>(std::max(*i, *j)));
    model.add_w(*w);
  }
  model.set_num_variables(static_cast<uint32_t>(n));
  return model;
}

absl::StatusOr<std::string> FormatCooText(const v1::QuboModel& f) {
  if (f.offset() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("coo files have no constant; this model's offset is ",
                     f.offset(), " (write it as text or ising)"));
  }
  std::vector<double> linear(f.num_variables(), 0.0);
  std::string quadratic;
  for (int k = 0; k < f.w_size(); ++k) {
    if (f.i(k) == f.j(k)) {
      linear[f.i(k)] += f.w(k);
    } else {
      absl::StrAppend(&quadratic, std::min(f.i(k), f.j(k)), " ",
                      std::max(f.i(k), f.j(k)), " ", ExactNumber(f.w(k)), "\n");
    }
  }
  std::string out = absl::StrCat(
      "# vartype=", f.vartype() == v1::SPIN ? "SPIN" : "BINARY", "\n");
  for (size_t i = 0; i < linear.size(); ++i)
    absl::StrAppend(&out, i, " ", i, " ", ExactNumber(linear[i]), "\n");
  return absl::StrCat(out, quadratic);
}

}  // namespace qs::formats
