// Small, fast pseudo-random generators for the sampling kernels, as value
// types: SplitMix64 derives independent per-read seeds from one request seed
// (so results do not depend on the thread count), and xoshiro256** drives the
// Metropolis acceptance test. A library call per flip would cost more than the
// flip.
#ifndef QS_CORE_BASE_RNG_H_
#define QS_CORE_BASE_RNG_H_

#include <cstdint>

namespace qs {

// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, used to seed other
// generators.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// The seed of stream `index` (a read, a lane) derived from a request seed.
// Distinct indices give unrelated streams.
inline uint64_t DeriveSeed(uint64_t seed, uint64_t index) {
  SplitMix64 mix(seed ^ (0xD1B54A32D192ED03ULL * (index + 1)));
  mix.Next();
  return mix.Next();
}

// xoshiro256** (Blackman, Vigna 2018).
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    SplitMix64 mix(seed);
    for (uint64_t& word : s_) word = mix.Next();
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, bound).
  uint64_t NextBelow(uint64_t bound) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace qs

#endif  // QS_CORE_BASE_RNG_H_
