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

// Pass 1 works on blocks of 2^15 amplitudes (512 KiB of state, within a
// core's L2): the phase multiply, then the mixer of qubits 0..14.
constexpr int kBlockBits = 15;
// Within a block, rows of 2^9 amplitudes (8 KiB of state, within L1) take the
// phase and the mixer of qubits 0..8 in one visit.
constexpr int kSubBlockBits = 9;
// Qubits 0..2 pair amplitudes 1, 2 and 4 doubles apart, within one SIMD
// register: they are mixed by in-register shuffles, eight amplitudes at once.
constexpr int kLowestBits = 3;
// Pass 2 mixes the high qubits in groups of up to kGroupBits: a tile is the
// 2^g chunks of contiguous amplitudes (64 at least) that differ only in the
// group's bits, 2^kTileBits amplitudes in all (512 KiB of state). It is copied
// into a contiguous buffer, mixed there and copied back: the chunks lie at a
// stride of a power of two, which in place would alias to the same cache
// sets.
constexpr int kTileBits = 15;
constexpr int kGroupBits = 9;
// Doubles between the rows of a tile beyond the chunk (one cache line).
constexpr uint64_t kRowPad = 8;
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

// The X mixer's rx(2 beta) = c I - i s X (c = cos beta, s = sin beta) is
// applied as kappa R with a scalar kappa: R = I - i t X (t = tan beta, kappa
// = c) when |t| <= 1, else R = X + i t I (t = cot beta, kappa = -i s). R costs
// two multiplies and two adds per amplitude where rx costs four and two;
// kappa^n, one complex number per layer, rides on the phase multiply.
// x' of R on an amplitude x = (xr, xi) whose partner is y = (yr, yi); T is
// double or a vector of doubles.
template <bool kSwapped, typename T>
inline void Rotate(T& xr, T& xi, const T& yr, const T& yi, double t) {
  if constexpr (kSwapped) {
    const T r = yr - t * xi, i = yi + t * xr;
    xr = r, xi = i;
  } else {
    const T r = xr + t * yi, i = xi - t * yr;
    xr = r, xi = i;
  }
}

template <bool kSwapped>
inline void RotatePair(double& ar, double& ai, double& br, double& bi,
                       double t) {
  const double a_r = ar, a_i = ai;
  Rotate<kSwapped>(ar, ai, br, bi, t);
  Rotate<kSwapped>(br, bi, a_r, a_i, t);
}

// R on len pairs (a, b).
template <bool kSwapped>
[[gnu::always_inline]] inline void RotatePairs(double* __restrict ar,
                                               double* __restrict ai,
                                               double* __restrict br,
                                               double* __restrict bi,
                                               uint64_t len, double t) {
  for (uint64_t k = 0; k < len; ++k)
    RotatePair<kSwapped>(ar[k], ai[k], br[k], bi[k], t);
}

// R on three qubits of len octets of amplitudes: octet k is element k of the
// streams r[m], i[m] (m = 0..7), and the qubits pair the streams m, m + 1
// (bit 0 of m), m, m + 2 and m, m + 4. Each stream is its own restrict
// parameter and each octet is held in scalars with the pairs in a fixed
// order, so that the compiler sees eight independent streams and vectorises
// over k.
template <bool kSwapped>
[[gnu::always_inline]] inline void RotateOctets(
    double* __restrict r0, double* __restrict r1, double* __restrict r2,
    double* __restrict r3, double* __restrict r4, double* __restrict r5,
    double* __restrict r6, double* __restrict r7, double* __restrict i0,
    double* __restrict i1, double* __restrict i2, double* __restrict i3,
    double* __restrict i4, double* __restrict i5, double* __restrict i6,
    double* __restrict i7, uint64_t len, double t) {
  for (uint64_t k = 0; k < len; ++k) {
    double x0 = r0[k], x1 = r1[k], x2 = r2[k], x3 = r3[k];
    double x4 = r4[k], x5 = r5[k], x6 = r6[k], x7 = r7[k];
    double y0 = i0[k], y1 = i1[k], y2 = i2[k], y3 = i3[k];
    double y4 = i4[k], y5 = i5[k], y6 = i6[k], y7 = i7[k];
    RotatePair<kSwapped>(x0, y0, x1, y1, t);
    RotatePair<kSwapped>(x2, y2, x3, y3, t);
    RotatePair<kSwapped>(x4, y4, x5, y5, t);
    RotatePair<kSwapped>(x6, y6, x7, y7, t);
    RotatePair<kSwapped>(x0, y0, x2, y2, t);
    RotatePair<kSwapped>(x1, y1, x3, y3, t);
    RotatePair<kSwapped>(x4, y4, x6, y6, t);
    RotatePair<kSwapped>(x5, y5, x7, y7, t);
    RotatePair<kSwapped>(x0, y0, x4, y4, t);
    RotatePair<kSwapped>(x1, y1, x5, y5, t);
    RotatePair<kSwapped>(x2, y2, x6, y6, t);
    RotatePair<kSwapped>(x3, y3, x7, y7, t);
    r0[k] = x0, r1[k] = x1, r2[k] = x2, r3[k] = x3;
    r4[k] = x4, r5[k] = x5, r6[k] = x6, r7[k] = x7;
    i0[k] = y0, i1[k] = y1, i2[k] = y2, i3[k] = y3;
    i4[k] = y4, i5[k] = y5, i6[k] = y6, i7[k] = y7;
  }
}

