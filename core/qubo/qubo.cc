// Qubo, QuboBuilder and the QUBO <-> Ising conversions.
#include "core/qubo/qubo.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace qs {

std::vector<QuboTerm> Qubo::QuadraticTerms() const {
  std::vector<QuboTerm> terms;
  terms.reserve(adjacency_.size() / 2);
  for (int i = 0; i < num_variables(); ++i) {
    for (const Neighbor& nb : neighbors(i)) {
      if (nb.j > i) terms.push_back({i, nb.j, nb.w});
    }
  }
  return terms;
}

double Qubo::Energy(std::span<const uint8_t> x) const {
  double energy = offset_;
  const int n = num_variables();
  for (int i = 0; i < n; ++i) {
    if (!x[i]) continue;
    energy += linear_[i];
    for (const Neighbor& nb : neighbors(i)) {
      if (nb.j > i && x[nb.j]) energy += nb.w;
    }
  }
  return energy;
}

double Qubo::FlipDelta(std::span<const uint8_t> x, int i) const {
  double field = linear_[i];
  for (const Neighbor& nb : neighbors(i)) {
    if (x[nb.j]) field += nb.w;
  }
  return x[i] ? -field : field;
}

QuboStats Qubo::Stats() const {
  QuboStats stats;
  const int n = num_variables();
  stats.num_variables = n;
  stats.num_couplers = num_couplers();
  for (int i = 0; i < n; ++i) {
    if (linear_[i] != 0) ++stats.num_linear_terms;
    stats.max_abs_coefficient =
        std::max(stats.max_abs_coefficient, std::abs(linear_[i]));
    const auto nbs = neighbors(i);
    stats.max_degree = std::max(stats.max_degree, static_cast<int>(nbs.size()));
    for (const Neighbor& nb : nbs) {
      stats.max_abs_coefficient =
          std::max(stats.max_abs_coefficient, std::abs(nb.w));
    }
  }
  if (n >= 2) {
    stats.density =
        static_cast<double>(stats.num_couplers) / (0.5 * n * (n - 1.0));
  }
  return stats;
}

Qubo Qubo::WithOffset(double offset) const {
  Qubo copy = *this;
  copy.offset_ = offset;
  return copy;
}

QuboBuilder::QuboBuilder(int num_variables)
    : linear_(std::max(0, num_variables), 0.0) {
  if (num_variables < 0) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("num_variables must be >= 0, got ", num_variables)));
  }
}

void QuboBuilder::Fail(absl::Status status) {
  if (status_.ok()) status_ = std::move(status);
}

void QuboBuilder::AddOffset(double c) {
  if (!std::isfinite(c)) {
    Fail(absl::InvalidArgumentError(absl::StrCat("offset is not finite: ", c)));
    return;
  }
  offset_ += c;
}

void QuboBuilder::AddLinear(int i, double w) {
  if (i < 0 || i >= num_variables()) {
    Fail(absl::InvalidArgumentError(absl::StrCat(
        "linear term index ", i, " out of range [0, ", num_variables(), ")")));
    return;
  }
  if (!std::isfinite(w)) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("linear term of variable ", i, " is not finite: ", w)));
    return;
  }
  linear_[i] += w;
}

void QuboBuilder::AddQuadratic(int i, int j, double w) {
  if (i < 0 || j < 0 || i >= num_variables() || j >= num_variables()) {
    Fail(absl::InvalidArgumentError(absl::StrCat("quadratic term (", i, ", ", j,
                                                 ") out of range [0, ",
                                                 num_variables(), ")")));
    return;
  }
  if (!std::isfinite(w)) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("quadratic term (", i, ", ", j, ") is not finite: ", w)));
    return;
  }
  if (i == j) {
    linear_[i] += w;
    return;
  }
  if (i > j) std::swap(i, j);
  quadratic_.push_back({i, j, w});
}

void QuboBuilder::SetLabel(int i, std::string label) {
  if (i < 0 || i >= num_variables()) {
    Fail(absl::InvalidArgumentError(absl::StrCat(
        "label index ", i, " out of range [0, ", num_variables(), ")")));
    return;
  }
  if (labels_.empty()) labels_.resize(linear_.size());
  labels_[i] = std::move(label);
}

