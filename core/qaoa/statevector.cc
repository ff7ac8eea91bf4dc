// The simulator's passes: diagonal, initial states, phase and mixer layers,
// reductions and sampling.
#include "core/qaoa/statevector.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/base/rng.h"

namespace qs {
namespace {

// Low qubits whose mixer runs inside one block of amplitudes together with
// the phase multiply (2^12 amplitudes: 64 KiB of state, about L1 + L2).
constexpr int kBlockBits = 12;
// High qubits are mixed in groups of up to kGroupBits: a tile is the 2^g
// chunks of contiguous amplitudes that differ only in the group's bits, 2^15
// amplitudes in all (512 KiB of state, within L2). It is copied into a
// contiguous buffer, mixed there and copied back: the chunks lie at a stride
// of a power of two, which in place would alias to the same cache sets.
constexpr int kGroupBits = 12;
constexpr int kTileBits = 15;
// A diagonal with more distinct values than this is not indexed (phases then
// cost a sine and a cosine per amplitude).
constexpr size_t kMaxLevels = 4096;
// Work below this many amplitudes per chunk is not worth a pool task.
constexpr uint64_t kMinChunk = uint64_t{1} << 14;

// 64-byte aligned; large arrays on 2 MiB boundaries and, where the kernel
// has transparent huge pages, in huge pages (the high-qubit gathers touch a
// line per 4 KiB page otherwise).
double* AllocateDoubles(uint64_t count) {
  constexpr size_t kHuge = size_t{2} << 20;
  const size_t bytes = count * sizeof(double);
  if (bytes < kHuge) {
    return static_cast<double*>(
        std::aligned_alloc(64, std::max<size_t>(64, (bytes + 63) / 64 * 64)));
  }
  void* p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
  if (p != nullptr) madvise(p, bytes, MADV_HUGEPAGE);
  return static_cast<double*>(p);
}

// The kernels below are compiled for AVX-512, AVX2 and the baseline, picked
// at load time (GCC's target_clones); every path computes the same products
// and sums in the same order (no fused multiply-adds: -ffp-contract=off in
// core/CMakeLists.txt), so results do not depend on the CPU. ThreadSanitizer
// builds take the baseline only: the load-time resolver of the clones runs
// before its runtime is up and crashes the program.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define QS_QAOA_KERNEL \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define QS_QAOA_KERNEL
#endif

// rx-type butterfly on len pairs (a, b): a' = c a - i s b, b' = c b - i s a.
inline void Butterfly(double* __restrict ar, double* __restrict ai,
                      double* __restrict br, double* __restrict bi,
                      uint64_t len, double c, double s) {
  for (uint64_t k = 0; k < len; ++k) {
    const double a_r = ar[k], a_i = ai[k], b_r = br[k], b_i = bi[k];
    ar[k] = c * a_r + s * b_i;
    ai[k] = c * a_i - s * b_r;
    br[k] = c * b_r + s * a_i;
    bi[k] = c * b_i - s * a_r;
  }
}

// The rx butterflies of qubits [0, bits) on 2^bits amplitudes at re, im.
QS_QAOA_KERNEL void MixLowQubits(double* re, double* im, int bits, double c,
                                 double s) {
  const uint64_t size = uint64_t{1} << bits;
  for (int q = 0; q < bits; ++q) {
    const uint64_t stride = uint64_t{1} << q;
    for (uint64_t base = 0; base < size; base += 2 * stride) {
      Butterfly(re + base, im + base, re + base + stride, im + base + stride,
                stride, c, s);
    }
  }
}

// psi *= exp(-i gamma C) = c - i s, with c and s looked up by value index.
QS_QAOA_KERNEL void PhaseIndexed(double* __restrict re, double* __restrict im,
                                 const uint16_t* level, const double* cos_table,
                                 const double* sin_table, uint64_t len) {
  for (uint64_t k = 0; k < len; ++k) {
    const double c = cos_table[level[k]], s = sin_table[level[k]];
    const double r = re[k], i = im[k];
    re[k] = r * c + i * s;
    im[k] = i * c - r * s;
  }
}

// The butterflies of a tile's `qubits` group qubits; group qubit q is bit
// log2(chunk) + q of the tile.
QS_QAOA_KERNEL void MixTile(double* re, double* im, uint64_t chunk, int qubits,
                            double c, double s) {
  const uint64_t tile = chunk << qubits;
  for (int q = 0; q < qubits; ++q) {
    const uint64_t stride = chunk << q;
    for (uint64_t a = 0; a < tile; a += 2 * stride)
      Butterfly(re + a, im + a, re + a + stride, im + a + stride, stride, c, s);
  }
}

}  // namespace

int QaoaMaxQubits(int64_t memory_bytes) {
  int n = 0;
  while (n < kMaxPhaseQubits &&
         (int64_t{1} << (n + 1)) <= memory_bytes / kQaoaBytesPerAmplitude)
    ++n;
  return n;
}

template <typename Fn>
void QaoaStatevector::ParallelFor(uint64_t count, uint64_t min_chunk,
                                  Fn fn) const {
  const uint64_t chunks =
      std::clamp<uint64_t>(count / std::max<uint64_t>(min_chunk, 1), 1, 64);
  const uint64_t step = (count + chunks - 1) / chunks;
  if (pool_ == nullptr || pool_->num_threads() < 2 || chunks < 2) {
    fn(uint64_t{0}, count);
    return;
  }
  auto group = pool_->NewGroup();
  for (uint64_t begin = 0; begin < count; begin += step) {
    const uint64_t end = std::min(count, begin + step);
    group->Submit([&fn, begin, end] { fn(begin, end); });
  }
  // Tasks allocate nothing; Wait reports only allocation failures.
  group->Wait().IgnoreError();
}

QaoaStatevector::QaoaStatevector(int n, QaoaMixerSpec mixer, WorkerPool* pool)
    : n_(n), mixer_(std::move(mixer)), pool_(pool) {}

absl::StatusOr<std::unique_ptr<QaoaStatevector>> QaoaStatevector::Create(
    const PhasePolynomial& cost, QaoaMixerSpec mixer, WorkerPool* pool) {
  const int n = cost.num_qubits;
  uint64_t xy_mask = 0;
  for (size_t g = 0; g < mixer.xy_groups.size(); ++g) {
    for (int32_t v : mixer.xy_groups[g]) {
      if (v < 0 || v >= n || (xy_mask >> v & 1)) {
        return absl::InvalidArgumentError(
            absl::StrCat("qaoa mixer: group ", g, " names variable ", v,
                         ", out of range or in another group"));
      }
      xy_mask |= uint64_t{1} << v;
    }
  }
  std::unique_ptr<QaoaStatevector> sv(
      new QaoaStatevector(n, std::move(mixer), pool));
  sv->xy_mask_ = xy_mask;
  const uint64_t size = sv->size();
  sv->re_.reset(AllocateDoubles(size));
  sv->im_.reset(AllocateDoubles(size));
  sv->diag_.reset(AllocateDoubles(size));
  if (!sv->re_ || !sv->im_ || !sv->diag_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("qaoa: cannot allocate the state of ", n, " qubits"));
  }
  sv->BuildDiagonal(cost);
  sv->IndexLevels();
  return sv;
}

