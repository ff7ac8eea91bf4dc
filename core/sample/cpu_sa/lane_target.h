// What the lane kernels' SIMD paths need from the compiler on x86-64: the
// intrinsics and QS_SA_X86, which core/sample/cpu_sa/lane_paths.inc reads to
// compile the AVX2 and AVX-512 paths. Included, before their namespace, by
// the files that compile lane_paths.inc.
#ifndef QS_CORE_SAMPLE_CPU_SA_LANE_TARGET_H_
#define QS_CORE_SAMPLE_CPU_SA_LANE_TARGET_H_

#if defined(__x86_64__)
#include <immintrin.h>
#define QS_SA_X86 1
#endif

#endif  // QS_CORE_SAMPLE_CPU_SA_LANE_TARGET_H_
