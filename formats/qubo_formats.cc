// Dispatch of the raw-model formats: names, detection, the sense rule, and
// the exact BINARY <-> SPIN conversions the writers need.
#include "formats/qubo_formats.h"

#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_text.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

constexpr std::pair<QuboFormat, absl::string_view> kNames[] = {
    {QuboFormat::kAuto, "auto"},     {QuboFormat::kText, "text"},
    {QuboFormat::kQbsolv, "qbsolv"}, {QuboFormat::kOrlib, "orlib"},
    {QuboFormat::kCoo, "coo"},       {QuboFormat::kIsing, "ising"},
};

bool IsInteger(absl::string_view field) {
  int64_t value;
  return absl::SimpleAtoi(field, &value);
}

// "n m offset" followed by exactly m lines whose indices lie below n.
bool LooksLikeText(const std::vector<TextLine>& lines) {
  int64_t n, m;
  if (lines[0].fields.size() != 3 ||
      !absl::SimpleAtoi(lines[0].fields[0], &n) ||
      !absl::SimpleAtoi(lines[0].fields[1], &m) ||
      static_cast<int64_t>(lines.size()) - 1 != m)
    return false;
  for (size_t k = 1; k < lines.size(); ++k) {
    int64_t i, j;
    if (lines[k].fields.size() != 3 ||
        !absl::SimpleAtoi(lines[k].fields[0], &i) ||
        !absl::SimpleAtoi(lines[k].fields[1], &j) || i >= n || j >= n)
      return false;
  }
  return true;
}

// The model of a file's objective f under `sense`: E = f to minimise, E = -f
// to maximise.
v1::QuboModel WithSense(v1::QuboModel f, v1::Sense sense) {
  if (sense == v1::MAXIMIZE) f = Negated(std::move(f));
  f.set_sense(sense == v1::MAXIMIZE ? v1::MAXIMIZE : v1::MINIMIZE);
  return f;
}

// Terms merged per pair, linear terms first, pairs in order of appearance.
class TermSums {
 public:
  explicit TermSums(uint32_t n) : linear_(n, 0.0) {}
  void AddLinear(uint32_t i, double w) { linear_[i] += w; }
  void AddPair(uint32_t i, uint32_t j, double w) {
    auto [it, inserted] =
        index_.try_emplace({std::min(i, j), std::max(i, j)}, pairs_.size());
    if (inserted) pairs_.push_back({it->first, 0.0});
    pairs_[it->second].second += w;
  }
  void WriteTo(v1::QuboModel& model) const {
    model.clear_i();
    model.clear_j();
    model.clear_w();
    for (uint32_t i = 0; i < linear_.size(); ++i) {
      if (linear_[i] == 0) continue;
      model.add_i(i);
      model.add_j(i);
      model.add_w(linear_[i]);
    }
    for (const auto& [pair, w] : pairs_) {
      model.add_i(pair.first);
      model.add_j(pair.second);
      model.add_w(w);
    }
  }

 private:
  std::vector<double> linear_;
  std::map<std::pair<uint32_t, uint32_t>, size_t> index_;
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, double>> pairs_;
};

}  // namespace

absl::string_view QuboFormatName(QuboFormat format) {
  for (const auto& [f, name] : kNames) {
    if (f == format) return name;
  }
  return "?";
}

absl::StatusOr<QuboFormat> ParseQuboFormatName(absl::string_view name) {
  for (const auto& [f, n] : kNames) {
    if (n == name) return f;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--format: one of auto, text, qbsolv, orlib, coo, ising; got '", name,
      "'"));
}

absl::StatusOr<QuboFormat> DetectQuboFormat(absl::string_view text) {
  // dimod's header comes before the first term.
  for (const TextLine& line : ContentLines(text, {})) {
    if (!absl::StartsWith(line.fields[0], "#")) break;
    for (absl::string_view field : line.fields) {
      if (absl::StrContains(field, "vartype=")) return QuboFormat::kCoo;
    }
  }
  const std::vector<TextLine> lines = ContentLines(text, {"#", "c "});
  if (lines.empty()) return absl::InvalidArgumentError("qubo: empty model");
  const TextLine& first = lines[0];
  if (first.fields[0] == "p") return QuboFormat::kQbsolv;
  if (first.fields[0] == "ising") return QuboFormat::kIsing;
  if (first.fields.size() == 1 && IsInteger(first.fields[0]))
    return QuboFormat::kOrlib;
  if (first.fields.size() == 3) {
    return LooksLikeText(lines) ? QuboFormat::kText : QuboFormat::kCoo;
  }
  return LineError("qubo", first.number,
                   "cannot tell the format (text, qbsolv, orlib, coo or "
                   "ising); give --format");
}