// Four doubles; shuffles within it are lowered to what each target has.
typedef double V4 __attribute__((vector_size(32)));
typedef int64_t V4Index __attribute__((vector_size(32)));

// out = the elements of v in the order a, b, c, d.
template <int a, int b, int c, int d>
[[gnu::always_inline]] inline void Permute(const V4& v, V4& out) {
#if defined(__clang__)
  out = __builtin_shufflevector(v, v, a, b, c, d);
#else
  out = __builtin_shuffle(v, V4Index{a, b, c, d});
#endif
}

inline void Load4(V4& v, const double* p) { __builtin_memcpy(&v, p, sizeof v); }
inline void Store4(double* p, const V4& v) {
  __builtin_memcpy(p, &v, sizeof v);
}

// R on the qubit whose partners within a register are given by the
// permutation a, b, c, d, for both registers of an octet.
template <bool kSwapped, int a, int b, int c, int d>
[[gnu::always_inline]] inline void RotateWithin(V4& r0, V4& i0, V4& r1, V4& i1,
                                                double t) {
  V4 p_r0, p_i0, p_r1, p_i1;
  Permute<a, b, c, d>(r0, p_r0);
  Permute<a, b, c, d>(i0, p_i0);
  Permute<a, b, c, d>(r1, p_r1);
  Permute<a, b, c, d>(i1, p_i1);
  Rotate<kSwapped>(r0, i0, p_r0, p_i0, t);
  Rotate<kSwapped>(r1, i1, p_r1, p_i1, t);
}

// R on qubits 0, 1 and 2 of len amplitudes (a multiple of 8) at re, im: per
// octet two registers of real and two of imaginary parts; qubit 0 pairs
// neighbours within a register, qubit 1 its halves, qubit 2 the two
// registers.
template <bool kSwapped>
[[gnu::always_inline]] inline void RotateLowestQubits(double* __restrict re,
                                                      double* __restrict im,
                                                      uint64_t len, double t) {
  for (uint64_t k = 0; k < len; k += 8) {
    V4 r0, r1, i0, i1;
    Load4(r0, re + k);
    Load4(r1, re + k + 4);
    Load4(i0, im + k);
    Load4(i1, im + k + 4);
    RotateWithin<kSwapped, 1, 0, 3, 2>(r0, i0, r1, i1, t);  // neighbours
    RotateWithin<kSwapped, 2, 3, 0, 1>(r0, i0, r1, i1, t);  // halves
    const V4 old_r0 = r0, old_i0 = i0;
    Rotate<kSwapped>(r0, i0, r1, i1, t);
    Rotate<kSwapped>(r1, i1, old_r0, old_i0, t);
    Store4(re + k, r0);
    Store4(re + k + 4, r1);
    Store4(im + k, i0);
    Store4(im + k + 4, i1);
  }
}

// R on the qubits of the row index of 2^row_bits rows of row_len amplitudes,
// row r at r * row_stride. Always inlined (as the templates it calls), so
// that each clone of the kernels compiles it for its own target: a call would
// run the baseline's code.
template <bool kSwapped>
[[gnu::always_inline]] inline void RotateRows(double* __restrict re,
                                              double* __restrict im,
                                              int row_bits, uint64_t row_len,
                                              uint64_t row_stride, double t) {
  const uint64_t rows = uint64_t{1} << row_bits;
  int b = 0;
  for (; b + 3 <= row_bits; b += 3) {
    const uint64_t low = uint64_t{1} << b, d = low * row_stride;
    for (uint64_t r = 0; r < rows;
         r += (r & (low - 1)) == low - 1 ? 7 * low + 1 : 1) {
      double* x = re + r * row_stride;
      double* y = im + r * row_stride;
      RotateOctets<kSwapped>(x, x + d, x + 2 * d, x + 3 * d, x + 4 * d,
                             x + 5 * d, x + 6 * d, x + 7 * d, y, y + d,
                             y + 2 * d, y + 3 * d, y + 4 * d, y + 5 * d,
                             y + 6 * d, y + 7 * d, row_len, t);
    }
  }
  for (; b < row_bits; ++b) {
    const uint64_t low = uint64_t{1} << b, d = low * row_stride;
    for (uint64_t r = 0; r < rows;
         r += (r & (low - 1)) == low - 1 ? low + 1 : 1) {
      const uint64_t at = r * row_stride;
      RotatePairs<kSwapped>(re + at, im + at, re + at + d, im + at + d, row_len,
                            t);
    }
  }
}

