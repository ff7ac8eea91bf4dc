// qbsolv's .qubo format <-> qs.v1.QuboModel (BINARY):
//
//   c comment
//   p qubo 0 maxNodes nNodes nCouplers
//   i i w          nNodes diagonal lines (linear terms), 0-based
//   i j w          nCouplers coupler lines, i < j
#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "formats/qubo_formats.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

constexpr absl::string_view kFormat = "qbsolv";
constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

}  // namespace

absl::StatusOr<v1::QuboModel> ParseQbsolvText(absl::string_view text) {
  const std::vector<TextLine> lines = ContentLines(text, {"c "});
  if (lines.empty() || lines[0].fields[0] != "p") {
    return LineError(kFormat, lines.empty() ? 1 : lines[0].number,
                     "expected the program line 'p qubo 0 maxNodes nNodes "
                     "nCouplers'");
  }
  const TextLine& program = lines[0];
  if (auto s = ExpectFields(kFormat, program, 6,
                            "p qubo topology maxNodes nNodes nCouplers");
      !s.ok())
    return s;
  if (program.fields[1] != "qubo") {
    return FieldError(kFormat, program, 1, "problem", "must be 'qubo'");
  }
  auto max_nodes = IntField(kFormat, program, 3, "maxNodes", 0, kMaxIndex);
  if (!max_nodes.ok()) return max_nodes.status();
  auto nodes = IntField(kFormat, program, 4, "nNodes", 0, *max_nodes);
  if (!nodes.ok()) return nodes.status();
  auto couplers = IntField(kFormat, program, 5, "nCouplers", 0,
                           std::numeric_limits<int64_t>::max());
  if (!couplers.ok()) return couplers.status();

  v1::QuboModel model;
  model.set_vartype(v1::BINARY);
  model.set_num_variables(static_cast<uint32_t>(*max_nodes));
  int64_t diagonal = 0, off_diagonal = 0;
  for (size_t k = 1; k < lines.size(); ++k) {
    const TextLine& line = lines[k];
    if (auto s = ExpectFields(kFormat, line, 3, "i j w"); !s.ok()) return s;
    auto i = IntField(kFormat, line, 0, "i", 0, *max_nodes - 1);
    if (!i.ok()) return i.status();
    auto j = IntField(kFormat, line, 1, "j", 0, *max_nodes - 1);
    if (!j.ok()) return j.status();
    auto w = NumberField(kFormat, line, 2, "weight");
    if (!w.ok()) return w.status();
    (*i == *j ? diagonal : off_diagonal) += 1;
    model.add_i(static_cast<uint32_t>(std::min(*i, *j)));
    model.add_j(static_cast<uint32_t>(std::max(*i, *j)));
    model.add_w(*w);
  }
  if (diagonal != *nodes || off_diagonal != *couplers) {
    return LineError(
        kFormat, program.number,
        absl::StrCat("the program line announces ", *nodes, " diagonal and ",
                     *couplers, " coupler lines, the file has ", diagonal,
                     " and ", off_diagonal));
  }
  return model;
}

absl::StatusOr<std::string> FormatQbsolvText(const v1::QuboModel& f) {
  if (f.vartype() == v1::SPIN) return FormatQbsolvText(SpinToBinary(f));
  if (f.offset() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("qbsolv files have no constant; this model's offset is ",
                     f.offset(), " (write it as text or ising)"));
  }
  std::string diagonal, off_diagonal;
  int64_t nodes = 0, couplers = 0;
  for (int k = 0; k < f.w_size(); ++k) {
    const bool linear = f.i(k) == f.j(k);
    absl::StrAppend(linear ? &diagonal : &off_diagonal,
                    std::min(f.i(k), f.j(k)), " ", std::max(f.i(k), f.j(k)),
                    " ", ExactNumber(f.w(k)), "\n");
    ++(linear ? nodes : couplers);
  }
  return absl::StrCat("p qubo 0 ", f.num_variables(), " ", nodes, " ", couplers,
                      "\n", diagonal, off_diagonal);
}

}  // namespace qs::formats
