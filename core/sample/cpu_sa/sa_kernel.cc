// Dispatch of the annealing kernel (sa_lanes.inc) to the widest SIMD path the
// CPU runs, and the kernel's form of the model. The lane loop is compiled three
// times from one source: 1 lane (portable code), 8 lanes under an AVX2 target
// and 16 lanes under an AVX-512 target; the default build needs no -march flag.
// Built with -ffp-contract=off (core/CMakeLists.txt) so that every path rounds
// alike.
#include "core/sample/cpu_sa/sa_kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <numbers>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/lane_target.h"

namespace qs {
namespace {

#define QS_LANE_KERNEL "core/sample/cpu_sa/sa_lanes.inc"
#include "core/sample/cpu_sa/lane_paths.inc"

bool Supported(KernelPath path) {
  switch (path) {
    case KernelPath::kScalar:
      return true;
#ifdef QS_SA_X86
    case KernelPath::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case KernelPath::kAvx512:
      return __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512bw");
#endif
    default:
      return false;
  }
}

}  // namespace

absl::StatusOr<KernelModel> MakeKernelModel(const Qubo& qubo) {
  KernelModel model;
  const int n = qubo.num_variables();
  if (n > kMaxKernelVariables || qubo.adjacency().size() > UINT32_MAX) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the model has ", n, " variables and ",
                     qubo.num_couplers(), " couplers; cpu-sa takes at most ",
                     kMaxKernelVariables, " variables and 2^31 couplers"));
  }
  model.num_variables = n;
  // The largest |field| any state can produce, and the largest row, bound the
  // grid.
  double bound = 0;
  int max_row = 0;
  for (int i = 0; i < n; ++i) {
    double row = std::abs(qubo.linear(i));
    for (const Neighbor& nb : qubo.neighbors(i)) row += std::abs(nb.w);
    bound = std::max(bound, row);
    max_row = std::max(max_row, static_cast<int>(qubo.neighbors(i).size()));
  }
  // Rounding adds at most 1/2 per coefficient; keep the rounded bound within
  // 2^24. The scale stays a normal float. When it is huge, k = S ln 2 / beta
  // overflows only for a beta so small that every flip passes anyway.
  constexpr int kMinExponent = -126, kMaxExponent = 126;
  const double room = 0x1p24 - (max_row + 1.0);
  int exponent = kMaxExponent;
  if (bound > 0) {
    exponent = static_cast<int>(std::floor(std::log2(room / bound)));
    exponent = std::clamp(exponent, kMinExponent, kMaxExponent);
    while (exponent > kMinExponent && std::ldexp(bound, exponent) > room) {
      --exponent;
    }
  }
  if (room <= 0 || std::ldexp(bound, exponent) > room) {
    return absl::InvalidArgumentError(
        absl::StrCat("coefficients up to ", bound,
                     " in a row exceed the annealer's float range (2^150)"));
  }
  const double scale = std::ldexp(1.0, exponent);
  model.scale = static_cast<float>(scale);
  auto on_grid = [&](double w) {
    const double scaled = std::nearbyint(w * scale);
    if (scaled != w * scale) model.exact = false;
    return static_cast<float>(scaled);
  };
  model.linear.resize(n);
  model.row_start.resize(n + 1);
  model.edges.reserve(qubo.adjacency().size());
  for (int i = 0; i < n; ++i) {
    model.linear[i] = on_grid(qubo.linear(i));
    model.row_start[i] = static_cast<uint32_t>(model.edges.size());
    for (const Neighbor& nb : qubo.neighbors(i)) {
      model.edges.push_back({static_cast<uint32_t>(nb.j) << 6, on_grid(nb.w)});
    }
  }
  model.row_start[n] = static_cast<uint32_t>(model.edges.size());
  // Chunks of about kPollWork / 16 edge updates (16 lanes); a variable costs
  // its row plus a constant.
  int64_t work = 0;
  for (int i = 0; i < n; ++i) {
    work +=
        16 *
        (8 + static_cast<int64_t>(model.row_start[i + 1] - model.row_start[i]));
    if (work >= kPollWork || i == n - 1) {
      model.chunk_end.push_back(static_cast<uint32_t>(i + 1));
      model.chunk_work.push_back(work);
      work = 0;
    }
  }
  return model;
}

absl::StatusOr<std::shared_ptr<const KernelModel>> CachedKernelModel(
    const Qubo& model, DerivedCache* derived) {
  auto make = [&] { return MakeKernelModel(model); };
  if (derived == nullptr) {
    ASSIGN_OR_RETURN(KernelModel made, make());
    return std::make_shared<const KernelModel>(std::move(made));
  }
  return derived->GetOrTryMake<KernelModel>("cpu_sa/kernel_model", make);
}

KernelPath ResolveKernelPath(KernelPath requested) {
  KernelPath path =
      requested == KernelPath::kAuto ? KernelPath::kAvx512 : requested;
  while (!Supported(path))
    path = static_cast<KernelPath>(static_cast<int>(path) - 1);
  return path;
}

absl::string_view KernelPathName(KernelPath path) {
  switch (path) {
    case KernelPath::kAuto:
      return "auto";
    case KernelPath::kScalar:
      return "scalar";
    case KernelPath::kAvx2:
      return "avx2";
    case KernelPath::kAvx512:
      return "avx512";
  }
  return "unknown";
}

int KernelLanes(KernelPath path) {
  switch (path) {
    case KernelPath::kAvx2:
      return 8;
    case KernelPath::kAvx512:
      return 16;
    default:
      return 1;
  }
}

KernelPath BatchPath(KernelPath path, int count) {
  return count <= KernelLanes(KernelPath::kAvx2) && path == KernelPath::kAvx512
             ? KernelPath::kAvx2
             : path;
}

uint64_t SliceSeed(uint64_t seed, int64_t index) {
  return index == 0 ? seed : DeriveSeed(seed, static_cast<uint64_t>(index));
}

KernelStats AnnealReads(KernelPath path, const KernelModel& model,
                        const ResolvedSchedule& schedule, Acceptance acceptance,
                        std::span<KernelRead> reads, Interrupter& interrupter,
                        const SweepWindow& window) {
#ifdef QS_SA_X86
  if (path == KernelPath::kAvx512)
    return avx512::AnnealLanes(model, schedule, acceptance, reads, interrupter,
                               window);
  if (path == KernelPath::kAvx2)
    return avx2::AnnealLanes(model, schedule, acceptance, reads, interrupter,
                             window);
#endif
  return scalar::AnnealLanes(model, schedule, acceptance, reads, interrupter,
                             window);
}

}  // namespace qs
