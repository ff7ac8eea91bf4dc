// VariableMap and the affine substitution of QUBO variables (clamping and
// literal substitution).
#include "core/qubo/variable_map.h"

#include "absl/strings/str_cat.h"

namespace qs {

VariableMap VariableMap::Identity(int n) {
  VariableMap map;
  map.sources_.resize(n);
  map.representative_.resize(n);
  for (int i = 0; i < n; ++i) {
    map.sources_[i] = {i, 0};
    map.representative_[i] = i;
  }
  return map;
}

absl::StatusOr<VariableMap> VariableMap::FromAssignment(
    std::span<const int8_t> assignment) {
  std::vector<Source> sources(assignment.size());
  int next = 0;
  for (size_t i = 0; i < assignment.size(); ++i) {
    const int8_t v = assignment[i];
    if (v == -1) {
      sources[i] = {next++, 0};
    } else if (v == 0 || v == 1) {
      sources[i] = {-1, static_cast<uint8_t>(v)};
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "assignment of variable ", i, " must be -1, 0 or 1, got ", int{v}));
    }
  }
  return FromSources(std::move(sources), next);
}

absl::StatusOr<VariableMap> VariableMap::FromSources(
    std::vector<Source> sources, int num_reduced) {
  VariableMap map;
  map.representative_.assign(num_reduced, -1);
  for (size_t i = 0; i < sources.size(); ++i) {
    const Source& s = sources[i];
    if (s.reduced < -1 || s.reduced >= num_reduced) {
      return absl::InvalidArgumentError(
          absl::StrCat("variable ", i, " maps to reduced index ", s.reduced,
                       " outside [0, ", num_reduced, ")"));
    }
    if (s.value > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("variable ", i, " has value ", int{s.value}));
    }
    if (s.reduced >= 0 && map.representative_[s.reduced] == -1) {
      if (s.value != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "variable ", i, " is the first use of reduced variable ", s.reduced,
            " and so its representative; it cannot be negated"));
      }
      map.representative_[s.reduced] = static_cast<int32_t>(i);
    }
  }
  for (int r = 0; r < num_reduced; ++r) {
    if (map.representative_[r] == -1) {
      return absl::InvalidArgumentError(
          absl::StrCat("reduced variable ", r, " is never used"));
    }
  }
  map.sources_ = std::move(sources);
  return map;
}

absl::StatusOr<VariableMap> VariableMap::FromSourcesWithRepresentatives(
    std::vector<Source> sources, std::vector<int32_t> representatives) {
  const int num_reduced = static_cast<int>(representatives.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    const Source& s = sources[i];
    if (s.reduced < -1 || s.reduced >= num_reduced) {
      return absl::InvalidArgumentError(
          absl::StrCat("variable ", i, " maps to reduced index ", s.reduced,
                       " outside [0, ", num_reduced, ")"));
    }
    if (s.value > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("variable ", i, " has value ", int{s.value}));
    }
  }
  for (int r = 0; r < num_reduced; ++r) {
    const int32_t rep = representatives[r];
    if (rep < 0 || static_cast<size_t>(rep) >= sources.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("representative of reduced variable ", r, " is ", rep,
                       ", outside [0, ", sources.size(), ")"));
    }
    if (sources[rep].reduced != r || sources[rep].value != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("representative ", rep, " of reduced variable ", r,
                       " is not the plain literal of that variable"));
    }
  }
  VariableMap map;
  map.sources_ = std::move(sources);
  map.representative_ = std::move(representatives);
  return map;
}

int VariableMap::num_fixed_zero() const {
  int count = 0;
  for (const Source& s : sources_) count += s.reduced < 0 && s.value == 0;
  return count;
}

int VariableMap::num_fixed_one() const {
  int count = 0;
  for (const Source& s : sources_) count += s.reduced < 0 && s.value == 1;
  return count;
}

std::vector<uint8_t> VariableMap::Expand(
    std::span<const uint8_t> reduced_bits) const {
  std::vector<uint8_t> full(sources_.size());
  for (size_t i = 0; i < sources_.size(); ++i) {
    const Source& s = sources_[i];
    full[i] = s.reduced < 0
                  ? s.value
                  : static_cast<uint8_t>(reduced_bits[s.reduced] ^ s.value);
  }
  return full;
}

std::vector<uint8_t> VariableMap::Restrict(
    std::span<const uint8_t> full_bits) const {
  std::vector<uint8_t> reduced(representative_.size());
  for (size_t r = 0; r < representative_.size(); ++r)
    reduced[r] = full_bits[representative_[r]] & 1;
  return reduced;
}

bool VariableMap::IsConsistent(std::span<const uint8_t> full_bits) const {
  if (full_bits.size() != sources_.size()) return false;
  const std::vector<uint8_t> reduced = Restrict(full_bits);
  for (size_t i = 0; i < sources_.size(); ++i) {
    const Source& s = sources_[i];
    const uint8_t expected =
        s.reduced < 0 ? s.value
                      : static_cast<uint8_t>(reduced[s.reduced] ^ s.value);
    if ((full_bits[i] & 1) != expected) return false;
  }
  return true;
}

absl::StatusOr<Qubo> ApplyVariableMap(const Qubo& full,
                                      const VariableMap& map) {
  if (map.num_full() != full.num_variables()) {
    return absl::InvalidArgumentError(
        absl::StrCat("variable map covers ", map.num_full(),
                     " variables, the model has ", full.num_variables()));
  }
  // x_v = c_v + s_v * y_r with (c, s) = (value, 0) for a constant, (0, 1) for
  // y_r, (1, -1) for 1 - y_r.
  auto constant = [&](int v) -> double {
    const auto& s = map.source(v);
    return s.reduced < 0 ? s.value : (s.value ? 1.0 : 0.0);
  };
  auto slope = [&](int v) -> double {
    const auto& s = map.source(v);
    return s.reduced < 0 ? 0.0 : (s.value ? -1.0 : 1.0);
  };
  QuboBuilder builder(map.num_reduced());
  builder.AddOffset(full.offset());
  const int n = full.num_variables();
  for (int v = 0; v < n; ++v) {
    const double a = full.linear(v);
    const int r = map.source(v).reduced;
    builder.AddOffset(a * constant(v));
    if (r >= 0) builder.AddLinear(r, a * slope(v));
    for (const Neighbor& nb : full.neighbors(v)) {
      const int u = nb.j;
      if (u <= v) continue;
      const double w = nb.w;
      const int q = map.source(u).reduced;
      builder.AddOffset(w * constant(v) * constant(u));
      if (q >= 0) builder.AddLinear(q, w * constant(v) * slope(u));
      if (r >= 0) builder.AddLinear(r, w * constant(u) * slope(v));
      // y_r * y_q; when both literals share a variable, y_r^2 = y_r
      // (AddQuadratic folds i == j).
      if (r >= 0 && q >= 0) builder.AddQuadratic(r, q, w * slope(v) * slope(u));
    }
  }
  const auto& labels = full.labels();
  if (!labels.empty()) {
    for (int r = 0; r < map.num_reduced(); ++r)
      builder.SetLabel(r, labels[map.representative(r)]);
  }
  return std::move(builder).Build();
}

}  // namespace qs
