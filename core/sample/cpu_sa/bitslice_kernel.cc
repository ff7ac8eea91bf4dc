// The bit-sliced kernel's model (the integer Ising form of a Qubo and the
// qualifying rule) and its dispatch: the sweep of bitslice_lanes.inc is
// compiled twice, as portable code and under an AVX2 target, and the CPU
// picks at run time. Neither target has FMA and the file is built with
// -ffp-contract=off (core/CMakeLists.txt), so no float expression is fused
// and both paths round alike.
#include "core/sample/cpu_sa/bitslice_kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"

#pragma GCC diagnostic ignored "-Wpsabi"

namespace qs {
namespace {

namespace portable {
#include "core/sample/cpu_sa/bitslice_lanes.inc"
}  // namespace portable

#if defined(__x86_64__)
#define QS_BS_X86 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,popcnt"))), \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,popcnt")
#endif
namespace avx2 {
#include "core/sample/cpu_sa/bitslice_lanes.inc"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

bool HasAvx2() {
#ifdef QS_BS_X86
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

// Bits after the binary point that v needs (v = M 2^-bits, M odd).
int FractionBits(double v) {
  // Integers, the common case, without frexp: this runs over every coupler
  // of every model auto looks at.
  if (std::abs(v) < 0x1p53 && v == std::trunc(v)) return 0;
  if (!std::isfinite(v)) return std::numeric_limits<int>::max();
  int exponent;
  const double mantissa = std::frexp(std::abs(v), &exponent);
  const auto m = static_cast<uint64_t>(std::ldexp(mantissa, 53));
  return std::max(0, 53 - exponent - std::countr_zero(m));
}

// gcd(g, v), g >= 0. The gcd changes a few times over a model: a test of
// divisibility is far cheaper than std::gcd's loop for each of its terms.
int64_t GcdWith(int64_t g, int64_t v) {
  if (g == 0) return std::gcd(g, v);
  // Powers of two (1 included, the usual gcd) need no division.
  const bool divides = (g & (g - 1)) == 0 ? (v & (g - 1)) == 0 : v % g == 0;
  return divides ? g : std::gcd(g, v);
}

BitSliceModel Refuse(std::string reason) {
  BitSliceModel model;
  model.reason = std::move(reason);
  return model;
}

// Rows of at most 2^22 entries of at most 2^40 each keep every field sum
// within int64.
constexpr double kMaxInteger = 0x1p40;
constexpr size_t kMaxRow = size_t{1} << 22;
// Variable-edges between interrupter polls (tens of microseconds).
constexpr int64_t kChunkWork = int64_t{1} << 14;

}  // namespace

BitSliceModel MakeBitSliceModel(const Qubo& qubo) {
  const int n = qubo.num_variables();
  if (n == 0 || qubo.num_couplers() == 0) return Refuse("no coupler");
  if (n > kMaxKernelVariables || qubo.adjacency().size() > UINT32_MAX / 4)
    return Refuse("too many variables");
  // A common power-of-two grid: A_i = a_i 2^e and B_ij = b_ij 2^e integers.
  int bits = 0;
  for (int i = 0; i < n; ++i) {
    if (qubo.neighbors(i).size() > kMaxRow) return Refuse("row too long");
    bits = std::max(bits, FractionBits(qubo.linear(i)));
    for (const Neighbor& nb : qubo.neighbors(i))
      bits = std::max(bits, FractionBits(nb.w));
  }
  if (bits > 60) return Refuse("coefficients off a power-of-two grid");
  auto scaled_by_grid = [bits](double v) {
    return bits == 0 ? v : std::ldexp(v, bits);
  };
  auto integer = [&](double v, int64_t& out) {
    const double scaled = scaled_by_grid(v);
    if (!(std::abs(scaled) <= kMaxInteger)) return false;
    out = static_cast<int64_t>(scaled);
    return true;
  };
  // 4 J_ij 2^e = B_ij and 4 h_i 2^e = -(2 A_i + sum_j B_ij); their gcd G is
  // the unit's multiple.
  std::vector<int64_t> field4(n);
  int64_t g = 0;
  for (int i = 0; i < n; ++i) {
    int64_t a;
    if (!integer(qubo.linear(i), a)) return Refuse("coefficients too large");
    int64_t sum = 2 * a;
    for (const Neighbor& nb : qubo.neighbors(i)) {
      int64_t b;
      if (!integer(nb.w, b)) return Refuse("coefficients too large");
      sum += b;
      g = GcdWith(g, b);
    }
    field4[i] = -sum;
    g = GcdWith(g, field4[i]);
  }
  if (g == 0) return Refuse("no non-zero coefficient");

  BitSliceModel model;
  model.num_variables = n;
  model.unit = std::ldexp(static_cast<double>(g), -(bits + 2));
  model.segment_start.resize(n + 1);
  model.row_start.resize(n + 1);
  model.total.resize(n);
  model.field.resize(n);
  model.field_flip.resize(n);
  model.planes.resize(n);
  int32_t max_total = 0;
  int64_t work = 0;
  int64_t ising_at_zero2 = 0, half_bonds2 = 0, fields = 0;  // 2 I(0), ...
  std::vector<int64_t> row_units;  // row i's couplings in units
  for (int i = 0; i < n; ++i) {
    const int64_t eta = field4[i] / g;
    int64_t row = std::abs(eta);
    row_units.clear();
    for (const Neighbor& nb : qubo.neighbors(i)) {
      const int64_t w = std::llround(scaled_by_grid(nb.w)) / g;
      row_units.push_back(w);
      if (std::abs(w) > kBitSliceMaxWeight) {
        return Refuse(absl::StrCat("a coupling of ", std::abs(w),
                                   " units exceeds ", kBitSliceMaxWeight));
      }
      if (std::abs(w) > 1) model.unit_weights = false;
      row += std::abs(w);
      ising_at_zero2 += w;
      half_bonds2 += std::abs(w);
    }
    ising_at_zero2 += 2 * eta;
    fields += std::abs(eta);
    if (row >= (int64_t{1} << kBitSliceMaxPlanes)) {
      return Refuse(absl::StrCat("a row of ", row, " units exceeds 2^",
                                 kBitSliceMaxPlanes));
    }
    model.total[i] = static_cast<int32_t>(row);
    model.field[i] = static_cast<int32_t>(std::abs(eta));
    model.field_flip[i] = eta > 0;
    model.has_field = model.has_field || eta != 0;
    model.planes[i] =
        static_cast<uint8_t>(std::bit_width(static_cast<uint32_t>(row)));
    max_total = std::max(max_total, model.total[i]);
    // Segments by level.
    model.segment_start[i] = static_cast<uint32_t>(model.segments.size());
    model.row_start[i] = static_cast<uint32_t>(model.offsets.size());
    const auto row_neighbors = qubo.neighbors(i);
    for (int level = 0; level < 4; ++level) {
      const size_t before = model.offsets.size();
      for (size_t k = 0; k < row_neighbors.size(); ++k) {
        const int64_t w = row_units[k];
        if (std::abs(w) >> level & 1) {
          model.offsets.push_back(
              (static_cast<uint32_t>(row_neighbors[k].j) << 6) |
              (w > 0 ? 32u : 0u));
        }
      }
      if (model.offsets.size() > before) {
        model.segments.push_back({static_cast<uint32_t>(model.offsets.size()),
                                  static_cast<uint8_t>(level)});
      }
    }
    work +=
        16 + static_cast<int64_t>(model.offsets.size() - model.row_start[i]);
    if (work >= kChunkWork || i == n - 1) {
      model.chunk_end.push_back(static_cast<uint32_t>(i + 1));
      work = 0;
    }
  }
  model.segment_start[n] = static_cast<uint32_t>(model.segments.size());
  model.row_start[n] = static_cast<uint32_t>(model.offsets.size());
  model.max_planes = std::bit_width(static_cast<uint32_t>(max_total));
  model.energy_base = -fields - half_bonds2 / 2 - ising_at_zero2 / 2;
  model.offset = qubo.offset();
  // Every partial sum of Qubo::Energy and of offset + unit * D is then an
  // integer multiple of 2^-grid below 2^52 of them, and unit * D the product
  // of an integer below 2^50 and a power of two: no rounding anywhere.
  double magnitude = std::abs(qubo.offset());
  for (int i = 0; i < n; ++i) {
    magnitude += std::abs(qubo.linear(i));
    for (const Neighbor& nb : qubo.neighbors(i)) magnitude += std::abs(nb.w);
  }
  const int grid = std::max(bits, FractionBits(qubo.offset()));
  model.energy_exact =
      grid <= 60 && std::ldexp(magnitude, grid) < 0x1p52 &&
      static_cast<double>(half_bonds2 + 2 * fields) * static_cast<double>(g) <
          0x1p50;
  model.qualifies = true;
  return model;
}

std::shared_ptr<const BitSliceModel> CachedBitSliceModel(
    const Qubo& model, DerivedCache* derived) {
  auto make = [&]() -> absl::StatusOr<BitSliceModel> {
    return MakeBitSliceModel(model);
  };
  if (derived != nullptr) {
    auto cached =
        derived->GetOrTryMake<BitSliceModel>("cpu_sa/bitslice_model", make);
    if (cached.ok()) return *std::move(cached);
  }
  return std::make_shared<const BitSliceModel>(MakeBitSliceModel(model));
}

absl::string_view BitSlicePathName() {
  return HasAvx2() ? "bitsliced-avx2" : "bitsliced-portable";
}

KernelStats AnnealBitSliced(const BitSliceModel& model,
                            const ResolvedSchedule& schedule,
                            Acceptance acceptance, std::span<KernelRead> reads,
                            Interrupter& interrupter, bool portable,
                            const SweepWindow& window, BitSliceWord* keep) {
  if (reads.empty()) return {};
#ifdef QS_BS_X86
  if (HasAvx2() && !portable) {
    return avx2::AnnealWord(model, schedule, acceptance, reads, interrupter,
                            window, keep);
  }
#endif
  return portable::AnnealWord(model, schedule, acceptance, reads, interrupter,
                              window, keep);
}

}  // namespace qs