void QaoaStatevector::BuildDiagonal(const PhasePolynomial& cost) {
  double* diag = diag_.get();
  // Term by term over blocks that stay in cache.
  ParallelFor(size(), kMinChunk, [&](uint64_t begin, uint64_t end) {
    constexpr uint64_t kBlock = 4096;
    for (uint64_t b = begin; b < end; b += kBlock) {
      const uint64_t e = std::min(end, b + kBlock);
      for (uint64_t z = b; z < e; ++z) diag[z] = cost.constant;
      for (const PhaseTerm& t : cost.terms) {
        for (uint64_t z = b; z < e; ++z)
          diag[z] += std::popcount(z & t.mask) & 1 ? -t.w : t.w;
      }
    }
  });
}

void QaoaStatevector::IndexLevels() {
  absl::flat_hash_map<double, uint16_t> index;
  std::vector<uint16_t> level(size());
  for (uint64_t z = 0; z < size(); ++z) {
    auto [it, inserted] =
        index.try_emplace(diag_[z], static_cast<uint16_t>(index.size()));
    if (inserted && index.size() > kMaxLevels) return;  // not indexed
    level[z] = it->second;
  }
  levels_.resize(index.size());
  for (const auto& [value, k] : index) levels_[k] = value;
  level_ = std::move(level);
}

