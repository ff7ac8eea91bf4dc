// Beasley's OR-Library bqp files <-> qs.v1.QuboModel (BINARY):
//
//   K              number of instances
//   n nnz          per instance: variables and lines that follow
//   i j q          nnz lines, 1-based; q(i,j) = q(j,i)
//
// The objective is sum_i sum_j q(i,j) x_i x_j over the symmetric matrix, so a
// pair i != j weighs 2 q(i,j) whether the file lists one triangle or both.
// ParseOrlibText returns that objective as written (the caller applies the
// sense, maximise by default).
#include <algorithm>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "formats/qubo_formats.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

constexpr absl::string_view kFormat = "orlib";
constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();

struct Entry {
  double q = 0;
  int line = 0;
};

// One instance from lines[*next]: its "n nnz" line and nnz entries.
absl::StatusOr<v1::QuboModel> ParseInstance(const std::vector<TextLine>& lines,
                                            size_t* next) {
  const TextLine& header = lines[*next];
  if (auto s = ExpectFields(kFormat, header, 2, "n nnz"); !s.ok()) return s;
  auto n = IntField(kFormat, header, 0, "n", 1, kMaxIndex);
  if (!n.ok()) return n.status();
  auto nnz = IntField(kFormat, header, 1, "nnz", 0,
                      std::numeric_limits<int64_t>::max());
  if (!nnz.ok()) return nnz.status();
  ++*next;
  if (static_cast<int64_t>(lines.size() - *next) < *nnz) {
    return LineError(kFormat, header.number,
                     absl::StrCat("announces ", *nnz, " entries, the file has ",
                                  lines.size() - *next, " lines left"));
  }
  // Pairs keyed (min, max): a pair listed in both triangles must agree.
  absl::flat_hash_map<std::pair<int64_t, int64_t>, Entry> entries;
  std::vector<std::pair<int64_t, int64_t>> order;
  for (int64_t k = 0; k < *nnz; ++k, ++*next) {
    const TextLine& line = lines[*next];
    if (auto s = ExpectFields(kFormat, line, 3, "i j q"); !s.ok()) return s;
    auto i = IntField(kFormat, line, 0, "i", 1, *n);
    if (!i.ok()) return i.status();
    auto j = IntField(kFormat, line, 1, "j", 1, *n);
    if (!j.ok()) return j.status();
    auto q = NumberField(kFormat, line, 2, "q");
    if (!q.ok()) return q.status();
    const std::pair<int64_t, int64_t> key{std::min(*i, *j) - 1,
                                          std::max(*i, *j) - 1};
    auto [it, inserted] = entries.try_emplace(key, Entry{*q, line.number});
    if (inserted) {
      order.push_back(key);
    } else if (it->second.q != *q) {
      return FieldError(
          kFormat, line, 2, "q",
          absl::StrCat(*q, " differs from ", it->second.q,
                       " given for the same pair on line ", it->second.line,
                       " (the matrix is symmetric)"));
    }
  }
  v1::QuboModel model;
  model.set_vartype(v1::BINARY);
  model.set_num_variables(static_cast<uint32_t>(*n));
  for (const auto& key : order) {
    const double q = entries[key].q;
    model.add_i(static_cast<uint32_t>(key.first));
    model.add_j(static_cast<uint32_t>(key.second));
    model.add_w(key.first == key.second ? q : 2 * q);
  }
  return model;
}

}  // namespace

absl::StatusOr<std::vector<v1::QuboModel>> ParseOrlibText(
    absl::string_view text) {
  const std::vector<TextLine> lines = ContentLines(text, {"#"});
  if (lines.empty()) return LineError(kFormat, 1, "empty file");
  if (auto s = ExpectFields(kFormat, lines[0], 1, "instances"); !s.ok())
    return s;
  auto count = IntField(kFormat, lines[0], 0, "instances", 1, kMaxIndex);
  if (!count.ok()) return count.status();
  std::vector<v1::QuboModel> models;
  size_t next = 1;
  for (int64_t k = 0; k < *count; ++k) {
    if (next >= lines.size()) {
      return LineError(
          kFormat, lines[0].number,
          absl::StrCat("announces ", *count, " instances, the file has ", k));
    }
    auto model = ParseInstance(lines, &next);
    if (!model.ok()) return model.status();
    models.push_back(*std::move(model));
  }
  if (next < lines.size()) {
    return LineError(kFormat, lines[next].number,
                     absl::StrCat("unexpected line after the ", *count,
                                  " instances the first line announces"));
  }
  return models;
}

absl::StatusOr<std::string> FormatOrlibText(const v1::QuboModel& f) {
  if (f.vartype() == v1::SPIN) return FormatOrlibText(SpinToBinary(f));
  if (f.offset() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("orlib files have no constant; this model's offset is ",
                     f.offset(), " (write it as text or ising)"));
  }
  // Duplicate pairs are merged first: a pair may appear once per triangle.
  absl::flat_hash_map<std::pair<uint32_t, uint32_t>, double> sums;
  std::vector<std::pair<uint32_t, uint32_t>> order;
  for (int k = 0; k < f.w_size(); ++k) {
    const std::pair<uint32_t, uint32_t> key{std::min(f.i(k), f.j(k)),
                                            std::max(f.i(k), f.j(k))};
    auto [it, inserted] = sums.try_emplace(key, 0.0);
    if (inserted) order.push_back(key);
    it->second += f.w(k);
  }
  std::string out =
      absl::StrCat("1\n", f.num_variables(), " ", order.size(), "\n");
  for (const auto& key : order) {
    const double w = sums[key];
    absl::StrAppend(&out, key.first + 1, " ", key.second + 1, " ",
                    ExactNumber(key.first == key.second ? w : w / 2), "\n");
  }
  return out;
}

}  // namespace qs::formats