absl::StatusOr<Qubo> QuboBuilder::Build() && {
  if (!status_.ok()) return status_;
  const int n = num_variables();
  // Sort by (i, j): a counting pass buckets the terms by row, then each short
  // row is sorted on its own. Compilers emit tens of thousands of terms
  // (duplicates included) and this runs on every request.
  {
    std::vector<int64_t> row_begin(n + 1, 0);
    for (const QuboTerm& t : quadratic_) ++row_begin[t.i + 1];
    for (int i = 0; i < n; ++i) row_begin[i + 1] += row_begin[i];
    std::vector<QuboTerm> by_row(quadratic_.size());
    std::vector<int64_t> fill(row_begin.begin(), row_begin.end() - 1);
    for (const QuboTerm& t : quadratic_) by_row[fill[t.i]++] = t;
    for (int i = 0; i < n; ++i) {
      // Stable, so duplicates are summed in the order they were added.
      std::stable_sort(
          by_row.begin() + row_begin[i], by_row.begin() + row_begin[i + 1],
          [](const QuboTerm& a, const QuboTerm& b) { return a.j < b.j; });
    }
    quadratic_ = std::move(by_row);
  }
  // Merge duplicates in place.
  size_t out = 0;
  for (size_t k = 0; k < quadratic_.size();) {
    QuboTerm merged = quadratic_[k];
    size_t next = k + 1;
    while (next < quadratic_.size() && quadratic_[next].i == merged.i &&
           quadratic_[next].j == merged.j) {
      merged.w += quadratic_[next].w;
      ++next;
    }
    if (merged.w != 0.0) quadratic_[out++] = merged;
    k = next;
  }
  quadratic_.resize(out);

  Qubo qubo;
  qubo.offset_ = offset_;
  qubo.linear_ = std::move(linear_);
  qubo.labels_ = std::move(labels_);
  std::vector<int64_t> degree(n + 1, 0);
  for (const QuboTerm& t : quadratic_) {
    ++degree[t.i];
    ++degree[t.j];
  }
  qubo.row_start_.assign(n + 1, 0);
  for (int i = 0; i < n; ++i)
    qubo.row_start_[i + 1] = qubo.row_start_[i] + degree[i];
  qubo.adjacency_.resize(2 * quadratic_.size());
  std::vector<int64_t> fill(qubo.row_start_.begin(), qubo.row_start_.end() - 1);
  // Terms are sorted by (i, j), so each row receives its entries in increasing
  // order of the other index: first the smaller partners (as j of earlier
  // rows), then the larger ones.
  for (const QuboTerm& t : quadratic_)
    qubo.adjacency_[fill[t.j]++] = {t.i, t.w};
  for (const QuboTerm& t : quadratic_)
    qubo.adjacency_[fill[t.i]++] = {t.j, t.w};
  return qubo;
}

double IsingModel::Energy(std::span<const int8_t> spins) const {
  double energy = offset;
  for (int i = 0; i < num_variables; ++i) energy += h[i] * spins[i];
  for (const QuboTerm& t : couplings) energy += t.w * spins[t.i] * spins[t.j];
  return energy;
}

IsingModel ToIsing(const Qubo& qubo) {
  IsingModel ising;
  const int n = qubo.num_variables();
  ising.num_variables = n;
  ising.offset = qubo.offset();
  ising.h.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    ising.h[i] += qubo.linear(i) / 2;
    ising.offset += qubo.linear(i) / 2;
  }
  ising.couplings = qubo.QuadraticTerms();
  for (QuboTerm& t : ising.couplings) {
    const double quarter = t.w / 4;
    ising.h[t.i] += quarter;
    ising.h[t.j] += quarter;
    ising.offset += quarter;
    t.w = quarter;
  }
  return ising;
}

absl::StatusOr<Qubo> FromIsing(const IsingModel& ising) {
  if (static_cast<int>(ising.h.size()) != ising.num_variables) {
    return absl::InvalidArgumentError(
        absl::StrCat("ising h has ", ising.h.size(), " entries, expected ",
                     ising.num_variables));
  }
  QuboBuilder builder(ising.num_variables);
  builder.AddOffset(ising.offset);
  for (int i = 0; i < ising.num_variables; ++i) {
    builder.AddLinear(i, 2 * ising.h[i]);
    builder.AddOffset(-ising.h[i]);
  }
  for (const QuboTerm& t : ising.couplings) {
    if (t.i == t.j) {
      // s_i^2 = 1: a constant.
      builder.AddOffset(t.w);
      continue;
    }
    builder.AddQuadratic(t.i, t.j, 4 * t.w);
    builder.AddLinear(t.i, -2 * t.w);
    builder.AddLinear(t.j, -2 * t.w);
    builder.AddOffset(t.w);
  }
  return std::move(builder).Build();
}

}  // namespace qs