void QaoaStatevector::Initialise() {
  double* re = re_.get();
  double* im = im_.get();
  const int free_qubits = n_ - std::popcount(xy_mask_);
  double scale = std::ldexp(1.0, 0) / std::sqrt(std::ldexp(1.0, free_qubits));
  for (const auto& group : mixer_.xy_groups)
    scale /= std::sqrt(static_cast<double>(group.size()));
  std::vector<uint64_t> group_masks;
  for (const auto& group : mixer_.xy_groups) {
    uint64_t m = 0;
    for (int32_t v : group) m |= uint64_t{1} << v;
    group_masks.push_back(m);
  }
  ParallelFor(size(), kMinChunk, [&](uint64_t begin, uint64_t end) {
    for (uint64_t z = begin; z < end; ++z) {
      bool feasible = true;
      for (uint64_t m : group_masks)
        feasible = feasible && std::popcount(z & m) == 1;
      re[z] = feasible ? scale : 0;
      im[z] = 0;
    }
  });
}

bool QaoaStatevector::Run(std::span<const double> gammas,
                          std::span<const double> betas,
                          Interrupter* interrupter) {
  Initialise();
  for (size_t k = 0; k < gammas.size() && k < betas.size(); ++k) {
    if (interrupter != nullptr && interrupter->ShouldStop()) return false;
    ApplyLayer(gammas[k], betas[k]);
  }
  return true;
}

void QaoaStatevector::PhaseAndLowMixer(uint64_t block, double gamma,
                                       double beta,
                                       std::span<const double> cos_table,
                                       std::span<const double> sin_table) {
  const int bits = std::min(n_, kBlockBits);
  const uint64_t begin = block << bits, len = uint64_t{1} << bits;
  double* __restrict re = re_.get() + begin;
  double* __restrict im = im_.get() + begin;
  const double* diag = diag_.get() + begin;
  // psi *= exp(-i gamma C) = c - i s with c = cos(gamma C), s = sin(gamma C).
  if (!level_.empty()) {
    PhaseIndexed(re, im, level_.data() + begin, cos_table.data(),
                 sin_table.data(), len);
  } else {
    for (uint64_t k = 0; k < len; ++k) {
      const double c = std::cos(gamma * diag[k]), s = std::sin(gamma * diag[k]);
      const double r = re[k], i = im[k];
      re[k] = r * c + i * s;
      im[k] = i * c - r * s;
    }
  }
  if (xy_mask_ == 0) MixLowQubits(re, im, bits, std::cos(beta), std::sin(beta));
}

void QaoaStatevector::HighMixer(int first_qubit, int qubits, double beta) {
  const double c = std::cos(beta), s = std::sin(beta);
  const int chunk_bits = std::min(kTileBits - qubits, first_qubit);
  const uint64_t chunk = uint64_t{1} << chunk_bits;
  const uint64_t tile = chunk << qubits;
  const int between = first_qubit - chunk_bits;  // bits between chunk and group
  const uint64_t tiles = size() >> (chunk_bits + qubits);
  double* re = re_.get();
  double* im = im_.get();
  ParallelFor(tiles, 1, [&](uint64_t begin, uint64_t end) {
    std::vector<double> tile_re(tile), tile_im(tile);
    for (uint64_t t = begin; t < end; ++t) {
      const uint64_t low = t & ((uint64_t{1} << between) - 1);
      const uint64_t high = t >> between;
      const uint64_t base =
          (low << chunk_bits) | (high << (first_qubit + qubits));
      for (uint64_t j = 0; j < (uint64_t{1} << qubits); ++j) {
        const uint64_t from = base | (j << first_qubit);
        std::copy_n(re + from, chunk, tile_re.data() + j * chunk);
        std::copy_n(im + from, chunk, tile_im.data() + j * chunk);
      }
      MixTile(tile_re.data(), tile_im.data(), chunk, qubits, c, s);
      for (uint64_t j = 0; j < (uint64_t{1} << qubits); ++j) {
        const uint64_t to = base | (j << first_qubit);
        std::copy_n(tile_re.data() + j * chunk, chunk, re + to);
        std::copy_n(tile_im.data() + j * chunk, chunk, im + to);
      }
    }
  });
}