absl::StatusOr<v1::QuboModel> ParseQuboModel(absl::string_view text,
                                             const QuboReadOptions& options) {
  QuboFormat format = options.format;
  if (format == QuboFormat::kAuto) {
    auto detected = DetectQuboFormat(text);
    if (!detected.ok()) return detected.status();
    format = *detected;
  }
  absl::StatusOr<v1::QuboModel> f;
  switch (format) {
    case QuboFormat::kOrlib: {
      auto all = ParseOrlibInstances(text, options.sense);
      if (!all.ok()) return all.status();
      if (options.instance < 1 ||
          options.instance > static_cast<int>(all->size())) {
        return absl::InvalidArgumentError(
            absl::StrCat("--instance: the orlib file holds ", all->size(),
                         " instances, asked for ", options.instance));
      }
      return (*all)[options.instance - 1];
    }
    case QuboFormat::kQbsolv:
      f = ParseQbsolvText(text);
      break;
    case QuboFormat::kCoo:
      f = ParseCooText(text);
      break;
    case QuboFormat::kIsing:
      f = ParseIsingText(text);
      break;
    default:
      f = ParseQuboText(text);
      break;
  }
  if (!f.ok()) return f.status();
  return WithSense(*std::move(f), options.sense.value_or(v1::MINIMIZE));
}

absl::StatusOr<std::vector<v1::QuboModel>> ParseOrlibInstances(
    absl::string_view text, std::optional<v1::Sense> sense) {
  auto all = ParseOrlibText(text);
  if (!all.ok()) return all.status();
  for (v1::QuboModel& model : *all)
    model = WithSense(std::move(model), sense.value_or(v1::MAXIMIZE));
  return all;
}

absl::StatusOr<std::string> FormatQuboModel(const v1::QuboModel& model,
                                            QuboFormat format) {
  v1::QuboModel f = model.sense() == v1::MAXIMIZE ? Negated(model) : model;
  switch (format) {
    case QuboFormat::kText:
      return FormatQuboText(f.vartype() == v1::SPIN ? SpinToBinary(f) : f);
    case QuboFormat::kQbsolv:
      return FormatQbsolvText(f);
    case QuboFormat::kOrlib:
      return FormatOrlibText(f);
    case QuboFormat::kCoo:
      return FormatCooText(f);
    case QuboFormat::kIsing:
      return FormatIsingText(f);
    default:
      return absl::InvalidArgumentError("--format: give a format to write");
  }
}

v1::QuboModel Negated(v1::QuboModel model) {
  // 0 stays +0, so that writers never print "-0".
  if (model.offset() != 0) model.set_offset(-model.offset());
  for (double& w : *model.mutable_w()) w = w != 0 ? -w : 0.0;
  return model;
}

v1::QuboModel SpinToBinary(const v1::QuboModel& model) {
  if (model.vartype() != v1::SPIN) return model;
  // s = 2x - 1: h s = 2h x - h; J s_i s_j = J (4 x_i x_j - 2 x_i - 2 x_j + 1).
  TermSums sums(model.num_variables());
  double offset = model.offset();
  for (int k = 0; k < model.w_size(); ++k) {
    const uint32_t i = model.i(k), j = model.j(k);
    const double w = model.w(k);
    if (i == j) {
      sums.AddLinear(i, 2 * w);
      offset -= w;
    } else {
      sums.AddPair(i, j, 4 * w);
      sums.AddLinear(i, -2 * w);
      sums.AddLinear(j, -2 * w);
      offset += w;
    }
  }
  v1::QuboModel out = model;
  out.set_vartype(v1::BINARY);
  out.set_offset(offset);
  sums.WriteTo(out);
  return out;
}

v1::QuboModel BinaryToSpin(const v1::QuboModel& model) {
  if (model.vartype() == v1::SPIN) return model;
  // x = (s + 1) / 2: a x = a/2 + a/2 s; b x_i x_j = b/4 (1 + s_i + s_j +
  // s_i s_j).
  TermSums sums(model.num_variables());
  double offset = model.offset();
  for (int k = 0; k < model.w_size(); ++k) {
    const uint32_t i = model.i(k), j = model.j(k);
    const double w = model.w(k);
    if (i == j) {
      sums.AddLinear(i, w / 2);
      offset += w / 2;
    } else {
      sums.AddPair(i, j, w / 4);
      sums.AddLinear(i, w / 4);
      sums.AddLinear(j, w / 4);
      offset += w / 4;
    }
  }
  v1::QuboModel out = model;
  out.set_vartype(v1::SPIN);
  out.set_offset(offset);
  sums.WriteTo(out);
  return out;
}

}  // namespace qs::formats
