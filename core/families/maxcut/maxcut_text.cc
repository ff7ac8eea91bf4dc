// The rudy / G-set Max-Cut format <-> qs.v1.MaxCutPuzzle:
//
//   N E            nodes and edges
//   i j w          E lines, 1-based nodes, w = 1, -1 or any number
//
// '#' starts a comment line. The writer prints weights as the shortest
// decimal that reads back exactly (G-set's integers stay integers).
#include <limits>

#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

constexpr absl::string_view kFormat = "maxcut";
constexpr int64_t kMaxNodes = std::numeric_limits<int32_t>::max();

}  // namespace

absl::StatusOr<v1::PuzzleSpec> ParseMaxCutText(absl::string_view text) {
  const std::vector<TextLine> lines = ContentLines(text, {"#"});
  if (lines.empty()) return LineError(kFormat, 1, "expected 'N E'");
  if (auto s = ExpectFields(kFormat, lines[0], 2, "N E"); !s.ok()) return s;
  auto n = IntField(kFormat, lines[0], 0, "N", 1, kMaxNodes);
  if (!n.ok()) return n.status();
  auto edges = IntField(kFormat, lines[0], 1, "E", 0,
                        std::numeric_limits<int64_t>::max());
  if (!edges.ok()) return edges.status();
  if (static_cast<int64_t>(lines.size()) - 1 != *edges) {
    return LineError(kFormat, lines[0].number,
                     absl::StrCat("announces ", *edges, " edges, the file has ",
                                  lines.size() - 1, " edge lines"));
  }
  v1::PuzzleSpec spec;
  v1::MaxCutPuzzle* graph = spec.mutable_maxcut();
  graph->set_num_nodes(static_cast<uint32_t>(*n));
  for (size_t k = 1; k < lines.size(); ++k) {
    const TextLine& line = lines[k];
    if (auto s = ExpectFields(kFormat, line, 3, "i j w"); !s.ok()) return s;
    auto i = IntField(kFormat, line, 0, "i", 1, *n);
    if (!i.ok()) return i.status();
    auto j = IntField(kFormat, line, 1, "j", 1, *n);
    if (!j.ok()) return j.status();
    if (*i == *j) {
      return FieldError(kFormat, line, 1, "j",
                        absl::StrCat("a loop on node ", *i, " cuts nothing"));
    }
    auto w = NumberField(kFormat, line, 2, "w");
    if (!w.ok()) return w.status();
    graph->add_u(static_cast<uint32_t>(*i - 1));
    graph->add_v(static_cast<uint32_t>(*j - 1));
    graph->add_w(*w);
  }
  return spec;
}

absl::StatusOr<std::string> FormatMaxCutText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_maxcut())
    return absl::InvalidArgumentError("maxcut: the puzzle is not a graph");
  const v1::MaxCutPuzzle& graph = puzzle.maxcut();
  if (graph.u_size() != graph.v_size() || graph.u_size() != graph.w_size())
    return absl::InvalidArgumentError("maxcut: u, v and w differ in length");
  std::string out = absl::StrCat(graph.num_nodes(), " ", graph.u_size(), "\n");
  for (int k = 0; k < graph.u_size(); ++k) {
    absl::StrAppend(&out, graph.u(k) + 1, " ", graph.v(k) + 1, " ",
                    ExactNumber(graph.w(k)), "\n");
  }
  return out;
}

TextFormat MaxCutTextFormat() {
  return {"maxcut",
          &ParseMaxCutText,
          &ParseBinaryBoard,
          &FormatMaxCutText,
          "weighted Max-Cut of a graph (rudy / G-set format)",
          "4 5\n1 2 1\n2 3 1\n3 4 1\n4 1 1\n1 3 -1"};
}

}  // namespace qs::formats