void QaoaStatevector::ApplyXyMixer(double beta) {
  const double c = std::cos(beta), s = std::sin(beta);
  double* re = re_.get();
  double* im = im_.get();
  // exp(-i beta (X_a X_b + Y_a Y_b) / 2) rotates |01> and |10> into each other
  // and leaves |00> and |11> alone.
  auto xy = [&](int a, int b) {
    const uint64_t ma = uint64_t{1} << a, mb = uint64_t{1} << b;
    ParallelFor(size(), kMinChunk, [&](uint64_t begin, uint64_t end) {
      for (uint64_t z = begin; z < end; ++z) {
        if (!(z & ma) || (z & mb)) continue;
        const uint64_t w = z ^ ma ^ mb;
        Butterfly(re + z, im + z, re + w, im + w, 1, c, s);
      }
    });
  };
  for (const auto& group : mixer_.xy_groups) {
    const size_t k = group.size();
    if (k < 2) continue;
    // The ring's edges in order; a pair is one edge, not two.
    for (size_t e = 0; e < (k == 2 ? 1 : k); ++e)
      xy(group[e], group[(e + 1) % k]);
  }
  for (int q = 0; q < n_; ++q) {
    if (xy_mask_ >> q & 1) continue;
    const uint64_t stride = uint64_t{1} << q;
    ParallelFor(size() / 2, kMinChunk, [&](uint64_t begin, uint64_t end) {
      for (uint64_t p = begin; p < end; ++p) {
        // The p-th index with bit q clear.
        const uint64_t a = ((p >> q) << (q + 1)) | (p & (stride - 1));
        Butterfly(re + a, im + a, re + a + stride, im + a + stride, 1, c, s);
      }
    });
  }
}

void QaoaStatevector::ApplyLayer(double gamma, double beta) {
  std::vector<double> cos_table(levels_.size()), sin_table(levels_.size());
  for (size_t k = 0; k < levels_.size(); ++k) {
    cos_table[k] = std::cos(gamma * levels_[k]);
    sin_table[k] = std::sin(gamma * levels_[k]);
  }
  const int bits = std::min(n_, kBlockBits);
  ParallelFor(size() >> bits, kMinChunk >> bits,
              [&](uint64_t begin, uint64_t end) {
                for (uint64_t b = begin; b < end; ++b)
                  PhaseAndLowMixer(b, gamma, beta, cos_table, sin_table);
              });
  if (xy_mask_ != 0) {
    ApplyXyMixer(beta);
    return;
  }
  for (int q = bits; q < n_; q += kGroupBits)
    HighMixer(q, std::min(kGroupBits, n_ - q), beta);
}

double QaoaStatevector::Expectation() const {
  return ProbabilityWeighted([this](uint64_t z) { return diag_[z]; });
}

double QaoaStatevector::ProbabilityOfEnergy(double energy, double tol) const {
  return ProbabilityWeighted([this, energy, tol](uint64_t z) {
    return std::abs(diag_[z] - energy) <= tol ? 1.0 : 0.0;
  });
}

template <typename Weight>
double QaoaStatevector::ProbabilityWeighted(Weight weight) const {
  // Fixed chunks summed in order: the same result on any thread count.
  constexpr uint64_t kChunks = 64;
  const uint64_t step = std::max<uint64_t>(1, size() / kChunks);
  std::vector<double> partial((size() + step - 1) / step, 0.0);
  ParallelFor(partial.size(), 1, [&](uint64_t begin, uint64_t end) {
    for (uint64_t c = begin; c < end; ++c) {
      double sum = 0;
      for (uint64_t z = c * step; z < std::min(size(), (c + 1) * step); ++z)
        sum += (re_[z] * re_[z] + im_[z] * im_[z]) * weight(z);
      partial[c] = sum;
    }
  });
  return std::accumulate(partial.begin(), partial.end(), 0.0);
}

std::vector<uint64_t> QaoaStatevector::Sample(int num_reads,
                                              uint64_t seed) const {
  Xoshiro256 rng(seed);
  std::vector<std::pair<double, int>> draws(num_reads);
  for (int r = 0; r < num_reads; ++r) draws[r] = {rng.NextDouble(), r};
  std::sort(draws.begin(), draws.end());
  // Norm first, so that rounding of the sum cannot leave a draw unassigned.
  double total = 0;
  for (uint64_t z = 0; z < size(); ++z)
    total += re_[z] * re_[z] + im_[z] * im_[z];
  std::vector<uint64_t> reads(num_reads, size() - 1);
  double cumulative = 0;
  size_t next = 0;
  for (uint64_t z = 0; z < size() && next < draws.size(); ++z) {
    cumulative += re_[z] * re_[z] + im_[z] * im_[z];
    while (next < draws.size() && draws[next].first * total < cumulative)
      reads[draws[next++].second] = z;
  }
  // Draws past the rounded total fall on the last state of non-zero weight.
  for (uint64_t z = size(); next < draws.size() && z-- > 0;) {
    if (re_[z] * re_[z] + im_[z] * im_[z] > 0) {
      while (next < draws.size()) reads[draws[next++].second] = z;
    }
  }
  return reads;
}

}  // namespace qs