// R on the row qubits of rows of amplitudes (RotateRows): with rows of one
// amplitude at a stride of one, on the qubits of a contiguous array. Three
// qubits per pass over the data (eight amplitudes in registers: a third of
// the loads and stores of one pass per qubit), then two or one. Qubits 0..2
// of the state go to MixLowestQubits, whose pairs lie within one SIMD
// register.
QS_QAOA_KERNEL void MixRows(double* re, double* im, int row_bits,
                            uint64_t row_len, uint64_t row_stride, double t,
                            bool swapped) {
  if (swapped) {
    RotateRows<true>(re, im, row_bits, row_len, row_stride, t);
  } else {
    RotateRows<false>(re, im, row_bits, row_len, row_stride, t);
  }
}

QS_QAOA_KERNEL void MixLowestQubits(double* re, double* im, uint64_t len,
                                    double t, bool swapped) {
  if (swapped) {
    RotateLowestQubits<true>(re, im, len, t);
  } else {
    RotateLowestQubits<false>(re, im, len, t);
  }
}

// psi *= exp(-i gamma C) = c - i s, with c and s looked up by value index.
// (to may be from: in place.)
QS_QAOA_KERNEL void PhaseIndexed(const double* from_re, const double* from_im,
                                 double* to_re, double* to_im,
                                 const uint16_t* level, const double* cos_table,
                                 const double* sin_table, uint64_t len) {
  for (uint64_t k = 0; k < len; ++k) {
    const double c = cos_table[level[k]], s = sin_table[level[k]];
    const double r = from_re[k], i = from_im[k];
    to_re[k] = r * c + i * s;
    to_im[k] = i * c - r * s;
  }
}

