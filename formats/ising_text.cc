// The Ising text form <-> qs.v1.QuboModel (SPIN):
//
//   ising N [OFFSET]     header: spins and an optional constant
//   h I VALUE            field on spin I (0-based)
//   J I K VALUE          coupling of spins I and K
//
// E(s) = OFFSET + sum h_I s_I + sum J_IK s_I s_K over s in {-1, +1}; '#'
// starts a comment line.
#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "formats/qubo_formats.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

constexpr absl::string_view kFormat = "ising";
constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

// One "h I VALUE" or "J I K VALUE" line into `model` (n spins).
absl::Status AddTerm(const TextLine& line, int64_t n, v1::QuboModel& model) {
  const bool field = line.fields[0] == "h";
  if (!field && line.fields[0] != "J") {
    return FieldError(
        kFormat, line, 0, "kind",
        absl::StrCat("'", line.fields[0], "': expected 'h' or 'J'"));
  }
  if (auto s = ExpectFields(kFormat, line, field ? 3 : 4,
                            field ? "h I VALUE" : "J I K VALUE");
      !s.ok())
    return s;
  auto i = IntField(kFormat, line, 1, "I", 0, n - 1);
  if (!i.ok()) return i.status();
  int64_t k = *i;
  if (!field) {
    auto second = IntField(kFormat, line, 2, "K", 0, n - 1);
    if (!second.ok()) return second.status();
    if (*second == *i)
      return FieldError(kFormat, line, 2, "K", "a coupling needs two spins");
    k = *second;
  }
  auto w = NumberField(kFormat, line, field ? 2 : 3, "VALUE");
  if (!w.ok()) return w.status();
  model.add_i(static_cast<uint32_t>(std::min(*i, k)));
  model.add_j(static_cast<uint32_t>(std::max(*i, k)));
  model.add_w(*w);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::QuboModel> ParseIsingText(absl::string_view text) {
  const std::vector<TextLine> lines = ContentLines(text, {"#"});
  if (lines.empty() || lines[0].fields[0] != "ising") {
    return LineError(kFormat, lines.empty() ? 1 : lines[0].number,
                     "expected the header 'ising N [OFFSET]'");
  }
  const TextLine& header = lines[0];
  if (header.fields.size() != 2 && header.fields.size() != 3) {
    return LineError(kFormat, header.number,
                     "expected the header 'ising N [OFFSET]'");
  }
  auto n = IntField(kFormat, header, 1, "N", 0, kMaxIndex);
  if (!n.ok()) return n.status();
  v1::QuboModel model;
  model.set_vartype(v1::SPIN);
  model.set_num_variables(static_cast<uint32_t>(*n));
  if (header.fields.size() == 3) {
    auto offset = NumberField(kFormat, header, 2, "OFFSET");
    if (!offset.ok()) return offset.status();
    model.set_offset(*offset);
  }
  for (size_t k = 1; k < lines.size(); ++k) {
    if (auto s = AddTerm(lines[k], *n, model); !s.ok()) return s;
  }
  return model;
}

absl::StatusOr<std::string> FormatIsingText(const v1::QuboModel& f) {
  if (f.vartype() != v1::SPIN) return FormatIsingText(BinaryToSpin(f));
  std::string out = absl::StrCat("ising ", f.num_variables());
  if (f.offset() != 0) absl::StrAppend(&out, " ", ExactNumber(f.offset()));
  out += "\n";
  for (int k = 0; k < f.w_size(); ++k) {
    if (f.i(k) == f.j(k)) {
      absl::StrAppend(&out, "h ", f.i(k), " ", ExactNumber(f.w(k)), "\n");
    } else {
      absl::StrAppend(&out, "J ", std::min(f.i(k), f.j(k)), " ",
                      std::max(f.i(k), f.j(k)), " ", ExactNumber(f.w(k)), "\n");
    }
  }
  return out;
}

}  // namespace qs::formats
