// VariableMap: how the variables of a full puzzle model relate to the variables
// a sampler optimizes. Each full variable is a constant (fixed by clamping,
// [Mücke 2024] §2.1) or a literal of one reduced variable: y_r itself, or 1 -
// y_r (the '=' / 'x' substitutions of the Takuzu paper, [Mata Ali & Mencia
// 2025] §3). ApplyVariableMap builds the reduced model so that, for every
// reduced assignment y,
//   reduced.Energy(y) == full.Energy(Expand(y))   (offsets included, exactly
//   for dyadic weights).
#ifndef QS_CORE_QUBO_VARIABLE_MAP_H_
#define QS_CORE_QUBO_VARIABLE_MAP_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/qubo/qubo.h"

namespace qs {

class VariableMap {
 public:
  // What one full variable is.
  struct Source {
    int32_t reduced = -1;  // reduced variable index, or -1 for a constant
    uint8_t value = 0;     // the constant when reduced == -1; else 1 when the
                           // literal is negated
  };

  VariableMap() = default;
  // n full variables, each its own reduced variable.
  static VariableMap Identity(int n);
  // From per-variable values: -1 free (kept, in order), 0 or 1 fixed.
  static absl::StatusOr<VariableMap> FromAssignment(
      std::span<const int8_t> assignment);
  // From explicit sources. Every reduced index in [0, num_reduced) must be used
  // by at least one full variable; the representative of a reduced variable is
  // the first full variable that uses it.
  static absl::StatusOr<VariableMap> FromSources(std::vector<Source> sources,
                                                 int num_reduced);
  // From explicit sources with the representative of each reduced variable
  // chosen by the caller (the Takuzu paper's left-most, then top-most cell of a
  // sign chain, [Mata Ali & Mencia 2025] §3). representatives[r] must be a full
  // variable whose source is reduced variable r, not negated; every reduced
  // variable is then used by construction.
  static absl::StatusOr<VariableMap> FromSourcesWithRepresentatives(
      std::vector<Source> sources, std::vector<int32_t> representatives);

  int num_full() const { return static_cast<int>(sources_.size()); }
  int num_reduced() const { return static_cast<int>(representative_.size()); }
  const Source& source(int full_index) const { return sources_[full_index]; }
  // The full variable a reduced variable stands for (not negated).
  int32_t representative(int reduced_index) const {
    return representative_[reduced_index];
  }
  int num_fixed_zero() const;
  int num_fixed_one() const;

  // Full assignment from a reduced one.
  std::vector<uint8_t> Expand(std::span<const uint8_t> reduced_bits) const;
  // Reduced assignment read off a full one (each reduced variable from its
  // representative).
  std::vector<uint8_t> Restrict(std::span<const uint8_t> full_bits) const;
  // True when full_bits is the expansion of some reduced assignment (constants
  // and literals agree).
  bool IsConsistent(std::span<const uint8_t> full_bits) const;

 private:
  std::vector<Source> sources_;
  std::vector<int32_t> representative_;
};

// The model over the reduced variables. Labels of representatives are carried
// over.
absl::StatusOr<Qubo> ApplyVariableMap(const Qubo& full, const VariableMap& map);

}  // namespace qs

#endif  // QS_CORE_QUBO_VARIABLE_MAP_H_