// psi *= kappa exp(-i gamma C), with a sine and a cosine per amplitude.
void PhaseComputed(const double* from_re, const double* from_im, double* to_re,
                   double* to_im, const double* diag, double gamma,
                   std::complex<double> kappa, uint64_t len) {
  for (uint64_t k = 0; k < len; ++k) {
    const std::complex<double> phase =
        kappa * std::polar(1.0, -gamma * diag[k]);
    const double c = phase.real(), s = -phase.imag();
    const double r = from_re[k], i = from_im[k];
    to_re[k] = r * c + i * s;
    to_im[k] = i * c - r * s;
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

QaoaStatevector::LayerPlan QaoaStatevector::PlanLayer(double gamma,
                                                      double beta) const {
  LayerPlan plan;
  plan.gamma = gamma;
  plan.beta = beta;
  const double c = std::cos(beta), s = std::sin(beta);
  if (xy_mask_ == 0) {
    // rx(2 beta) = kappa R on each of the n qubits (see Rotate).
    plan.swapped = std::abs(s) > std::abs(c);
    plan.t = plan.swapped ? c / s : s / c;
    if (plan.swapped) {
      // (-i)^n s^n, the power of -i exactly.
      constexpr std::complex<double> kPowers[4] = {1, {0, -1}, -1, {0, 1}};
      plan.kappa = kPowers[n_ % 4] * std::pow(s, n_);
    } else {
      plan.kappa = std::pow(c, n_);
    }
  }
  plan.cos_table.resize(levels_.size());
  plan.sin_table.resize(levels_.size());
  for (size_t k = 0; k < levels_.size(); ++k) {
    // The multiply by c - i s is a multiply by kappa exp(-i gamma C).
    const std::complex<double> phase =
        plan.kappa * std::polar(1.0, -gamma * levels_[k]);
    plan.cos_table[k] = phase.real();
    plan.sin_table[k] = -phase.imag();
  }
  return plan;
}

void QaoaStatevector::Phase(uint64_t begin, uint64_t len, const LayerPlan& plan,
                            double* to_re, double* to_im) const {
  if (!level_.empty()) {
    PhaseIndexed(re_.get() + begin, im_.get() + begin, to_re, to_im,
                 level_.data() + begin, plan.cos_table.data(),
                 plan.sin_table.data(), len);
  } else {
    PhaseComputed(re_.get() + begin, im_.get() + begin, to_re, to_im,
                  diag_.get() + begin, plan.gamma, plan.kappa, len);
  }
}

void QaoaStatevector::PhaseAndLowMixer(uint64_t block, const LayerPlan& plan,
                                       std::vector<double>& buffer) {
  const int bits = std::min(n_, kBlockBits);
  const uint64_t begin = block << bits, len = uint64_t{1} << bits;
  double* re = re_.get() + begin;
  double* im = im_.get() + begin;
  if (xy_mask_ != 0) {
    Phase(begin, len, plan, re, im);
    return;
  }
  // The block goes, phase applied, into a buffer of rows of 2^9 amplitudes
  // (8 KiB of state, within L1) padded by a cache line: each row's qubits are
  // mixed while it is in L1, then the rows' qubits across the buffer, where
  // without the padding the eight rows of an octet would map to one L1 set.
  const int row_bits = std::min(bits, kSubBlockBits);
  const uint64_t row_len = uint64_t{1} << row_bits;
  const uint64_t row_stride = row_len + kRowPad;
  const uint64_t rows = len >> row_bits;
  buffer.resize(2 * rows * row_stride);
  double* buf_re = buffer.data();
  double* buf_im = buf_re + rows * row_stride;
  const int lowest = row_bits < kLowestBits ? 0 : kLowestBits;
  for (uint64_t r = 0; r < rows; ++r) {
    double* row_re = buf_re + r * row_stride;
    double* row_im = buf_im + r * row_stride;
    Phase(begin + r * row_len, row_len, plan, row_re, row_im);
    if (lowest > 0)
      MixLowestQubits(row_re, row_im, row_len, plan.t, plan.swapped);
    // The row's qubits [lowest, row_bits) as rows of 2^lowest amplitudes.
    const uint64_t run = uint64_t{1} << lowest;
    MixRows(row_re, row_im, row_bits - lowest, run, run, plan.t, plan.swapped);
  }
  MixRows(buf_re, buf_im, bits - row_bits, row_len, row_stride, plan.t,
          plan.swapped);
  for (uint64_t r = 0; r < rows; ++r) {
    std::copy_n(buf_re + r * row_stride, row_len, re + r * row_len);
    std::copy_n(buf_im + r * row_stride, row_len, im + r * row_len);
  }
}

void QaoaStatevector::HighMixer(int first_qubit, int qubits,
                                const LayerPlan& plan) {
  const int chunk_bits = std::min(kTileBits - qubits, first_qubit);
  const uint64_t chunk = uint64_t{1} << chunk_bits;
  const int between = first_qubit - chunk_bits;  // bits between chunk and group
  const uint64_t tiles = size() >> (chunk_bits + qubits);
  double* re = re_.get();
  double* im = im_.get();
  // Rows padded by a cache line: at a power-of-two stride the eight rows
  // that one pass pairs would all map to the same L1 set.
  const uint64_t row_stride = chunk + kRowPad;
  const uint64_t rows = uint64_t{1} << qubits;
  ParallelFor(tiles, 1, [&](uint64_t begin, uint64_t end) {
    std::vector<double> tile_re(rows * row_stride), tile_im(rows * row_stride);
    for (uint64_t t = begin; t < end; ++t) {
      const uint64_t low = t & ((uint64_t{1} << between) - 1);
      const uint64_t high = t >> between;
      const uint64_t base =
          (low << chunk_bits) | (high << (first_qubit + qubits));
      for (uint64_t j = 0; j < rows; ++j) {
        const uint64_t from = base | (j << first_qubit);
        std::copy_n(re + from, chunk, tile_re.data() + j * row_stride);
        std::copy_n(im + from, chunk, tile_im.data() + j * row_stride);
      }
      MixRows(tile_re.data(), tile_im.data(), qubits, chunk, row_stride, plan.t,
              plan.swapped);
      for (uint64_t j = 0; j < rows; ++j) {
        const uint64_t to = base | (j << first_qubit);
        std::copy_n(tile_re.data() + j * row_stride, chunk, re + to);
        std::copy_n(tile_im.data() + j * row_stride, chunk, im + to);
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
  const LayerPlan plan = PlanLayer(gamma, beta);
  const int bits = std::min(n_, kBlockBits);
  ParallelFor(size() >> bits, kMinChunk >> bits,
              [&](uint64_t begin, uint64_t end) {
                std::vector<double> buffer;
                for (uint64_t b = begin; b < end; ++b)
                  PhaseAndLowMixer(b, plan, buffer);
              });
  if (xy_mask_ != 0) {
    ApplyXyMixer(beta);
    return;
  }
  for (int q = bits; q < n_; q += kGroupBits)
    HighMixer(q, std::min(kGroupBits, n_ - q), plan);
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

std::vector<uint64_t> QaoaStatevector::LowestCostStates(
    size_t max_count) const {
  const double lowest = *std::min_element(diag_.get(), diag_.get() + size());
  const double tol = 1e-9 * std::max(1.0, std::abs(lowest));
  std::vector<uint64_t> states;
  for (uint64_t z = 0; z < size(); ++z) {
    if (diag_[z] > lowest + tol) continue;
    if (states.size() == max_count) return {};
    states.push_back(z);
  }
  return states;
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
