// Saturating arithmetic for sizes computed from untrusted request fields (a
// puzzle's dimensions): a product too large for int64_t becomes INT64_MAX,
// which every size limit rejects, instead of overflowing (undefined behaviour)
// into a small or negative number that would slip past the limit.
#ifndef QS_CORE_BASE_SATURATING_H_
#define QS_CORE_BASE_SATURATING_H_

#include <cstdint>
#include <limits>

namespace qs {

// a * b for a, b >= 0, or INT64_MAX when the product does not fit.
constexpr int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product))
    return std::numeric_limits<int64_t>::max();
  return product;
}

// a + b for a, b >= 0, or INT64_MAX when the sum does not fit.
constexpr int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum))
    return std::numeric_limits<int64_t>::max();
  return sum;
}

}  // namespace qs

#endif  // QS_CORE_BASE_SATURATING_H_
